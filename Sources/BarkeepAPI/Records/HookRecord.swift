import BarkeepCore
import BarkeepProtocol

/// A `hook` record (`type=hook`): HOOK ADD, LIST, PAUSE and RESUME. Never the secret, only whether there is one.
public struct HookRecord: LeasedRecord {
    /// `hook`.
    public var type = "hook"
    /// Its id.
    public var id = 0
    /// Its project.
    public var project = ""
    /// Where the events are POSTed.
    public var url = ""
    /// The kinds of events it sends; empty: all.
    public var kinds: [String] = []
    /// Only events about this screen (or counting for it).
    public var screen: String?
    /// json or slack.
    public var format = HookFormat.json
    /// Whether each body is signed.
    public var isSigned = false
    /// active or paused.
    public var state = PauseState.active
    /// The last event delivered (its sequence number): its cursor.
    public var delivered = 0
    /// When it last delivered.
    public var deliveredAt: String?
    /// Deliveries failed in a row.
    public var failures = 0
    /// Why the last delivery failed.
    public var lastError: String?
    /// Why it is paused (by whom, or its failures); nil while active.
    public var paused: String?
    /// The daemon holding its lease.
    public var holder: String?
    /// Until when.
    public var leaseUntil: String?
    /// When it was added (the database's text).
    public var created = ""
    /// Who added it.
    public var createdBy = ""

    /// An empty record, filled by decoding.
    public init() {}

    /// The record's JSON object, as `barkeep hook … --json` prints it: without `type`, `signed` as `yes` or `no`.
    public var listJSON: [String: Any] {
        var object = json
        object.removeValue(forKey: "type")
        object["signed"] = isSigned.wire
        return object
    }

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "hook"

    /// The fields, in wire order.
    public static let fields: [Field<HookRecord>] = [
        Field("type", \.type, "hook."),
        Field("id", \.id, "Its id."),
        Field("project", \.project, "Its project."),
        Field("url", \.url, "Where the events are POSTed."),
        Field("kinds", \.kinds, "The kinds of events it sends, comma-separated; empty: all."),
        Field("screen", \.screen, "Only events about this screen, or counting for it."),
        Field("format", \.format, QuantityText.choices(HookFormat.self) + "."),
        Field("signed", \.isSigned, "yes when each body is signed."),
        Field("state", \.state, QuantityText.choices(PauseState.self) + "."),
        Field("delivered", \.delivered, "The sequence number of the last event delivered."),
        Field("delivered-at", \.deliveredAt, "When it last delivered."),
        Field("failures", \.failures, "Deliveries failed in a row."),
        Field("last-error", \.lastError, "Why the last delivery failed."),
        Field("paused", \.paused, "Why it is paused; absent while active."),
        Field("holder", \.holder, "The daemon holding its lease."),
        Field("lease-until", \.leaseUntil, "Until when the holder holds it."),
        Field("created", \.created, "When it was added."),
        Field("created-by", \.createdBy, "Who added it."),
    ]
}
