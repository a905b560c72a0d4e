import BarkeepProtocol

/// An event record of the audit's history: what FINDING COMMENT answers and FINDING SHOW lists after the finding
/// (the record WATCH streams). Its JSON view is what `barkeep watch --json` prints for the event.
public struct AuditEventRecord: WireFields {
    /// The event's sequence number.
    public var seq = 0
    /// The project, for an event of one.
    public var project: String?
    /// What happened (`finding.status`, `finding.comment`…).
    public var kind = ""
    /// What it happened to (`RULE:FILE:LINE`, a screen's key…).
    public var subject = ""
    /// The value before, when one changed.
    public var from: String?
    /// The value after, when one changed.
    public var to: String?
    /// Why, or a comment's text.
    public var reason: String?
    /// Who.
    public var actor = ""
    /// When (the database's text).
    public var at = ""
    /// The finding's number, for an event of a finding.
    public var finding: Int?
    /// The screen the event is about, when it is about one.
    public var screen: String?
    /// The screens it counts for (present, maybe empty, whenever `screen` is).
    public var screens: [String]?

    /// An empty record, filled by decoding.
    public init() {}

    /// The fields, in wire order.
    public static let fields: [Field<AuditEventRecord>] = [
        Field("seq", \.seq, "The event's sequence number."),
        Field("project", \.project, "The project, for an event of one."),
        Field("kind", \.kind, "What happened."),
        Field("subject", \.subject, "What it happened to."),
        Field("from", \.from, "The value before, when one changed."),
        Field("to", \.to, "The value after, when one changed."),
        Field("reason", \.reason, "Why, or a comment's text."),
        Field("actor", \.actor, "Who."),
        Field("at", \.at, "When."),
        Field("finding", \.finding, "The finding's number, for an event of a finding."),
        Field("screen", \.screen, "The screen the event is about."),
        Field("screens", \.screens, "The screens it counts for (comma-separated on the wire)."),
    ]

    /// The JSON object `barkeep finding comment --json` prints: as the wire has it, every field a string but `seq`
    /// (`finding` and `screens` as their text, unlike `json`).
    public var commentJSON: [String: Any] {
        var object = json
        object["finding"] = finding.map { String($0) }
        object["screens"] = screens.map { $0.joined(separator: ",") }
        return object
    }
}
