import BarkeepCore
import Dispatch
import Synchronization

/// Between the read of a streamed reply, on a pool thread, and its connection, on the event loop: the loop asks for
/// the next page when its client has read enough (`want`) or gives up on it when the client has gone (`cancel`); the
/// read, having sent a page, waits for one of them (`awaitDemand`), keeping its cursor and its database connection
/// meanwhile, but only for so long and only while no other work waits for a database connection.
///
/// Thread-safety: the flags are behind a `Mutex`; the semaphore only wakes the waiting read, which then reads them.
final class PageHandOff: Sendable {
    /// What the read does next.
    enum Demand: Equatable {
        /// Read and send the next page.
        case next
        /// The client has gone: stop.
        case cancelled
        /// Give the database connection up: the client has not asked for more within the hold, or other work waits
        /// for a connection. The reply goes on from where it stopped, in a new read, once the client asks.
        case release
    }

    private struct Flags {
        var isWanted = false
        var isCancelled = false
    }

    /// How often a waiting read looks whether other work waits for its database connection.
    static let pressureCheck = Duration.milliseconds(50)

    private let flags = Mutex(Flags())
    private let wakeup = DispatchSemaphore(value: 0)

    /// The connection's client has room for the next page (loop thread).
    func want() {
        flags.withLock { $0.isWanted = true }
        wakeup.signal()
    }

    /// The connection has closed: the read stops at its next look, and a read not started yet never starts.
    func cancel() {
        flags.withLock { $0.isCancelled = true }
        wakeup.signal()
    }

    /// Whether the connection has closed.
    var isCancelled: Bool { flags.withLock { $0.isCancelled } }

    /// Waits (on the read's pool thread) until the next page is wanted or the client has gone, for at most `hold`,
    /// and no longer than a `pressureCheck` once `isContended()` says other work waits for a database connection.
    func awaitDemand(hold: Duration, isContended: () -> Bool) -> Demand {
        let start = ContinuousClock.now
        while true {
            let demand: Demand? = flags.withLock { flags in
                if flags.isCancelled { return .cancelled }
                guard flags.isWanted else { return nil }
                flags.isWanted = false
                return .next
            }
            if let demand { return demand }
            let now = ContinuousClock.now
            if now - start >= hold || (now - start >= Self.pressureCheck && isContended()) { return .release }
            let wait = min(Self.pressureCheck, hold - (now - start))
            _ = wakeup.wait(timeout: .now() + wait.seconds)
        }
    }
}
