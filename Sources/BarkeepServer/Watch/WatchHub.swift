import BarkeepCore
import BarkeepStore
import CBarkeepSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Feeds WATCH: one thread with its own database connection that LISTENs for new events (from this daemon or any
/// other on the database) and hands them to the event loop in sequence order, and that reads stored events page by
/// page for watchers that are catching up.
///
/// No event is lost or repeated: live events and replay pages are both read by this one thread, in the order it
/// posts them to the loop. A replay page ends at the live cursor of the moment it is read, so every live batch
/// posted before the page is covered by it, and every one posted after starts above it. Sequence numbers follow
/// commit order (see `EventLog`), so "above the cursor" never skips a late commit.
///
/// Thread-safety: requests from the loop thread go through `requests` (a `Mutex`) and the wakeup eventfd; all
/// other state belongs to the hub's thread.
final class WatchHub: Sendable {
    /// Events per replay page.
    static let pageSize = 500

    private struct PageRequest {
        var connection: ConnectionID
        var projectID: Int64
        var after: Int64
    }

    private struct Callbacks {
        var deliverPage: @Sendable (ConnectionID, [Event], Bool) -> Void
        var deliverLive: @Sendable ([Event]) -> Void
    }

    private struct Shared {
        var requests: [PageRequest] = []
        var isStopping = false
        var callbacks: Callbacks?
    }

    private let database: PostgresConfiguration
    private let logger: Logger
    private let wakeup: Int32
    private let shared = Mutex(Shared())
    private let finished = DispatchSemaphore(value: 0)

    init(database: PostgresConfiguration, logger: Logger) throws(ServerError) {
        self.database = database
        self.logger = logger
        wakeup = barkeep_wakeup_create()
        guard wakeup >= 0 else { throw .eventLoop(errorText()) }
    }

    deinit { _ = Glibc.close(wakeup) }

    /// Starts the hub's thread.
    func start(
        deliverPage: @escaping @Sendable (ConnectionID, [Event], Bool) -> Void,
        deliverLive: @escaping @Sendable ([Event]) -> Void
    ) {
        shared.withLock { $0.callbacks = Callbacks(deliverPage: deliverPage, deliverLive: deliverLive) }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "barkeep-watch"
        thread.start()
    }

    /// Asks for the stored events of `projectID` above `after`, up to the live cursor; answered through
    /// `deliverPage`.
    func requestPage(connection: ConnectionID, projectID: Int64, after: Int64) {
        shared.withLock { $0.requests.append(PageRequest(connection: connection, projectID: projectID, after: after)) }
        _ = barkeep_wakeup_signal(wakeup)
    }

    /// Stops the thread and waits for it.
    func stop() {
        let wasRunning = shared.withLock { shared in
            defer { shared.isStopping = true }
            return shared.callbacks != nil && !shared.isStopping
        }
        guard wasRunning else { return }
        _ = barkeep_wakeup_signal(wakeup)
        finished.wait()
    }

    private var isStopping: Bool { shared.withLock { $0.isStopping } }

    private func run() {
        guard let callbacks = shared.withLock({ $0.callbacks }) else { return }
        var cursor: Int64?
        var backoff = Backoff.connection
        while !isStopping {
            do {
                let connection = try PostgresConnection(
                    configuration: database.with(applicationName: PostgresConfiguration.daemonApplicationName(.watch)))
                defer { connection.close() }
                try connection.listen(EventLog.channel)
                // The cursor survives reconnections: events committed while the connection was down are read
                // as soon as it is back.
                if cursor == nil { cursor = try EventLog.head(on: connection) }
                backoff.reset()
                while !isStopping {
                    try serveRequests(connection: connection, cursor: cursor ?? 0, callbacks: callbacks)
                    cursor = try readLive(connection: connection, after: cursor ?? 0, callbacks: callbacks)
                    // Notifications only wake the thread; the events themselves are read from the table. The
                    // timeout is a safety net for a notification lost with a broken connection.
                    _ = try connection.waitForNotifications(timeout: .seconds(1), wakeup: wakeup)
                    barkeep_wakeup_drain(wakeup)
                }
            } catch {
                logger.warning("event dispatcher lost the database, retrying", ["error": "\(error)"])
                Thread.sleep(forTimeInterval: backoff.next().seconds)
            }
        }
    }

    private func serveRequests(connection: PostgresConnection, cursor: Int64, callbacks: Callbacks) throws {
        let requests = shared.withLock { shared in
            defer { shared.requests.removeAll() }
            return shared.requests
        }
        for (index, request) in requests.enumerated() {
            do {
                let events = try EventLog.events(
                    after: request.after,
                    through: cursor,
                    projectID: request.projectID,
                    limit: Self.pageSize,
                    on: connection
                )
                callbacks.deliverPage(request.connection, events, events.count < Self.pageSize)
            } catch {
                // Keep the requests not served yet for after the reconnection.
                shared.withLock { $0.requests.insert(contentsOf: requests[index...], at: 0) }
                throw error
            }
        }
    }

    private func readLive(connection: PostgresConnection, after cursor: Int64, callbacks: Callbacks) throws -> Int64 {
        var cursor = cursor
        while true {
            let events = try EventLog.events(after: cursor, limit: 1000, on: connection)
            guard let last = events.last else { return cursor }
            callbacks.deliverLive(events)
            cursor = last.seq
            if events.count < 1000 { return cursor }
        }
    }
}
