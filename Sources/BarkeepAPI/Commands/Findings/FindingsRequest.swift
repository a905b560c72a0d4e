import BarkeepCore
import BarkeepProtocol
import Foundation

/// `FINDINGS PROJECT [FILTERS…] [after=N] [limit=N]`.
public struct FindingsRequest: CommandRequest {
    /// The findings as `barkeep findings --json` prints them (`FindingRecord.listJSON`): an array; a page (`limit=`
    /// or `after=` given) is an object as EVENTS' is: `{"rows": […], "summary": {"limit": N, "next": N or null}}`.
    public func jsonBody(of reply: Reply) -> Any {
        let rows = reply.rows.map(\.listJSON)
        guard let page = reply.summary else { return rows }
        return ["rows": rows, "summary": ["limit": page.limit, "next": page.next ?? NSNull()] as [String: Any]]
            as [String: Any]
    }
    /// An array of `listJSON` objects, or a page of them (`rows`, `summary`).
    public static var jsonBodySchema: [String: Any]? {
        let rows = JSONBodySchema.array(FindingRecord.listJSONSchema)
        let summary = JSONBodySchema.closed([
            "limit": ["type": "integer"], "next": JSONBodySchema.nullable(["type": "integer"]),
        ])
        return ["anyOf": [rows, JSONBodySchema.closed(["rows": rows, "summary": summary])]]
    }

    /// A `finding` record per finding the filters select, by file and line (streamed a page at a time), then `OK
    /// count=N`; a page (`limit=` or `after=`) by number, then `OK limit=N [next=N] count=N`.
    public typealias Reply = SummarizedReply<FindingRecord, FindingsPageEnd>

    /// The project.
    public var project = ""
    /// Which findings (FindingFilters); none: those that need work.
    public var filters = FindingFilters()
    /// A page: only the findings numbered after this one; nil: from the first.
    public var after: FindingCursor?
    /// A page: at most this many findings; nil: all of them, or `FindingPage.defaultLimit` with `after`.
    public var limit: FindingLimit?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for the findings of `project` that `filters` select; a page of them (by number) when `after` or
    /// `limit` is given.
    public init(project: String, filters: FindingFilters = FindingFilters(), after: Int? = nil, limit: Int? = nil) {
        self.project = project
        self.filters = filters
        self.after = after.map(FindingCursor.init)
        self.limit = limit.map(FindingLimit.init)
    }

    /// Whether a page is asked for (`limit=` or `after=`): by number, at most `pageSize`, with the next cursor.
    public var isPaged: Bool { after != nil || limit != nil }
    /// The page's size when `isPaged`: `limit=`, else `FindingPage.defaultLimit`.
    public var pageSize: Int { limit?.value ?? FindingPage.defaultLimit }

    /// The command.
    public static let spec = CommandSpec(
        "FINDINGS", role: .reader, effect: .read,
        summary: "A project's findings by file and line, filtered: by default those that need work; with limit= or "
            + "after=, a page of them by number.",
        http: .get("projects/{project}/findings"))
    /// Its arguments: the project, the filter language, then the page.
    public static let fields: [Field<FindingsRequest>] =
        [.argument("project", \.project, "The project.", names: .project)]
        + Field.group(\.filters, FindingFilters.fields) + [
            Field(
                "after", \.after,
                "A page: only the findings numbered after N (the previous page's next), by number."),
            Field(
                "limit", \.limit,
                "A page: at most N findings, by number (1 to \(FindingPage.maximumLimit); default "
                    + "\(FindingPage.defaultLimit) with after=, and over HTTP; without either, the line protocol "
                    + "sends every finding)."),
        ]
}

/// FINDINGS' `OK` fields besides `count` when it sends a page (`limit=` or `after=`).
public struct FindingsPageEnd: WireFields {
    /// The page's size: `limit=`, or the default.
    public var limit = FindingPage.defaultLimit
    /// The number to ask the next page after (the page's last finding's) when findings follow the page; nil: the
    /// page is the last.
    public var next: Int?

    /// Filled by decoding.
    public init() {}
    /// The end of a page of `limit` findings, cut before others when `next` is given.
    public init(limit: Int, next: Int?) {
        self.limit = limit
        self.next = next
    }

    /// Its fields.
    public static let fields: [Field<FindingsPageEnd>] = [
        Field("limit", \.limit, "The page's size."),
        Field("next", \.next, "Findings follow this page: ask for them with after= this number."),
    ]
}
