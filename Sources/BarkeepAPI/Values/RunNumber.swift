import BarkeepCore
import BarkeepProtocol

/// A run's number in its project (`RUN SHOW app 3`): 1 to 2147483647, as ProjectNumber is a finding's.
public struct RunNumber: WireValue, Equatable {
    /// The number.
    public var value: Int

    /// The number `value` (1 to `FindingNumber.maximum`).
    public init(_ value: Int) { self.value = value }

    /// Why a text is not a run's number, as the server words it.
    public static let problem = ValueProblem("a run is named by its number in the project: 1 to 2147483647")

    /// Decimal digits, 1 to 2147483647.
    public init(wire: String) throws(ValueProblem) {
        guard let number = Int32(wire), number > 0 else { throw Self.problem }
        value = Int(number)
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer, 1 to 2147483647.
    public init(json: Any) throws(ValueProblem) {
        guard let number = JSONInteger.value(json), (1...FindingNumber.maximum).contains(number) else {
            throw Self.problem
        }
        value = number
    }
    /// The number.
    public var json: Any { value }
    /// An integer of 1 or more.
    public static var schema: ValueSchema { .integer(minimum: 1) }
    /// 7.
    public static var example: RunNumber { RunNumber(7) }
}
