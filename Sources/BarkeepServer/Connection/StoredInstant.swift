/// A `ContinuousClock.Instant` as the connection machines keep it: the time since a reference instant of the
/// process, a `Duration`, whose layout is fixed. The clock's own instant is a resilient type of the standard library,
/// its layout known only at run time, and so is that of any value holding one: the line protocol's machine, holding
/// one, was copied, moved and destroyed through run-time value witnesses on every request.
struct StoredInstant: Equatable, Comparable {
    /// The process's reference instant, taken when first needed.
    private static let reference = ContinuousClock.now

    /// The time since `reference`.
    private let sinceReference: Duration

    /// `instant`, kept.
    init(_ instant: ContinuousClock.Instant) {
        sinceReference = Self.reference.duration(to: instant)
    }

    /// The instant kept.
    var instant: ContinuousClock.Instant { Self.reference.advanced(by: sinceReference) }

    static func < (lhs: StoredInstant, rhs: StoredInstant) -> Bool { lhs.sinceReference < rhs.sinceReference }
}
