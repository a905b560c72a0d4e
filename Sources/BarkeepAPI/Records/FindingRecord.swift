import BarkeepCore
import BarkeepProtocol
import Foundation

/// A `finding` record: a scanner's finding or an item added by hand (ITEM ADD and ITEM SET answer one; BLOCKED
/// carries its fields after the SDK and symbol it waits for).
public struct FindingRecord: WireFields, Equatable {
    /// Its number in the project.
    public var id = 0
    /// The project.
    public var project = ""
    /// scanner or manual.
    public var source = ""
    /// The scanner's rule.
    public var rule: String?
    /// Its severity.
    public var severity = ""
    /// The scanner's identity of it.
    public var identity: String?
    /// The file.
    public var file: String?
    /// The line.
    public var line: Int?
    /// The code at the line.
    public var snippet: String?
    /// Its status.
    public var status = FindingStatus.proposed
    /// Why it has its status (a blocked item: the SDK it waits for).
    public var reason: String?
    /// The screen counting it; `unmapped` for none.
    public var screen = ""
    /// An item's title.
    public var title: String?
    /// The scanner's message.
    public var message: String?
    /// The run that first reported it.
    public var firstSeenRun: Int?
    /// The run that last reported it.
    public var lastSeenRun: Int?
    /// Its checklist step.
    public var step: Int?
    /// The SDK symbols its fix needs.
    public var needs: [String]?
    /// The iOS version its code needs an availability gate for.
    public var gate: SDKVersion?
    /// Its tier.
    public var tier: Int?
    /// Who it is assigned to.
    public var assignee: String?
    /// The run still reporting it after it was verified.
    public var stillReportedRun: Int?
    /// Why no screen counts it.
    public var unmapped: String?
    /// The excluded path holding its file.
    public var excluded: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "finding"

    /// The fields, in wire order.
    public static let fields: [Field<FindingRecord>] = [
        Field("id", \.id, "Its number in the project."),
        Field("project", \.project, "The project."),
        Field("source", \.source, "scanner or manual."),
        Field("rule", \.rule, "The scanner's rule."),
        Field("severity", \.severity, "Its severity.").withChoices(Severity.allCases.map(\.rawValue)),
        Field("identity", \.identity, "The scanner's identity of it."),
        Field("file", \.file, "The file."),
        Field("line", \.line, "The line."),
        Field("snippet", \.snippet, "The code at the line."),
        Field("status", \.status, "Its status."),
        Field("reason", \.reason, "Why it has its status."),
        Field("screen", \.screen, "The screen counting it; unmapped for none."),
        Field("title", \.title, "An item's title."),
        Field("message", \.message, "The scanner's message."),
        Field("first-seen-run", \.firstSeenRun, "The run that first reported it."),
        Field("last-seen-run", \.lastSeenRun, "The run that last reported it."),
        Field("step", \.step, "Its checklist step."),
        Field("needs", \.needs, "The SDK symbols its fix needs."),
        Field("gate", \.gate, "The iOS version its code needs an availability gate for."),
        Field("tier", \.tier, "Its tier."),
        Field("assignee", \.assignee, "Who it is assigned to."),
        Field("still-reported-run", \.stillReportedRun, "The run still reporting it after it was verified."),
        Field("unmapped", \.unmapped, "Why no screen counts it."),
        Field("excluded", \.excluded, "The excluded path holding its file."),
    ]

    /// The object `barkeep findings --json` prints for a finding: exactly its documented keys, null where absent;
    /// `barkeep item add --json` adds the reason (`itemJSON`).
    public var listJSON: [String: Any] {
        func value(_ value: Any?) -> Any { value ?? NSNull() }
        return [
            "source": source, "rule": value(rule), "title": value(title), "severity": severity, "file": value(file),
            "snippet": value(snippet), "status": status.rawValue, "screen": screen, "assignee": value(assignee),
            "gate": value(gate?.description), "unmapped": value(unmapped), "excluded": value(excluded),
            "id": id, "line": value(line), "step": value(step), "first_seen_run": value(firstSeenRun),
            "last_seen_run": value(lastSeenRun), "still_reported_run": value(stillReportedRun),
            "needs": needs ?? [],
        ]
    }

    /// The members of `listJSON`: the fields by JSON name (null where an optional one is absent), `needs` a list.
    static let listMembers = [
        "source", "rule", "title", "severity", "file", "snippet", "status", "screen", "assignee", "gate", "unmapped",
        "excluded", "id", "line", "step", "first_seen_run", "last_seen_run", "still_reported_run",
    ]

    /// The JSON Schema of `listJSON`: exactly its members.
    public static var listJSONSchema: [String: Any] {
        var members = memberSchemas(listMembers)
        members["needs"] = memberSchema("needs")
        return JSONBodySchema.closed(members)
    }

    /// The object `barkeep item add --json` and `item set --json` print: `listJSON` with the reason.
    public var itemJSON: [String: Any] {
        var object = listJSON
        object["reason"] = reason ?? NSNull()
        return object
    }
}
