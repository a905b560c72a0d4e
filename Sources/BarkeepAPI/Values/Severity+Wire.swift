import BarkeepCore
import BarkeepProtocol

extension Severity: WireValue {
    /// One of the raw values.
    public init(wire: String) throws(ValueProblem) {
        guard let severity = Severity(rawValue: wire) else {
            throw ValueProblem(predicate: "must be one of " + Severity.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = severity
    }
    /// The raw value.
    public var wire: String { rawValue }
    /// A JSON string holding one of the raw values.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a severity") }
        try self.init(wire: text)
    }
    /// The raw value.
    public var json: Any { rawValue }
    /// One of the raw values.
    public static var schema: ValueSchema { .string(values: allCases.map(\.rawValue)) }
    /// The last severity.
    public static var example: Severity { allCases[allCases.count - 1] }
}
