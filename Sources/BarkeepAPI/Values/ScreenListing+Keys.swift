import BarkeepCore

extension ScreenListing {
    /// The listing a request's keys ask for (STATUS, SCREEN LIST): absent keys leave Core's defaults.
    init(owner: String?, isNotDoneOnly: Bool?, sort: ScreenOrder?, limit: RowLimit?, kind: ScreenKind? = nil) {
        self.init()
        self.owner = owner
        self.isNotDoneOnly = isNotDoneOnly ?? false
        if let sort { order = sort }
        self.limit = limit?.value
        self.kind = kind
    }
}

/// What a listing's keys mean, for STATUS's and SCREEN LIST's fields: the two listings take the same keys.
enum ScreenListingSummary {
    /// The owner filter.
    static let owner = "Only the rows this person owns; '\(ScreenOwner.nobody)': those no one owns."
    /// The order: `key (the default), work or owner; work puts where the work is first.`
    static let sort =
        QuantityText.choices(ScreenOrder.self, default: .standard) + "; \(ScreenOrder.work.rawValue) puts the most "
        + "findings needing work first."
}
