import BarkeepAPI

/// Which screen rows a `STATUS` reply holds: its `type=selection` record.
public struct StatusSelection: Sendable, Equatable {
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

    /// The selection of STATUS's `type=selection` part.
    init(_ part: StatusSelectionPart) {
        self.init(
            owner: ReportValues.nonEmpty(part.owner), isNotDoneOnly: part.isNotDoneOnly == true,
            sort: ReportValues.nonEmpty(part.sort) ?? "key", limit: part.limit, matched: part.matched,
            shown: part.shown)
    }

    /// Whether the rows are a part of the project's, or in another order than by key.
    public var isFiltering: Bool { owner != nil || isNotDoneOnly || limit != nil || sort != "key" }
}
