/// A replica's lag as time, from positions alone: when the primary was first seen at a position the replica has not
/// replayed yet, the replica is at least that long behind. An idle primary, whose position stands still once the
/// replica has replayed it, counts no lag however old the last transaction is (where `now() -
/// pg_last_xact_replay_timestamp()` would grow without bound).
///
/// A pure value: fed the primary's position as it is sampled and the replica's replayed position, it answers the lag.
public struct ReplicaLagClock: Sendable {
    /// The primary's positions, each with when it was first seen, oldest first: only those past what the replica
    /// has replayed are kept.
    private var samples: [(at: ContinuousClock.Instant, position: WALPosition)] = []
    /// The most samples kept: a replica further behind keeps its oldest samples (which decide its lag) and the
    /// newest are dropped, so the lag is never underestimated.
    public static let capacity = 4096

    /// A clock that has seen nothing: no lag.
    public init() {}

    /// The primary was at `position` at `instant`.
    public mutating func primary(at position: WALPosition, seen instant: ContinuousClock.Instant) {
        if let last = samples.last, last.position >= position { return }
        guard samples.count < Self.capacity else { return }
        samples.append((instant, position))
    }

    /// The replica has replayed up to `replayed`: how far behind it is at `now` (zero when it has replayed every
    /// position seen on the primary).
    public mutating func lag(replayed: WALPosition, now: ContinuousClock.Instant) -> Duration {
        let behind = samples.firstIndex { $0.position > replayed } ?? samples.endIndex
        samples.removeFirst(behind)
        guard let oldest = samples.first else { return .zero }
        return max(.zero, now - oldest.at)
    }
}
