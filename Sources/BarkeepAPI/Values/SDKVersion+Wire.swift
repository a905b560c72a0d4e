import BarkeepCore
import BarkeepProtocol

extension SDKVersion: WireValue {
    /// `27`, `27.1` or `27.1.2`.
    public init(wire: String) throws(ValueProblem) {
        guard let version = SDKVersion(wire) else {
            throw ValueProblem(predicate: "must be a version such as 27.1, not \(ValueExcerpt.quoted(wire))")
        }
        self = version
    }
    /// Its text (`27.1`).
    public var wire: String { description }
    /// A JSON string holding a version.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a version such as 27.1") }
        try self.init(wire: text)
    }
    /// Its text.
    public var json: Any { description }
    /// A string.
    public static var schema: ValueSchema { .string(minLength: 1) }
    /// 27.1.
    public static var example: SDKVersion { SDKVersion(27, 1) }
}
