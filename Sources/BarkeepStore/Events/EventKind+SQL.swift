import BarkeepCore

/// Core's event kinds as SQL lists, so that no statement spells a list of kinds of its own.
extension EventKind {
    /// The kinds about a screen itself (`EventKind.screenKinds`), as a parenthesised SQL list.
    static let screenKindsSQL = sqlList(screenKinds)
}
