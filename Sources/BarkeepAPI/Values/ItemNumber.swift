import BarkeepCore
import BarkeepProtocol

/// The number of an item in its project (ITEM SET, ITEM REMOVE): a `ProjectNumber` refused in the item's words.
public struct ItemNumber: WireValue, Equatable {
    /// The number.
    public var value: Int

    /// The number `value`.
    public init(_ value: Int) { self.value = value }

    /// Why a text is not an item's number, as the server words it.
    public static let problem = ValueProblem("a item is named by its number in the project: 1 to 2147483647")

    /// Decimal digits, 1 to 2147483647.
    public init(wire: String) throws(ValueProblem) {
        guard let number = try? ProjectNumber(wire: wire) else { throw Self.problem }
        value = number.value
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer, 1 to 2147483647.
    public init(json: Any) throws(ValueProblem) {
        guard let number = try? ProjectNumber(json: json) else { throw Self.problem }
        value = number.value
    }
    /// The number.
    public var json: Any { value }
    /// An integer of 1 or more.
    public static var schema: ValueSchema { ProjectNumber.schema }
    /// A number past the byte cache of small ones.
    public static var example: ItemNumber { ItemNumber(ProjectNumber.example.value) }
}
