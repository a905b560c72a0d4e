/// The order of a list of screens.
public enum ScreenOrder: String, Sendable, CaseIterable {
    /// By key: the order the store gives (its collation's).
    case key
    /// Most findings needing work first, then those not done, then by key: where the work is.
    case work
    /// By owner (screens nobody owns last), then by key.
    case owner

    /// The order a list takes when none is asked for.
    public static let standard = ScreenOrder.key
}

/// Which rows of a project's screens a view shows and in what order: `status` and `screen list` take the same
/// filters. Totals stay the project's; only the rows are chosen.
public struct ScreenListing: Sendable, Equatable {
    /// The largest `limit` a listing takes (`limit=` of `STATUS` and `SCREEN LIST`).
    public static let maximumLimit = 100_000

    /// Only the rows this person owns; `nobody` (ScreenOwner) for the rows no one owns.
    public var owner: String?
    /// Only the rows not done.
    public var isNotDoneOnly: Bool
    /// Their order.
    public var order: ScreenOrder
    /// At most this many rows, after the order.
    public var limit: Int?
    /// Only rows of this kind.
    public var kind: ScreenKind?

    /// What a listing needs to know of a row.
    public struct Row: Sendable, Equatable {
        /// Its key.
        public var key: String
        /// Its kind.
        public var kind: ScreenKind
        /// Its owner.
        public var owner: String?
        /// Whether it is done.
        public var isDone: Bool
        /// How many of its findings need work.
        public var needsWork: Int

        /// A row.
        public init(key: String, kind: ScreenKind, owner: String?, isDone: Bool, needsWork: Int) {
            self.key = key
            self.kind = kind
            self.owner = owner
            self.isDone = isDone
            self.needsWork = needsWork
        }
    }

    /// A listing; the default shows every row by key.
    public init(
        owner: String? = nil, isNotDoneOnly: Bool = false, order: ScreenOrder = .standard, limit: Int? = nil,
        kind: ScreenKind? = nil
    ) {
        self.owner = owner
        self.isNotDoneOnly = isNotDoneOnly
        self.order = order
        self.limit = limit
        self.kind = kind
    }

    /// Whether it leaves any row out.
    public var isFiltering: Bool { owner != nil || isNotDoneOnly || limit != nil || kind != nil }

    /// Whether a row passes the filters (the limit aside).
    public func includes(_ row: Row) -> Bool {
        (owner.map { ScreenOwner.matches(row.owner, kind: row.kind, filter: $0) } ?? true)
            && (!isNotDoneOnly || !row.isDone) && (kind == nil || row.kind == kind)
    }

    /// The rows of `items` (given by key) that pass the filters, in order, at most `limit` of them; and how many
    /// passed before the limit.
    public func apply<Item>(_ items: [Item], row: (Item) -> Row) -> (shown: [Item], matched: Int) {
        // Every row in the given order: nothing to decide per row.
        if !isFiltering && order == .key { return (items, items.count) }
        let rows = items.enumerated().map { (index: $0.offset, item: $0.element, row: row($0.element)) }
            .filter { includes($0.row) }
        let sorted = rows.sorted { left, right in
            Self.precedes(left.row, right.row, order: order) ?? (left.index < right.index)
        }
        return (sorted.prefix(max(0, limit ?? sorted.count)).map(\.item), rows.count)
    }

    /// Whether `left` comes first; nil when the order does not tell them apart (the keys' order then does).
    private static func precedes(_ left: Row, _ right: Row, order: ScreenOrder) -> Bool? {
        switch order {
        case .key:
            return nil
        case .work:
            if left.needsWork != right.needsWork { return left.needsWork > right.needsWork }
            if left.isDone != right.isDone { return !left.isDone }
            return nil
        case .owner:
            switch (left.owner, right.owner) {
            case (let a?, let b?): return a == b ? nil : a < b
            case (nil, _?): return false
            case (_?, nil): return true
            case (nil, nil): return nil
            }
        }
    }
}
