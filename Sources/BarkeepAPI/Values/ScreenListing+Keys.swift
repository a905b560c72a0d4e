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
