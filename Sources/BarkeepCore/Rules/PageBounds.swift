/// The bounds of a command's page (`limit=`): its default size and its largest. `EventPage` and `FindingPage` hold
/// their values; the wire's `PageLimit` checks a `limit=` against them.
public protocol PageBounds {
    /// Records a page holds when no `limit=` is given.
    static var defaultLimit: Int { get }
    /// The largest `limit=`.
    static var maximumLimit: Int { get }
}

extension EventPage: PageBounds {}
extension FindingPage: PageBounds {}
