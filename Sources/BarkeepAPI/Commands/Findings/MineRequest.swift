import BarkeepCore
import BarkeepProtocol

/// `MINE PROJECT [as=NAME]`: the screens one person owns and the findings needing work assigned to them.
public struct MineRequest: CommandRequest {
    /// `barkeep mine --json`'s object (`mineJSON`).
    public func jsonBody(of reply: Reply) -> Any { reply.mineJSON }
    /// `mineJSON`'s schema.
    public static var jsonBodySchema: [String: Any]? { Reply.mineJSONSchema }

    /// A `type=screen` record per screen, component or area NAME owns, by key, then a `type=finding` record per
    /// finding needing work assigned to NAME, by file and line (streamed); `OK name=NAME count=N`.
    public typealias Reply = TypedReply<MineParts, MineSummary>

    /// The project.
    public var project = ""
    /// Whose; nil: the session's person.
    public var person: String?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for `person`'s screens and findings in `project` (nil: the session's person).
    public init(project: String, person: String? = nil) {
        self.project = project
        self.person = person
    }

    /// The command.
    public static let spec = CommandSpec(
        "MINE", role: .reader, effect: .read,
        summary: "The screens a person owns and the findings needing work assigned to them.",
        http: .get("projects/{project}/mine"))
    /// Its arguments.
    public static let fields: [Field<MineRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field(
            "as", \.person, "Whose (default: the session's person).",
            check: { name in Assignee.isValid(name) ? nil : ValueProblem(Assignee.rule(for: name)) }),
    ]
}

/// MINE's records: the screens, then the findings.
public struct MineParts: TypedParts {
    /// The screens, components and area the person owns, by key, as SCREEN LIST sends them.
    public var screens: [ScreenRecord] = []
    /// The findings needing work assigned to the person, by file and line.
    public var findings: [FindingRecord] = []

    /// None, filled by decoding.
    public init() {}
    /// `screens`, then `findings`.
    public init(screens: [ScreenRecord], findings: [FindingRecord]) {
        self.screens = screens
        self.findings = findings
    }

    /// `type=screen`, then `type=finding`.
    public static let parts: [TypedPart<MineParts>] = [.many("screen", \.screens), .many("finding", \.findings)]
}

/// MINE's `OK` line: whose records they are.
public struct MineSummary: WireFields {
    /// The person.
    public var name = ""

    /// An empty summary, filled by decoding.
    public init() {}
    /// The summary naming `name`.
    public init(name: String) { self.name = name }

    /// The fields.
    public static let fields: [Field<MineSummary>] = [Field("name", \.name, "The person.")]
}

extension TypedReply where Parts == MineParts, Summary == MineSummary {
    /// The JSON object `barkeep mine --json` prints: `{name, screens, findings}`, the screens as `barkeep screen list
    /// --json` prints them, the findings as `barkeep findings --json`.
    public var mineJSON: [String: Any] {
        ["name": summary.name, "screens": parts.screens.map(\.listJSON), "findings": parts.findings.map(\.listJSON)]
    }

    /// The JSON Schema of `mineJSON`.
    public static var mineJSONSchema: [String: Any] {
        JSONBodySchema.closed([
            "name": MineSummary.memberSchema("name"), "screens": JSONBodySchema.array(ScreenRecord.listJSONSchema),
            "findings": JSONBodySchema.array(FindingRecord.listJSONSchema),
        ])
    }
}
