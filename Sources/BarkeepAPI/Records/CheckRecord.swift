import BarkeepCore
import BarkeepProtocol

/// A `check` record: one finding of a check's answer (CHECK), a scanned one with its class or a tracked one the
/// change fixes.
public struct CheckRecord: WireFields, Equatable {
    /// new, reopened, changed, tracked or fixed.
    public var kind = CheckClass.new
    /// The tracked finding's number; none for a new one.
    public var number: Int?
    /// Barkeep's identity of it.
    public var identity = ""
    /// The rule.
    public var rule = ""
    /// Its severity.
    public var severity = Severity.info
    /// The file.
    public var file = ""
    /// The line.
    public var line: Int?
    /// The screen counting it; `unmapped` for none.
    public var screen = ""
    /// Its rule's checklist step.
    public var step: Int?
    /// Its rule's readiness tier.
    public var tier: Int?
    /// The tracked finding's status; none for a new one.
    public var status: FindingStatus?
    /// Why it has that status.
    public var reason: String?
    /// The code at the line.
    public var snippet: String?
    /// The scanner's message.
    public var message: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "check"

    /// The fields, in wire order.
    public static let fields: [Field<CheckRecord>] = [
        Field("class", \.kind, "new, reopened, changed, tracked or fixed."),
        Field("number", \.number, "The tracked finding's number; none for a new one."),
        Field("identity", \.identity, "Barkeep's identity of it (a changed finding's new one)."),
        Field("rule", \.rule, "The rule."),
        Field("severity", \.severity, "Its severity."),
        Field("file", \.file, "The file."),
        Field("line", \.line, "The line (a fixed finding's where it was last seen)."),
        Field("screen", \.screen, "The screen counting it (a new one's attributed now); unmapped for none."),
        Field("step", \.step, "Its rule's checklist step."),
        Field("tier", \.tier, "Its rule's readiness tier."),
        Field("status", \.status, "The tracked finding's status at the base; none for a new one."),
        Field("reason", \.reason, "Why it has that status."),
        Field("snippet", \.snippet, "The code at the line."),
        Field("message", \.message, "The scanner's message."),
    ]
}

/// The `OK` fields of CHECK: `new=N reopened=N changed=N tracked=N fixes=N base=latest|RUN fail-on=SEVERITY
/// result=pass|fail [web=URL]` (before `count`, which counts its `check` records).
public struct CheckSummary: WireFields, Equatable {
    /// How many of each class.
    public var counts = CheckCounts()
    /// The base compared with.
    public var base = CheckBase.latest
    /// The gate's severity.
    public var failOn = CheckGate.defaultFailOn
    /// pass or fail.
    public var result = CheckResult.pass
    /// The project's web page, when the daemon serves HTTP.
    public var web: String?

    /// An empty summary, filled by decoding.
    public init() {}

    /// The fields, in wire order.
    public static let fields: [Field<CheckSummary>] = [
        Field("new", \.counts.new, "Findings the change adds."),
        Field("reopened", \.counts.reopened, "Fixed findings it brings back."),
        Field("changed", \.counts.changed, "Open findings whose flagged line it edits."),
        Field("tracked", \.counts.tracked, "Findings already tracked (open or a sticky verdict)."),
        Field("fixes", \.counts.fixes, "Tracked findings it fixes."),
        Field("base", \.base, "The base compared with: latest or a run's number."),
        Field("fail-on", \.failOn, "The gate's severity."),
        Field("result", \.result, "pass, or fail when a new or reopened finding is at or above fail-on."),
        Field("web", \.web, "The project's web page, when the daemon serves HTTP."),
    ]
}
