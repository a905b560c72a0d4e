import BarkeepProtocol

/// Which screen rows a `STATUS` reply holds: its `type=selection` record.
public struct StatusSelection: Sendable, Equatable, RecordDecodable {
    /// `selection`.
    public static let recordType = "selection"

    /// Only this owner's rows.
    public var owner: String?
    /// Only the rows not done.
    public var isNotDoneOnly: Bool
    /// Their order: `key`, `work` or `owner`.
    public var sort: String
    /// At most this many rows.
    public var limit: Int?
    /// How many rows passed the filters.
    public var matched: Int
    /// How many are in the reply.
    public var shown: Int

    /// A selection.
    public init(
        owner: String? = nil, isNotDoneOnly: Bool = false, sort: String = "key", limit: Int? = nil, matched: Int,
        shown: Int
    ) {
        self.owner = owner
        self.isNotDoneOnly = isNotDoneOnly
        self.sort = sort
        self.limit = limit
        self.matched = matched
        self.shown = shown
    }

    /// Reads a `type=selection` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        owner = fields.optionalString("owner")
        isNotDoneOnly = fields.optionalString("not-done") == "yes"
        sort = fields.optionalString("sort") ?? "key"
        limit = try fields.optionalCount("limit")
        matched = try fields.count("matched")
        shown = try fields.count("shown")
    }

    /// Whether the rows are a part of the project's, or in another order than by key.
    public var isFiltering: Bool { owner != nil || isNotDoneOnly || limit != nil || sort != "key" }
}
