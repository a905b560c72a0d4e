import BarkeepCore
import BarkeepProtocol

extension CheckBase: WireValue {
    /// Why a text is not a base, as the server words it.
    static let problem = ValueProblem(predicate: "must be latest or a run's number")

    /// `latest` or a run's number.
    public init(wire: String) throws(ValueProblem) {
        guard let base = CheckBase(text: wire) else { throw Self.problem }
        self = base
    }
    /// `latest` or the run's number.
    public var wire: String { text }
    /// A JSON string holding `latest` or a run's number.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw Self.problem }
        try self.init(wire: text)
    }
    /// The wire's text, a JSON string.
    public var json: Any { text }
    /// `latest` or a run's number, as a string.
    public static var schema: ValueSchema { .string(minLength: 1) }
    /// A run.
    public static var example: CheckBase { .run(12) }
}

/// A check's class of a finding, as records carry it.
extension CheckClass: WireEnum {}

/// A check's answer, as its summary carries it.
extension CheckResult: WireEnum {}
