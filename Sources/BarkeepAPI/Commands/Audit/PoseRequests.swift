import BarkeepCore
import BarkeepProtocol

/// `POSE RECORD PROJECT SCREEN POSE[,POSE…] RESULT [keys]`, or `POSE RECORD PROJECT POSE[,POSE…] RESULT
/// screens=GLOB [keys]`: records the result of verifying a screen in a pose, or in several, on one screen or on
/// every screen the glob matches (components and the app area skipped). Its keys are declared here and nowhere else.
public struct PoseRecordRequest: CommandRequest {
    /// One result: its `pose` record and `OK count=1`; several (more than one pose, a glob, or a dry run): a row per
    /// screen and pose, or per row skipped, and `OK recorded= skipped= [dry-run=yes] count=`.
    public typealias Reply = SummarizedReply<PoseRecordRow, PoseRecordSummary>
    /// The project.
    public var project = ""
    /// The screen (not with `screens`).
    public var screen: String?
    /// The poses.
    public var poses = PoseList([])
    /// The result.
    public var result = PoseResult.passed
    /// Every screen whose key the glob matches, instead of `screen`.
    public var screens: String?
    /// The screenshot showing a failure.
    public var screenshot: String?
    /// The finding or item a failure maps to.
    public var finding: ProjectNumber?
    /// Create an item with this title for the failure and map it to it.
    public var item: String?
    /// Why it was not run, or does not apply.
    public var reason: String?
    /// The build verified.
    public var build: String?
    /// The device or simulator used.
    public var device: String?
    /// yes: report what would be recorded, record nothing.
    public var dryRun: Bool?

    /// An empty request, filled by decoding.
    public init() {}

    /// A request recording `result` for `poses` on `screen`, or on the screens `screens` matches.
    public init(project: String, screen: String?, poses: [Pose], result: PoseResult, screens: String? = nil) {
        self.project = project
        self.screen = screen
        self.poses = PoseList(poses)
        self.result = result
        self.screens = screens
    }

    /// Whether nothing is to be stored.
    public var isDryRun: Bool { dryRun ?? false }

    /// The command.
    public static let spec = CommandSpec(
        "POSE RECORD", role: .writer, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Records the result of verifying a screen in a pose, or in several, on one screen or many.",
        http: .post("projects/{project}/poses"),
        shapes: [
            Shape("project", "screen", "pose", "result"), Shape("project", "pose", "result", requiring: "screens"),
        ])

    /// The longest text a text key takes.
    public static let maximumTextBytes = 1000

    /// Its arguments.
    public static let fields: [Field<PoseRecordRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("screen", \.screen, "The screen's key.", placement: .positional, names: .screenKey)
            .withSchema(.string(minLength: 1)),
        .argument("pose", \.poses, "The pose."),
        .argument("result", \.result, "The result."),
        Field(
            "screens", \.screens, "Every screen whose key the glob matches, instead of the screen.",
            check: { KeyGlob($0) == nil ? globProblem : nil }),
        text(
            "screenshot", \.screenshot,
            "The screenshot showing a failure: sha256:HEX of one uploaded by SCREENSHOT PUT, or a path (not uploaded)."),
        Field("finding", \.finding, "The finding (or item) a failure maps to."),
        text("item", \.item, "Create an item with this title for the failure."),
        text("reason", \.reason, "Why it was not run or does not apply."),
        text("build", \.build, "The build verified."),
        text("device", \.device, "The device or simulator used."),
        Field("dry-run", \.dryRun, "yes: list what would be recorded, and record nothing."),
    ]

    /// Why `screens=` is refused.
    public static let globProblem = ValueProblem("screens= is a glob of screen keys: 1 to 128 of A-Z a-z 0-9 . _ - * ?")

    /// A text key of at most `maximumTextBytes` bytes.
    private static func text(
        _ key: String, _ path: WritableKeyPath<PoseRecordRequest, String?> & Sendable, _ summary: String
    ) -> Field<PoseRecordRequest> {
        Field(
            key, path, summary,
            check: { $0.utf8.count > maximumTextBytes ? ValueProblem(predicate: "must be at most 1000 bytes") : nil }
        ).withSchema(.string(minLength: 1))
    }
}

/// POSE RECORD's `OK` fields with several results: how many recorded (or that would be), how many rows skipped.
public struct PoseRecordSummary: WireFields, Equatable {
    /// Results recorded, or that would be.
    public var recorded = 0
    /// Rows skipped.
    public var skipped = 0
    /// yes when nothing was stored.
    public var dryRun: Bool?

    /// An empty summary, filled by decoding.
    public init() {}

    /// The summary of `recorded` results and `skipped` rows.
    public init(recorded: Int, skipped: Int, isDryRun: Bool) {
        self.recorded = recorded
        self.skipped = skipped
        dryRun = isDryRun ? true : nil
    }

    /// The fields, in wire order.
    public static let fields: [Field<PoseRecordSummary>] = [
        Field("recorded", \.recorded, "Results recorded, or that would be."),
        Field("skipped", \.skipped, "Rows skipped."),
        Field("dry-run", \.dryRun, "yes when nothing was stored."),
    ]
}

/// `POSE HISTORY PROJECT SCREEN [POSE]`: every result recorded for a screen, oldest first.
public struct PoseHistoryRequest: CommandRequest {
    /// A `pose` record per result.
    public typealias Reply = RecordsReply<PoseResultRecord>
    /// The project.
    public var project = ""
    /// The screen.
    public var screen = ""
    /// Only this pose.
    public var pose: Pose?

    /// An empty request, filled by decoding.
    public init() {}
    /// The history of `screen`, of `pose` only when given.
    public init(project: String, screen: String, pose: Pose?) {
        self.project = project
        self.screen = screen
        self.pose = pose
    }

    /// The command.
    public static let spec = CommandSpec(
        "POSE HISTORY", role: .reader, effect: .read, summary: "Every result recorded for a screen, oldest first.",
        http: .get("projects/{project}/screens/{screen}/poses"))
    /// Its arguments.
    public static let fields: [Field<PoseHistoryRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("screen", \.screen, "The screen's key.", names: .screenKey),
        Field("pose", \.pose, "Only this pose.", placement: .positional),
    ]
}

/// `POSES PROJECT [screen=KEY]`: the pose matrix, each screen against each pose it must pass, latest result.
public struct PosesRequest: CommandRequest {
    /// A `pose` record per screen and required pose (`result=none` where nothing was recorded).
    public typealias Reply = RecordsReply<PoseResultRecord>
    /// The project.
    public var project = ""
    /// Only this screen.
    public var screen: String?

    /// An empty request, filled by decoding.
    public init() {}
    /// The matrix of `project`, of `screen` only when given.
    public init(project: String, screen: String? = nil) {
        self.project = project
        self.screen = screen
    }

    /// The command.
    public static let spec = CommandSpec(
        "POSES", role: .reader, effect: .read,
        summary: "The pose matrix: each screen against each pose it must pass, with the latest result.",
        http: .get("projects/{project}/poses"))
    /// Its arguments.
    public static let fields: [Field<PosesRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("screen", \.screen, "Only this screen."),
    ]
}
