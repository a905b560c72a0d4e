import BarkeepCore
import BarkeepProtocol

extension Pose: WireValue {
    /// `P1` to `P16`, in any case.
    public init(wire: String) throws(ValueProblem) {
        guard let pose = Pose(wire) else {
            throw ValueProblem("unknown pose \(ValueExcerpt.quoted(wire)): poses are \(Pose.range)")
        }
        self = pose
    }
    /// The raw value (`P3`).
    public var wire: String { rawValue }
    /// A JSON string naming a pose.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a pose, \(Pose.range)") }
        try self.init(wire: text)
    }
    /// The raw value.
    public var json: Any { rawValue }
    /// One of the raw values.
    public static var schema: ValueSchema { .string(values: allCases.map(\.rawValue)) }
    /// The last pose.
    public static var example: Pose { allCases[allCases.count - 1] }
}

extension PoseResult: WireValue {
    /// `passed`, `failed`, `not_run` or `not_applicable`.
    public init(wire: String) throws(ValueProblem) {
        guard let result = PoseResult(rawValue: wire) else {
            throw ValueProblem("a pose result is " + PoseResult.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = result
    }
    /// The raw value.
    public var wire: String { rawValue }
    /// A JSON string naming a result.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a pose result") }
        try self.init(wire: text)
    }
    /// The raw value.
    public var json: Any { rawValue }
    /// One of the raw values.
    public static var schema: ValueSchema { .string(values: allCases.map(\.rawValue)) }
    /// The last result.
    public static var example: PoseResult { allCases[allCases.count - 1] }
}
