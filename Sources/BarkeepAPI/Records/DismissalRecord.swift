import BarkeepProtocol

/// A key discovery does not propose: a record of SCREEN DISMISSALS.
public struct DismissalRecord: WireFields {
    /// The screen key dismissed.
    public var key = ""
    /// Who dismissed it.
    public var actor = ""
    /// When (the database's text).
    public var dismissed = ""

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "dismissal"

    /// The fields, in wire order.
    public static let fields: [Field<DismissalRecord>] = [
        Field("key", \.key, "The screen key discovery does not propose."),
        Field("actor", \.actor, "Who dismissed it."),
        Field("dismissed", \.dismissed, "When."),
    ]
}
