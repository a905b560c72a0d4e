import BarkeepCore
import BarkeepProtocol

/// A run's number in its project (RUN SHOW): a `ProjectNumber` refused in the run's words.
public struct RunNumber: WireValue, Equatable {
    /// The number.
    public var value: Int

    /// The number `value`.
    public init(_ value: Int) { self.value = value }

    /// Why a text is not a run's number, as the server words it.
    public static let problem = ValueProblem("a run is named by its number in the project: 1 to 2147483647")

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
    /// The example number.
    public static var example: RunNumber { RunNumber(ProjectNumber.example.value) }
}
