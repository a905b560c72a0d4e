import BarkeepCore
import BarkeepProtocol

/// A `pose` record: a result recorded for a screen in a pose (POSE RECORD, POSE HISTORY), or a cell of the pose
/// matrix (POSES, SCREEN SHOW) with `result=none` and nothing else when nothing was recorded.
public struct PoseResultRecord: WireFields, Equatable {
    /// The screen's key.
    public var screen = ""
    /// The pose.
    public var pose = Pose.p1
    /// The result; none: never recorded.
    public var result = PoseCellResult(nil)
    /// The screenshot of a failure.
    public var screenshot: String?
    /// The finding or item a failure maps to.
    public var finding: ProjectNumber?
    /// Why it was not run, or does not apply.
    public var reason: String?
    /// The build verified.
    public var build: String?
    /// The device or simulator used.
    public var device: String?
    /// Who recorded it.
    public var actor: String?
    /// When (the database's text).
    public var recorded: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "pose"

    /// The fields, in wire order.
    public static let fields: [Field<PoseResultRecord>] = [
        Field("screen", \.screen, "The screen's key."),
        Field("pose", \.pose, "The pose."),
        Field("result", \.result, "passed, failed, not_run or not_applicable; none: never recorded."),
        Field("screenshot", \.screenshot, "The screenshot of a failure."),
        Field("finding", \.finding, "The finding or item a failure maps to."),
        Field("reason", \.reason, "Why it was not run, or does not apply."),
        Field("build", \.build, "The build verified."),
        Field("device", \.device, "The device or simulator used."),
        Field("actor", \.actor, "Who recorded it."),
        Field("recorded", \.recorded, "When it was recorded."),
    ]

    /// The evidence of the result, as `pose history` and `screen show` print it: the screenshot, the finding it
    /// maps to and the reason, those given, joined by `; `.
    public var evidence: String {
        [screenshot, finding.map { "finding \($0.value)" }, reason].compactMap { $0 }.joined(separator: "; ")
    }

    /// When it was recorded, to the minute (`2026-12-04 16:05`), as the CLI's tables print it.
    public var recordedMinute: String { String((recorded ?? "").prefix(16)) }
}
