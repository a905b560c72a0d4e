import BarkeepCore
import BarkeepProtocol

/// `SCREEN SHOW PROJECT KEY`: one screen with where it stands and why it is not done.
public struct ScreenShowRequest: CommandRequest {
    /// The screen's detail (`detailJSON`), as `barkeep screen show --json` prints it.
    public func jsonBody(of reply: Reply) -> Any { reply.parts.detailJSON }
    /// `detailJSON`'s schema.
    public static var jsonBodySchema: [String: Any]? { ScreenDetail.detailJSONSchema }

    /// Its typed records (ScreenDetail), `OK count=N`.
    public typealias Reply = TypedReply<ScreenDetail, NoFields>

    /// The project.
    public var project = ""
    /// The screen's key.
    public var key = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// A request showing screen `key` of `project`.
    public init(project: String, key: String) {
        self.project = project
        self.key = key
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN SHOW", role: .reader, effect: .read,
        summary: "One screen: its checklist steps, latest pose results, findings needing work, history and why it is "
            + "not done.", http: .get("projects/{project}/screens/{key}"))
    /// Its arguments.
    public static let fields: [Field<ScreenShowRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("key", \.key, "The screen's key.", names: .screenKey).withSchema(.string(minLength: 1)),
    ]
}

/// SCREEN SHOW's records: the screen, its checklist steps, its required poses (latest result), its findings needing
/// work, its history (the latest 100 events, oldest first) and the reasons it is not done (none: done).
public struct ScreenDetail: TypedParts {
    /// The `screen` record, with where it stands.
    public var screen = ScreenRecord()
    /// A `step` record per checklist step.
    public var steps: [StepRecord] = []
    /// A `pose` record per required pose: its latest result, or `result=none`.
    public var poses: [PoseResultRecord] = []
    /// A `finding` record per finding needing work, its own and those of the components it uses.
    public var findings: [FindingRecord] = []
    /// An event record per event of its history and its findings'.
    public var history: [EventFields] = []
    /// Why it is not done.
    public var why: [ScreenReasonRecord] = []

    /// None, filled by decoding.
    public init() {}
    /// The parts, in wire order.
    public init(
        screen: ScreenRecord, steps: [StepRecord], poses: [PoseResultRecord], findings: [FindingRecord],
        history: [EventFields], why: [ScreenReasonRecord]
    ) {
        self.screen = screen
        self.steps = steps
        self.poses = poses
        self.findings = findings
        self.history = history
        self.why = why
    }

    /// `type=screen`, `step`, `pose`, `finding`, `event`, `why`.
    public static let parts: [TypedPart<ScreenDetail>] = [
        .one("screen", \.screen), .many("step", \.steps), .many("pose", \.poses), .many("finding", \.findings),
        .many("event", \.history), .many("why", \.why),
    ]

    /// The JSON object `barkeep screen show --json` prints (and MCP's screen_detail): {screen, steps, poses,
    /// findings, why, history}, the screen as `barkeep screen list --json` prints it, the findings as `barkeep
    /// findings --json`, the history as `barkeep watch --json` prints events.
    public var detailJSON: [String: Any] {
        [
            "screen": screen.listJSON, "steps": steps.map(\.json), "poses": poses.map(\.json),
            "findings": findings.map(\.listJSON), "why": why.map(\.json), "history": history.map(\.json),
        ]
    }

    /// The JSON Schema of `detailJSON`.
    public static var detailJSONSchema: [String: Any] {
        JSONBodySchema.closed([
            "screen": ScreenRecord.listJSONSchema, "steps": JSONBodySchema.array(StepRecord.jsonSchema),
            "poses": JSONBodySchema.array(PoseResultRecord.jsonSchema),
            "findings": JSONBodySchema.array(FindingRecord.listJSONSchema),
            "why": JSONBodySchema.array(ScreenReasonRecord.jsonSchema),
            "history": JSONBodySchema.array(EventFields.jsonSchema),
        ])
    }
}
