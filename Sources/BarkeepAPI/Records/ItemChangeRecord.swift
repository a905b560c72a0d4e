import BarkeepCore
import BarkeepProtocol
import Foundation

/// An `item` record: an item an SDK change unblocked or blocked (SDK SET, PROJECT SET, an SDK check's INGEST).
public struct ItemChangeRecord: WireFields, Equatable {
    /// The item's number in the project.
    public var id = 0
    /// Its title.
    public var title = ""
    /// Its screen; `unmapped` for none.
    public var screen = ""
    /// The status it had.
    public var from = FindingStatus.blocked
    /// The status it has now.
    public var to = FindingStatus.proposed
    /// Why (a blocked item: the SDK it waits for).
    public var reason: String?
    /// The iOS version its code needs an availability gate for.
    public var gate: SDKVersion?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "item"

    /// The fields, in wire order.
    public static let fields: [Field<ItemChangeRecord>] = [
        Field("id", \.id, "The item's number in the project."),
        Field("title", \.title, "Its title."),
        Field("screen", \.screen, "Its screen; unmapped for none."),
        Field("from", \.from, "The status it had."),
        Field("to", \.to, "The status it has now."),
        Field("reason", \.reason, "Why: the SDK a blocked item waits for."),
        Field("gate", \.gate, "The iOS version its code needs an availability gate for."),
    ]

    /// Whether the change blocked the item (else it became workable).
    public var isBlocked: Bool { to == .blocked }

    /// The object the CLI's `--json` prints for a change: {id, title, screen, from, to, reason, gate}, gate null
    /// when none.
    public var listJSON: [String: Any] {
        var object = json
        object["gate"] = gate?.description ?? NSNull()
        return object
    }
}
