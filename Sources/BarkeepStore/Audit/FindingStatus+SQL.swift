import BarkeepCore

/// The status sets of Core's `FindingLifecycle` as SQL lists, so that no statement spells a set of its own: a
/// status added to Core reaches every query that asks "needs work" or "sticky".
extension FindingStatus {
    /// `('proposed', 'approved', 'applied', 'blocked')`: the statuses that need work.
    static let needsWorkSQL = sqlList(FindingLifecycle.needsWorkStatuses)
    /// The statuses whose last sighting by a scan is stored, not derived: fixed and the sticky verdicts.
    static let settledSQL = sqlList([.fixed] + FindingLifecycle.stickyStatuses)
    /// Every status but fixed: the findings a sync reads in full (`StoredScan.read`).
    static let unfixedSQL = sqlList(allCases.filter { $0 != .fixed })
}
