import BarkeepCore
import BarkeepProtocol

/// A pose's latest result on a screen, or `none` when nothing was recorded: the `result` of a POSES cell and the
/// `from` of a result POSE RECORD replaces.
public struct PoseCellResult: WireValue, Equatable {
    /// The result; nil: none recorded.
    public var result: PoseResult?

    /// The cell holding `result`.
    public init(_ result: PoseResult?) { self.result = result }

    /// What the wire writes for no result.
    public static let noneWord = "none"

    /// A result's raw value, or `none`.
    public init(wire: String) throws(ValueProblem) {
        guard wire != Self.noneWord else {
            result = nil
            return
        }
        result = try PoseResult(wire: wire)
    }
    /// The raw value, or `none`.
    public var wire: String { result?.rawValue ?? Self.noneWord }
    /// A JSON string: a result's raw value, or `none`.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a pose result or none") }
        try self.init(wire: text)
    }
    /// The raw value, or `none`.
    public var json: Any { wire }
    /// One of the results, or `none`.
    public static var schema: ValueSchema { .string(values: PoseResult.allCases.map(\.rawValue) + [noneWord]) }
    /// A result.
    public static var example: PoseCellResult { PoseCellResult(.notApplicable) }
}
