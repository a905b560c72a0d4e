import BarkeepProtocol

/// The `OK` fields of FINDING SET and FINDING ASSIGN: `changed=N unchanged=N refused=N dry-run=yes|no` (a dry run
/// counts what would change as changed).
public struct BulkChangeSummary: WireFields {
    /// How many changed, or would.
    public var changed = 0
    /// How many already were so.
    public var unchanged = 0
    /// How many the change is not allowed for.
    public var refused = 0
    /// Whether nothing was changed.
    public var isDryRun = false

    /// An empty summary, filled by decoding.
    public init() {}
    /// The summary of these counts.
    public init(changed: Int, unchanged: Int, refused: Int, isDryRun: Bool) {
        self.changed = changed
        self.unchanged = unchanged
        self.refused = refused
        self.isDryRun = isDryRun
    }

    /// The fields, in wire order.
    public static let fields: [Field<BulkChangeSummary>] = [
        Field("changed", \.changed, "How many changed (or would)."),
        Field("unchanged", \.unchanged, "How many already were so."),
        Field("refused", \.refused, "How many the change is not allowed for."),
        Field("dry-run", \.isDryRun, "Whether nothing was changed."),
    ]
}
