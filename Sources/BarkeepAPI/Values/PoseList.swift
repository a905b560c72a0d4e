import BarkeepCore
import BarkeepProtocol

/// One pose or several joined by commas (`P2,p3`), in any case, each kept once in the order given: POSE RECORD's
/// POSE.
public struct PoseList: WireValue, Equatable {
    /// The poses, each once.
    public var poses: [Pose]

    /// The list of `poses` (repeats dropped).
    public init(_ poses: [Pose]) {
        self.poses = []
        for pose in poses where !self.poses.contains(pose) { self.poses.append(pose) }
    }

    /// Poses joined by commas; an empty one is an unknown pose.
    public init(wire: String) throws(ValueProblem) {
        var poses: [Pose] = []
        for text in wire.split(separator: ",", omittingEmptySubsequences: false) {
            poses.append(try Pose(wire: String(text)))
        }
        self.init(poses)
    }
    /// Joined by commas.
    public var wire: String { poses.map(\.rawValue).joined(separator: ",") }
    /// A JSON string, as on the wire.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a pose, \(Pose.range)") }
        try self.init(wire: text)
    }
    /// As on the wire.
    public var json: Any { wire }
    /// One pose (a tool names one; the wire and the CLI take several).
    public static var schema: ValueSchema { Pose.schema }
    /// The last pose.
    public static var example: PoseList { PoseList([Pose.example]) }
}
