import BarkeepAPI

/// Which findings a bulk verdict form of the findings page acts on: exactly those the page showed. The filters
/// (FINDING SET `where=yes`) when the page held every finding they choose; the numbers listed when it was one page
/// of several, so that a write never reaches findings the user did not see.
public enum BulkSelection: Sendable {
    /// Every finding the filters choose.
    case filters(FindingFilters)
    /// These findings, by number.
    case numbers([Int])
}
