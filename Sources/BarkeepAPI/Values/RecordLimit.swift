import BarkeepProtocol

/// How many records a listing sends at most (`limit=N`): 1 to a million.
public struct RecordLimit: WireValue, Hashable {
    /// The most a `limit=` may ask for.
    public static let maximum = 1_000_000

    /// The number.
    public var value: Int

    /// A limit of `value`, which the caller knows to be in range.
    public init(_ value: Int) { self.value = value }

    /// Decimal digits naming 1 to a million; anything else refused as the protocol always refused it.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Int(wire), (1...Self.maximum).contains(value) else { throw Self.refusal }
        self.value = value
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer from 1 to a million.
    public init(json: Any) throws(ValueProblem) {
        guard let value = Int(jsonNumber: json) else { throw ValueProblem(predicate: "must be an integer") }
        guard (1...Self.maximum).contains(value) else { throw Self.refusal }
        self.value = value
    }
    /// The number.
    public var json: Any { value }
    /// An integer from 1 to a million.
    public static var schema: ValueSchema { .integer(minimum: 1, maximum: maximum) }
    /// 50.
    public static var example: RecordLimit { RecordLimit(50) }

    static var refusal: ValueProblem { ValueProblem(predicate: "must be a number from 1 to \(maximum)") }
}
