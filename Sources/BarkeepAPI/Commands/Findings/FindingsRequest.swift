import BarkeepCore
import BarkeepProtocol

/// `FINDINGS PROJECT [FILTERS…]`.
public struct FindingsRequest: CommandRequest {
    /// The findings as `barkeep findings --json` prints them (`FindingRecord.listJSON`).
    public func jsonBody(of reply: Reply) -> Any { reply.rows.map(\.listJSON) }
    /// An array of `listJSON` objects.
    public static var jsonBodySchema: [String: Any]? { JSONBodySchema.array(FindingRecord.listJSONSchema) }

    /// A `finding` record per finding the filters select, by file and line (streamed a page at a time).
    public typealias Reply = RecordsReply<FindingRecord>

    /// The project.
    public var project = ""
    /// Which findings (FindingFilters); none: those that need work.
    public var filters = FindingFilters()

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for the findings of `project` that `filters` select.
    public init(project: String, filters: FindingFilters = FindingFilters()) {
        self.project = project
        self.filters = filters
    }

    /// The command.
    public static let spec = CommandSpec(
        "FINDINGS", role: .reader, effect: .read,
        summary: "A project's findings by file and line, filtered: by default those that need work.",
        http: .get("projects/{project}/findings"))
    /// Its arguments: the project, then the filter language.
    public static let fields: [Field<FindingsRequest>] =
        [.argument("project", \.project, "The project.", names: .project)]
        + Field.group(\.filters, FindingFilters.fields)
}
