import BarkeepCore
import BarkeepProtocol

/// `RUNS PROJECT [limit=N]`.
public struct RunsRequest: CommandRequest {
    /// A `run` record per run, newest first (streamed a page at a time).
    public typealias Reply = RecordsReply<RunRecord>
    /// How many runs RUNS sends unless `limit` says otherwise.
    public static let defaultLimit = 100

    /// The project.
    public var project = ""
    /// At most this many runs; nil: `defaultLimit`.
    public var limit: RecordLimit?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for `project`'s runs, at most `limit`.
    public init(project: String, limit: RecordLimit? = nil) {
        self.project = project
        self.limit = limit
    }

    /// The command.
    public static let spec = CommandSpec(
        "RUNS", role: .reader, effect: .read, summary: "A project's scan runs, newest first.",
        http: .get("projects/{project}/runs"))
    /// Its arguments.
    public static let fields: [Field<RunsRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("limit", \.limit, "At most this many runs (default \(defaultLimit))."),
    ]
}

/// `RUN SHOW PROJECT N`.
public struct RunShowRequest: CommandRequest {
    /// The run's JSON object (`barkeep run show --json`).
    public func jsonBody(of reply: Reply) -> Any { reply.rows.first?.json ?? [:] }
    /// The record's schema.
    public static var jsonBodySchema: [String: Any]? { RunRecord.jsonSchema }

    /// The run's record.
    public typealias Reply = RecordsReply<RunRecord>

    /// The project.
    public var project = ""
    /// The run's number in it.
    public var number = RunNumber(1)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request showing run `number` of `project`.
    public init(project: String, number: RunNumber) {
        self.project = project
        self.number = number
    }

    /// The command.
    public static let spec = CommandSpec(
        "RUN SHOW", role: .reader, effect: .read, summary: "One scan run of a project, by its number there.",
        http: .get("projects/{project}/runs/{number}"))
    /// Its arguments.
    public static let fields: [Field<RunShowRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("number", \.number, "The run's number in the project."),
    ]
}
