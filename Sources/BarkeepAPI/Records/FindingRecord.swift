import BarkeepCore
import BarkeepProtocol
import Foundation

/// A `finding` record: a scanner's finding or a checklist item of a project (FINDINGS, FINDING SHOW, and the
/// finding part of the records that carry one). `listJSON` is what `barkeep findings --json` prints for it.
public struct FindingRecord: WireFields {
    /// Its number in the project.
    public var id = 0
    /// The project.
    public var project = ""
    /// Who reported it: a scanner's name, or `manual` for an item.
    public var source = ""
    /// The scanner's rule (`DUO007`); nil for an item.
    public var rule: String?
    /// How bad it is.
    public var severity = ""
    /// The identity the scanner's reports are matched by; nil for an item.
    public var identity: String?
    /// The file, when it names one.
    public var file: String?
    /// The line in it.
    public var line: Int?
    /// The code at that line.
    public var snippet: String?
    /// Where triage stands.
    public var status = FindingStatus.proposed
    /// Why its status was set, when given.
    public var reason: String?
    /// The screen that owns it (the app area when none does).
    public var screen = ""
    /// An item's title.
    public var title: String?
    /// The scanner's message.
    public var message: String?
    /// The run that first reported it.
    public var firstSeenRun: Int?
    /// The run that last reported it.
    public var lastSeenRun: Int?
    /// The checklist step an item belongs to.
    public var step: Int?
    /// The SDK symbols it needs; nil: none (the wire leaves the key out).
    public var needs: [String]?
    /// The iOS version to wrap its code in `if #available` for.
    public var gate: String?
    /// Its tier.
    public var tier: Int?
    /// Who is assigned it.
    public var assignee: String?
    /// For a verified finding a later scan still reports: the latest run that did.
    public var stillReportedRun: Int?
    /// Why no screen counts it, when none does.
    public var unmapped: UnmappedReason?
    /// The excluded path holding its file, when that is why.
    public var excluded: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "finding"

    /// The fields, in wire order.
    public static let fields: [Field<FindingRecord>] = [
        Field("id", \.id, "Its number in the project."),
        Field("project", \.project, "The project."),
        Field("source", \.source, "A scanner's name, or manual for an item."),
        Field("rule", \.rule, "The scanner's rule; absent for an item."),
        Field("severity", \.severity, "How bad it is."),
        Field("identity", \.identity, "The identity scans are matched by; absent for an item."),
        Field("file", \.file, "The file, when it names one."),
        Field("line", \.line, "The line in it."),
        Field("snippet", \.snippet, "The code at that line."),
        Field("status", \.status, "Where triage stands."),
        Field("reason", \.reason, "Why its status was set, when given."),
        Field("screen", \.screen, "The screen that owns it (the app area when none does)."),
        Field("title", \.title, "An item's title."),
        Field("message", \.message, "The scanner's message."),
        Field("first-seen-run", \.firstSeenRun, "The run that first reported it."),
        Field("last-seen-run", \.lastSeenRun, "The run that last reported it."),
        Field("step", \.step, "The checklist step an item belongs to."),
        Field("needs", \.needs, "The SDK symbols it needs (comma-separated on the wire; absent: none)."),
        Field("gate", \.gate, "The iOS version to wrap its code in if #available for."),
        Field("tier", \.tier, "Its tier."),
        Field("assignee", \.assignee, "Who is assigned it."),
        Field("still-reported-run", \.stillReportedRun, "For a verified finding a later scan reports: that run."),
        Field("unmapped", \.unmapped, "Why no screen counts it, when none does."),
        Field("excluded", \.excluded, "The excluded path holding its file, when that is why."),
    ]

    /// The JSON object `barkeep findings --json` prints (and MCP's list_findings): exactly the documented keys, an
    /// absent value null, `needs` an array (empty for none).
    public var listJSON: [String: Any] {
        func nullable(_ value: Any?) -> Any { value ?? NSNull() }
        return [
            "id": id, "source": source, "rule": nullable(rule), "title": nullable(title), "severity": severity,
            "file": nullable(file), "line": nullable(line), "snippet": nullable(snippet), "status": status.rawValue,
            "screen": screen, "assignee": nullable(assignee), "step": nullable(step), "needs": needs ?? [],
            "gate": nullable(gate), "first_seen_run": nullable(firstSeenRun), "last_seen_run": nullable(lastSeenRun),
            "still_reported_run": nullable(stillReportedRun), "unmapped": nullable(unmapped?.rawValue),
            "excluded": nullable(excluded),
        ]
    }

    /// Its status as people read it: `verified, still reported in run 7` for a verified finding a later scan still
    /// reports, else the status.
    public var statusText: String {
        guard let run = stillReportedRun else { return status.rawValue }
        return FindingLifecycle.verifiedStillReported(inRun: String(run))
    }

    /// Where it is: `file:line` for a scanner's, `step N` for an item of a checklist step, else empty.
    public var place: String {
        if let file { return "\(file):\(line.map { String($0) } ?? "")" }
        return step.map { "step \($0)" } ?? ""
    }
}
