import BarkeepCore
import BarkeepProtocol

/// A row SCREEN REMOVE picked: what goes with it, and whether it was removed (or would be).
public struct RemovalRecord: WireFields {
    /// Its key.
    public var key = ""
    /// Screen, component or the app area.
    public var kind = ScreenKind.screen
    /// Its globs.
    public var paths: [String] = []
    /// Its findings, which go to other screens or unmapped.
    public var findings = 0
    /// Its checklist steps done, deleted with it.
    public var stepsDone = 0
    /// Its pose results, deleted with it.
    public var poseResults = 0
    /// Whether it was removed (or would be).
    public var isRemoved = false
    /// Why it was left; nil when removed.
    public var why: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "removal"

    /// The fields, in wire order.
    public static let fields: [Field<RemovalRecord>] = [
        Field("key", \.key, "Its key."),
        Field("kind", \.kind, "screen, component or area."),
        Field("paths", \.paths, "Its globs."),
        Field("findings", \.findings, "Its findings, which go to other screens or unmapped."),
        Field("steps-done", \.stepsDone, "Its checklist steps done, deleted with it."),
        Field("pose-results", \.poseResults, "Its pose results, deleted with it."),
        Field("removed", \.isRemoved, "Whether it was removed (or would be)."),
        Field("why", \.why, "Why it was left; absent when removed."),
    ]
}
