import BarkeepCore
import BarkeepProtocol

/// `FINDING SHOW PROJECT N`.
public struct FindingShowRequest: CommandRequest {
    /// The finding with its history (`detailJSON`), as `barkeep finding show --json` prints it.
    public func jsonBody(of reply: Reply) -> Any { reply.detailJSON }
    /// `detailJSON`'s schema.
    public static var jsonBodySchema: [String: Any]? { Reply.detailJSONSchema }

    /// The `finding` record, then an event record per change of it, oldest first.
    public typealias Reply = HeadReply<FindingRecord, EventFields>

    /// The project.
    public var project = ""
    /// The finding's (or item's) number in it.
    public var number = ProjectNumber(1)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request showing finding `number` of `project`.
    public init(project: String, number: ProjectNumber) {
        self.project = project
        self.number = number
    }

    /// The command.
    public static let spec = CommandSpec(
        "FINDING SHOW", role: .reader, effect: .read, summary: "One finding or item of a project, with its history.",
        http: .get("projects/{project}/findings/{number}"))
    /// Its arguments.
    public static let fields: [Field<FindingShowRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("number", \.number, "The finding's number in the project."),
    ]
}

/// `FINDING COMMENT PROJECT N TEXT`.
public struct FindingCommentRequest: CommandRequest {
    /// The comment's event record.
    public typealias Reply = RecordsReply<EventFields>

    /// The project.
    public var project = ""
    /// The finding's (or item's) number in it.
    public var number = ProjectNumber(1)
    /// The comment: one line (FindingComment's rule).
    public var text = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// A request commenting `text` on finding `number` of `project`.
    public init(project: String, number: ProjectNumber, text: String) {
        self.project = project
        self.number = number
        self.text = text
    }

    /// The command.
    public static let spec = CommandSpec(
        "FINDING COMMENT", role: .writer, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Adds a comment to a finding's history (not a change of status).",
        http: .post("projects/{project}/findings/{number}/comments"))
    /// Its arguments.
    public static let fields: [Field<FindingCommentRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("number", \.number, "The finding's number in the project."),
        .argument(
            "text", \.text, "The comment.", check: { text in FindingComment.refusal(of: text).map { ValueProblem($0) } }
        ).withSchema(.string(minLength: 1)),
    ]
}

extension HeadReply where Head == FindingRecord, Row == EventFields {
    /// The JSON object `barkeep finding show --json` prints (and MCP's finding_detail): the finding as `barkeep
    /// findings --json` prints it, with its project, message and reason, and its history as `barkeep watch --json`
    /// prints events.
    public var detailJSON: [String: Any] {
        var object = head.listJSON
        object["project"] = head.project
        object["message"] = head.message
        object["reason"] = head.reason
        object["history"] = rows.map(\.json)
        return object
    }

    /// The JSON Schema of `detailJSON`: the finding's `listJSON` members, its project and history's events, its
    /// message and reason when it has them.
    public static var detailJSONSchema: [String: Any] {
        let always = JSONBodySchema.amended(
            FindingRecord.listJSONSchema,
            [
                "project": FindingRecord.memberSchema("project"),
                "history": JSONBodySchema.array(EventFields.jsonSchema),
            ])
        return JSONBodySchema.amended(
            always,
            ["message": FindingRecord.memberSchema("message"), "reason": FindingRecord.memberSchema("reason")],
            required: false)
    }
}
