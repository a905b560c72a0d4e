/// Which events a watcher wants: the daemon sends a watcher only the events its filter matches. Every part that is
/// set must match; an empty filter matches every event.
public struct EventFilter: Sendable, Equatable {
    /// The kinds wanted; empty: every kind.
    public var kinds: Set<EventKind>
    /// A screen's key: events whose screen is this one or that count for it (a component's finding counts for the
    /// screens using the component); nil: any.
    public var screen: String?
    /// A finding's number in the project: its events only; nil: any.
    public var finding: Int?

    /// Creates a filter; the defaults match every event.
    public init(kinds: Set<EventKind> = [], screen: String? = nil, finding: Int? = nil) {
        self.kinds = kinds
        self.screen = screen
        self.finding = finding
    }

    /// Whether the filter lets every event through.
    public var isEmpty: Bool { kinds.isEmpty && screen == nil && finding == nil }

    /// Whether an event with these fields passes: `kind` as stored (a kind this release does not know passes only
    /// when no kinds are asked for), `screen` its screen's key, `screens` the screens it counts for, `finding` its
    /// finding's number.
    public func matches(kind: String, screen eventScreen: String?, screens: [String], finding eventFinding: Int?)
        -> Bool
    {
        if !kinds.isEmpty {
            guard let known = EventKind(rawValue: kind), kinds.contains(known) else { return false }
        }
        if let screen, eventScreen != screen, !screens.contains(screen) { return false }
        if let finding, eventFinding != finding { return false }
        return true
    }
}
