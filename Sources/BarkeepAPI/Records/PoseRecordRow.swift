import BarkeepCore
import BarkeepProtocol

/// A row of POSE RECORD's reply: a result recorded (or that would be), or a row the command skipped.
public typealias PoseRecordRow = OneOf<PoseRecordedRow, PoseSkippedRow>

/// A result POSE RECORD recorded: the `pose` record, with (for several results) the row's kind before it and the
/// result it replaces after it.
public struct PoseRecordedRow: WireFields, Equatable {
    /// The row's kind (several results only).
    public var kind: ScreenKind?
    /// The result.
    public var pose = PoseResultRecord()
    /// The result it replaces; none: there was none (several results only).
    public var from: PoseCellResult?

    /// An empty row, filled by decoding.
    public init() {}

    /// The row of `pose`; `kind` and `from` for one of several results.
    public init(_ pose: PoseResultRecord, kind: ScreenKind? = nil, from: PoseCellResult? = nil) {
        self.pose = pose
        self.kind = kind
        self.from = from
    }

    /// docs/protocol.md's name for it: a `pose` record with `kind` and `from`.
    public static let recordName: String? = "pose"

    /// The fields, in wire order.
    public static let fields: [Field<PoseRecordedRow>] =
        [Field("kind", \.kind, "screen, component or area (several results only).")]
        + Field.group(\.pose, PoseResultRecord.fields)
        + [Field("from", \.from, "The result it replaces; none (several results only).")]
}

/// A row POSE RECORD skipped (a component, the app area): `skipped=yes` and why.
public struct PoseSkippedRow: WireFields, Discriminated, Equatable {
    /// The row's key.
    public var screen = ""
    /// Its kind.
    public var kind = ScreenKind.component
    /// The poses asked for, as given (`P2,P3`).
    public var poses = ""
    /// Always yes: what tells the row apart.
    public var isSkipped = true
    /// Why the row takes no result.
    public var why = ""

    /// The key only a skipped row carries.
    public static let discriminator = "skipped"

    /// An empty row, filled by decoding.
    public init() {}

    /// The row of `screen`, of `kind`, skipped for `why`.
    public init(screen: String, kind: ScreenKind, poses: String, why: String) {
        self.screen = screen
        self.kind = kind
        self.poses = poses
        self.why = why
    }

    /// The fields, in wire order.
    public static let fields: [Field<PoseSkippedRow>] = [
        Field("screen", \.screen, "The row's key."),
        Field("kind", \.kind, "component or area."),
        Field("pose", \.poses, "The poses not recorded, comma-separated."),
        Field("skipped", \.isSkipped, "yes."),
        Field("why", \.why, "Why the row takes no result."),
    ]
}
