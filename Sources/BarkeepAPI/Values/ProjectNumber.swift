import BarkeepCore
import BarkeepProtocol

/// The number of a finding or an item in its project (`finding=12`): 1 to 2147483647, the database's 32 bits.
public struct ProjectNumber: WireValue, Equatable {
    /// The number.
    public var value: Int

    /// The number `value` (1 to `FindingNumber.maximum`).
    public init(_ value: Int) { self.value = value }

    /// Why a text is not a finding's number, as the server words it.
    public static let problem = ValueProblem(
        "a finding is named by its number in the project: 1 to \(FindingNumber.maximum)")

    /// Decimal digits, 1 to 2147483647.
    public init(wire: String) throws(ValueProblem) {
        guard let number = Int32(wire), number > 0 else { throw Self.problem }
        value = Int(number)
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer, 1 to 2147483647.
    public init(json: Any) throws(ValueProblem) {
        guard let number = Int(jsonNumber: json), (1...FindingNumber.maximum).contains(number) else {
            throw Self.problem
        }
        value = number
    }
    /// The number.
    public var json: Any { value }
    /// An integer of 1 or more.
    public static var schema: ValueSchema { .integer(minimum: 1) }
    /// A number past the byte cache of small ones.
    public static var example: ProjectNumber { ProjectNumber(1234) }
}
