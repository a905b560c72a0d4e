import BarkeepProtocol

/// An event record, as WATCH streams it and the histories of SOURCE SHOW (and FINDING SHOW, SCREEN SHOW) list it.
/// Its JSON object (`json`) is what `barkeep watch --json` prints and a webhook POSTs: `seq` and `finding` numbers,
/// `screens` an array.
public struct EventFields: WireFields {
    /// Its sequence number.
    public var seq = 0
    /// Its project.
    public var project: String?
    /// Its kind (`source.paused`).
    public var kind = ""
    /// What it is about (`source 1`, `File.swift:12`).
    public var subject = ""
    /// The value before.
    public var from: String?
    /// The value after.
    public var to: String?
    /// Why.
    public var reason: String?
    /// Who.
    public var actor = ""
    /// When (the database's text).
    public var at = ""
    /// The finding's number, for a finding's event.
    public var finding: Int?
    /// The screen it is about.
    public var screen: String?
    /// The screens it counts for (present, maybe empty, whenever `screen` is).
    public var screens: [String]?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "event"

    /// The fields, in wire order.
    public static let fields: [Field<EventFields>] = [
        Field("seq", \.seq, "Its sequence number."),
        Field("project", \.project, "Its project."),
        Field("kind", \.kind, "Its kind."),
        Field("subject", \.subject, "What it is about."),
        Field("from", \.from, "The value before."),
        Field("to", \.to, "The value after."),
        Field("reason", \.reason, "Why."),
        Field("actor", \.actor, "Who."),
        Field("at", \.at, "When."),
        Field("finding", \.finding, "The finding's number, for a finding's event."),
        Field("screen", \.screen, "The screen it is about."),
        Field("screens", \.screens, "The screens it counts for, comma-separated."),
    ]
}
