import BarkeepCore
import BarkeepProtocol

/// What FINDING SET and FINDING ASSIGN answer: a row per finding chosen, then the counts.
public typealias BulkChangeReply = SummarizedReply<FindingChangeRecord, BulkChangeSummary>

extension SummarizedReply where Row == FindingChangeRecord, Summary == BulkChangeSummary {
    /// The JSON of a bulk change as `barkeep finding set|assign --json` prints it: for one finding changed by
    /// number (`isSingle`) its JSON object; else {dry_run, changed, unchanged, refused, findings (each with change,
    /// from, to, refusal)}.
    public func json(isDryRun: Bool, isSingle: Bool) -> Any {
        if isSingle, let finding = rows.first?.finding { return finding.listJSON }
        return bulkJSON(isDryRun: isDryRun)
    }

    /// The bulk object: {dry_run, changed, unchanged, refused, findings}.
    public func bulkJSON(isDryRun: Bool) -> [String: Any] {
        let counts = summary ?? BulkChangeSummary()
        return [
            "dry_run": isDryRun, "changed": counts.changed, "unchanged": counts.unchanged,
            "refused": counts.refused, "findings": rows.map(\.listJSON),
        ]
    }
}

/// `FINDING SET PROJECT N[,N…] STATUS [reason=…] [dry-run=yes]`, or
/// `FINDING SET PROJECT STATUS where=yes FILTERS… [reason=…] [dry-run=yes]`.
public struct FindingSetRequest: CommandRequest {
    /// One finding changed by number: its JSON object; else the bulk object (`BulkChangeReply.json(isDryRun:)`).
    public func jsonBody(of reply: Reply) -> Any {
        reply.json(isDryRun: isDryRun == true, isSingle: isDryRun != true && numbers?.numbers.count == 1)
    }
    /// One finding's `listJSON` or the bulk object.
    public static var jsonBodySchema: [String: Any]? { FindingChangeRecord.changeBodySchema }

    /// A row per finding chosen, then `OK changed=N unchanged=N refused=N dry-run=yes|no count=N`.
    public typealias Reply = BulkChangeReply

    /// The project.
    public var project = ""
    /// The findings, by number (not with `where`).
    public var numbers: FindingNumberList?
    /// The status to set (one a person may set: FindingLifecycle.personStatuses; the handler checks it).
    public var newStatus = ""
    /// `where=yes`: the filters choose the findings.
    public var isWhere: Bool?
    /// The filters, with `where=yes`.
    public var filters = FindingFilters()
    /// Why (required for the verdicts that need one).
    public var reason: String?
    /// `dry-run=yes`: report what would change, change nothing.
    public var isDryRun: Bool?

    /// An empty request, filled by decoding.
    public init() {}

    /// The command.
    public static let spec = CommandSpec(
        "FINDING SET", role: .writer, effect: .write(isDestructive: true, isIdempotent: true),
        summary: "Triages findings: by numbers, or every finding the filters choose.",
        http: .post("projects/{project}/findings/status"),
        shapes: [Shape("project", "number", "new-status"), Shape("project", "new-status", requiring: "where")])
    /// Its arguments.
    public static let fields: [Field<FindingSetRequest>] =
        [
            .argument("project", \.project, "The project.", names: .project),
            Field("number", \.numbers, "The findings' numbers (not with filters).", placement: .positional),
            .argument("new-status", \.newStatusWord, "The status to set."),
            Field("where", \.isWhere, "yes: the filters choose the findings."),
        ] + Field.group(\.filters, FindingFilters.fields) + [
            Field("reason", \.reason, "Why (required for \(FindingStatus.verdictsNeedingReason)).")
                .withSchema(.string(minLength: 1)),
            Field("dry-run", \.isDryRun, "List what would change; change nothing."),
        ]

    /// The status to set as the field holds it: the wire's text (the handler checks it, in its words), in JSON
    /// one of the statuses a person may set.
    private var newStatusWord: FilterText<FilterForms.Word<FilterWordSets.SettableStatuses>> {
        get { FilterText(newStatus) }
        set { newStatus = newValue.text }
    }
}

/// `FINDING ASSIGN PROJECT N[,N…] NAME|none [dry-run=yes]`, or
/// `FINDING ASSIGN PROJECT NAME|none where=yes FILTERS… [dry-run=yes]`.
public struct FindingAssignRequest: CommandRequest {
    /// One finding assigned by number: its JSON object; else the bulk object (`BulkChangeReply.json(isDryRun:)`).
    public func jsonBody(of reply: Reply) -> Any {
        reply.json(isDryRun: isDryRun == true, isSingle: isDryRun != true && numbers?.numbers.count == 1)
    }
    /// One finding's `listJSON` or the bulk object.
    public static var jsonBodySchema: [String: Any]? { FindingChangeRecord.changeBodySchema }

    /// A row per finding chosen, then the counts.
    public typealias Reply = BulkChangeReply

    /// The project.
    public var project = ""
    /// The findings, by number (not with `where`).
    public var numbers: FindingNumberList?
    /// Who: a name like a token's, or `none` (the handler checks it).
    public var name = ""
    /// `where=yes`: the filters choose the findings.
    public var isWhere: Bool?
    /// The filters, with `where=yes`.
    public var filters = FindingFilters()
    /// `dry-run=yes`: report what would change, change nothing.
    public var isDryRun: Bool?

    /// An empty request, filled by decoding.
    public init() {}

    /// The command.
    public static let spec = CommandSpec(
        "FINDING ASSIGN", role: .writer, effect: .write(isDestructive: true, isIdempotent: true),
        summary: "Assigns findings to someone or to no one: by numbers, or every finding the filters choose.",
        http: .post("projects/{project}/findings/assignee"),
        shapes: [Shape("project", "number", "name"), Shape("project", "name", requiring: "where")])
    /// Its arguments.
    public static let fields: [Field<FindingAssignRequest>] =
        [
            .argument("project", \.project, "The project.", names: .project),
            Field("number", \.numbers, "The findings' numbers (not with filters).", placement: .positional),
            .argument("name", \.name, "Who: a name like a token's, or none to unassign.")
                .withSchema(.string(minLength: 1)),
            Field("where", \.isWhere, "yes: the filters choose the findings."),
        ] + Field.group(\.filters, FindingFilters.fields) + [
            Field("dry-run", \.isDryRun, "List what would change; change nothing.")
        ]
}
