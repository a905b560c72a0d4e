/// The wait before trying again after a failure, doubling at each failure from `first` up to `longest` and back to
/// `first` after a success: how a daemon's threads open a lost database connection again (`connection`).
public struct Backoff: Sendable, Equatable {
    /// The wait after the first failure.
    public let first: Duration
    /// The longest wait.
    public let longest: Duration
    /// The wait after the next failure.
    public private(set) var current: Duration

    /// A backoff from `first` up to `longest`.
    public init(first: Duration, longest: Duration) {
        self.first = first
        self.longest = longest
        current = first
    }

    /// A database connection's: 100 ms, doubling up to 5 s.
    public static let connection = Backoff(first: .milliseconds(100), longest: .seconds(5))

    /// The database connection of a worker that leases its work (sources, hooks): 250 ms, doubling up to 5 s.
    public static let leasingWorker = Backoff(first: .milliseconds(250), longest: connection.longest)

    /// After a failure: the wait before the next attempt (the one after that is twice as long, up to `longest`).
    public mutating func next() -> Duration {
        defer { current = min(current * 2, longest) }
        return current
    }

    /// After a success: the next failure waits `first` again.
    public mutating func reset() {
        current = first
    }
}
