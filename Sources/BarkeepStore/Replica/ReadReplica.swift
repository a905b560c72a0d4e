import BarkeepCore
import Dispatch
import Foundation
import Synchronization

/// Reads from a PostgreSQL streaming replica (`barkeepd --read-database-url`): a pool of its own, a monitor thread
/// that measures the replica's lag against the primary, and the rule that decides where each read goes.
///
/// A read goes to the replica while it is `serving`: reachable, still a standby, and no more than `maximumLag`
/// behind. A read of a client that has written waits (up to `catchUpWait`) until the replica has replayed that
/// client's last commit, otherwise it reads the primary. A read that fails because of the replica (the connection
/// lost or refused, the server shutting down, a recovery conflict) runs again on the primary: its client never sees
/// the replica's failure. A replica that went away is tried again by the monitor, the wait doubling from
/// `ReplicaLimit.probeInterval` up to `ReplicaLimit.maximumRetryDelay`. Every change of condition is logged once.
///
/// Thread-safety: shared state is behind `state` (a `Mutex`); the monitor's connections belong to its thread.
public final class ReadReplica: Sendable {
    /// Where reads may go now.
    public enum Condition: String, Sendable, Equatable {
        /// Reads go to the replica.
        case serving
        /// The replica is further behind than the limit: reads go to the primary.
        case lagging
        /// The replica cannot be reached, or is no standby: reads go to the primary.
        case down
    }

    /// How reads are routed, and how they went since start: STATS and the metrics.
    public struct Usage: Sendable, Equatable {
        /// Where reads go now.
        public var condition: Condition
        /// The replica's lag when last measured.
        public var lag: Duration
        /// Reads served by the replica.
        public var replicaReads: Int
        /// Reads served by the primary because the replica was lagging, down, or had not replayed the client's
        /// last write in time, or because it failed them.
        public var primaryReads: Int
        /// Of those, reads sent to the replica first that went to the primary after all: not replayed in time, the
        /// replica's failure, or its pool full.
        public var fallbacks: Int
    }

    /// The limits reads are routed by.
    public struct Settings: Sendable {
        /// The most lag at which reads still go to the replica.
        public var maximumLag: Duration
        /// How long a read waits for the replica to replay its client's last write.
        public var catchUpWait: Duration
        /// How often the lag is measured.
        public var probeInterval = ReplicaLimit.probeInterval
        /// The longest wait between attempts to reach a replica that is down.
        public var maximumRetryDelay = ReplicaLimit.maximumRetryDelay

        /// Settings with these limits.
        public init(maximumLag: Duration, catchUpWait: Duration) {
            self.maximumLag = maximumLag
            self.catchUpWait = catchUpWait
        }
    }

    private struct State {
        /// Lagging until the first measurement shows the replica has replayed the primary's log as it stood then:
        /// a replica hours behind would measure no lag at first (the clock has seen the primary only now).
        var condition = Condition.lagging
        var lag = Duration.zero
        var replayed: WALPosition?
        var replicaReads = 0
        var primaryReads = 0
        var fallbacks = 0
        var isStopped = false
    }

    /// What a read on the replica came to.
    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case notReplayed
    }

    /// The replica's pool.
    public let pool: PostgresPool
    private let primary: PostgresConfiguration
    private let settings: Settings
    private let logger: Logger
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Prepares reads from the replica at `configuration` (its pool `size` connections, `queueLimit` waiting) of the
    /// primary at `primary`; nothing runs until `start()`.
    public init(
        configuration: PostgresConfiguration, primary: PostgresConfiguration, size: Int, queueLimit: Int,
        settings: Settings, logger: Logger
    ) {
        pool = PostgresPool(configuration: configuration, size: size, queueLimit: queueLimit)
        self.primary = primary
        self.settings = settings
        self.logger = logger
    }

    /// Whether the server at `configuration` is a standby (`pg_is_in_recovery()`); throws when it cannot be
    /// reached.
    public static func isStandby(_ configuration: PostgresConfiguration) throws -> Bool {
        let connection = try PostgresConnection(configuration: configuration)
        defer { connection.close() }
        return try connection.queryValue("SELECT pg_is_in_recovery()", as: Bool.self) == true
    }

    /// Starts the monitor thread.
    public func start() {
        let thread = Thread { [self] in
            monitor()
            finished.signal()
        }
        thread.name = "barkeep-replica"
        thread.start()
    }

    /// Stops the monitor and the replica's pool.
    public func shutdown() {
        let wasStopped = state.withLock { state in
            defer { state.isStopped = true }
            return state.isStopped
        }
        guard !wasStopped else { return }
        wake.signal()
        finished.wait()
        pool.shutdown()
    }

    /// Where reads go now and how they went.
    public var usage: Usage {
        state.withLock {
            Usage(
                condition: $0.condition, lag: $0.lag, replicaReads: $0.replicaReads, primaryReads: $0.primaryReads,
                fallbacks: $0.fallbacks)
        }
    }

    // MARK: - Routing

    /// Runs the read `body` on the replica when it serves and has replayed `written` (the client's last commit on
    /// the primary; nil: it wrote nothing), otherwise on `primary`; `completion` gets the result on a worker thread.
    /// `body` is given the pool it runs on. A read the replica failed runs again on the primary when `isRetryable`
    /// still says so (a streamed read that sent a page cannot start over). Throws `poolBusy` or `poolClosed` at
    /// once, as `PostgresPool.submit` does, when the primary cannot take it.
    public func submitRead<T: Sendable>(
        after written: WALPosition?, primary: PostgresPool,
        isRetryable: @escaping @Sendable () -> Bool = { true },
        _ body: @escaping @Sendable (PostgresConnection, PostgresPool) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) throws(StoreError) {
        let toReplica = state.withLock { state in
            if state.condition != .serving { state.primaryReads += 1 }
            return state.condition == .serving
        }
        guard toReplica else {
            try primary.submit({ try body($0, primary) }, completion: completion)
            return
        }
        let replica = pool
        let wait = settings.catchUpWait
        do {
            try replica.submit { [self] connection -> Outcome<T> in
                if let written, try !hasReplayed(written, on: connection, waiting: wait) { return .notReplayed }
                return .value(try body(connection, replica))
            } completion: { [self] result in
                switch result {
                case .success(.value(let value)):
                    state.withLock { $0.replicaReads += 1 }
                    completion(.success(value))
                case .success(.notReplayed):
                    fallBack(to: primary, body, completion: completion)
                case .failure(let error):
                    guard Self.isReplicaFailure(error), isRetryable() else {
                        state.withLock { $0.replicaReads += 1 }
                        completion(.failure(error))
                        return
                    }
                    if let error = error as? StoreError, error.isConnectionFailure {
                        markDown(because: error.description)
                    } else {
                        // A read that wrote on the side (an HTTP token's last use, once a minute) or met a
                        // credential not replayed yet is expected; a recovery conflict is worth seeing.
                        let isExpected: Bool
                        switch error as? StoreError {
                        case .notReplayed: isExpected = true
                        case let error?: isExpected = error.sqlState == "25006"
                        case nil: isExpected = false
                        }
                        let level: LogLevel = isExpected ? .debug : .warning
                        logger.log(level, "a read failed on the replica; it ran on the primary", ["error": "\(error)"])
                    }
                    fallBack(to: primary, body, completion: completion)
                }
            }
        } catch {
            guard case .poolBusy = error else { throw error }
            // The replica's pool is full: the primary's may not be.
            state.withLock {
                $0.fallbacks += 1
                $0.primaryReads += 1
            }
            try primary.submit({ try body($0, primary) }, completion: completion)
        }
    }

    /// Runs a read sent to the replica on the primary after all; a primary that cannot take it fails it.
    private func fallBack<T: Sendable>(
        to primary: PostgresPool, _ body: @escaping @Sendable (PostgresConnection, PostgresPool) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        state.withLock {
            $0.fallbacks += 1
            $0.primaryReads += 1
        }
        do {
            try primary.submit({ try body($0, primary) }, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// Whether the replica has replayed `written`, waiting up to `wait` for it: the monitor's last look first, then
    /// the replica itself, polled at growing intervals.
    private func hasReplayed(
        _ written: WALPosition, on connection: PostgresConnection, waiting wait: Duration
    ) throws -> Bool {
        if let replayed = state.withLock({ $0.replayed }), replayed >= written { return true }
        let deadline = ContinuousClock.now + wait
        var pause = Duration.milliseconds(1)
        while true {
            let text = try connection.queryValue("SELECT pg_last_wal_replay_lsn()::text", as: String.self)
            if let replayed = text.flatMap(WALPosition.init), replayed >= written { return true }
            guard ContinuousClock.now + pause < deadline else { return false }
            Thread.sleep(forTimeInterval: pause.seconds)
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Whether `error` is the replica's rather than the read's: the connection lost or refused, the server shutting
    /// down or starting (SQLSTATE 08…, 57P…), a query cancelled by a recovery conflict (40001), or a read that
    /// turned out to write (25006, read-only transaction) or met a credential not replayed yet (`notReplayed`), which
    /// the primary can run.
    static func isReplicaFailure(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return false }
        if case .poolClosed = error { return false }
        if error.isConnectionFailure { return true }
        if case .notReplayed = error { return true }
        return error.sqlState == PostgresError.Code.serializationFailure || error.sqlState == "25006"
    }

    // MARK: - Condition

    /// The replica cannot be used: reads go to the primary until the monitor reaches it again.
    private func markDown(because reason: String) {
        let changed = state.withLock { state in
            defer { state.condition = .down }
            return state.condition != .down
        }
        if changed { logger.warning("read replica down; reads go to the primary", ["error": reason]) }
    }

    /// The monitor measured `lag` with the replica at `replayed`.
    private func measured(lag: Duration, replayed: WALPosition, isBehindStart: Bool) {
        let condition: Condition = isBehindStart || lag > settings.maximumLag ? .lagging : .serving
        let old = state.withLock { state in
            defer {
                state.condition = condition
                state.lag = lag
                state.replayed = replayed
            }
            return state.condition
        }
        guard old != condition else { return }
        let fields: KeyValuePairs<String, String> = ["lag_ms": String(Int(lag.milliseconds))]
        switch (old, condition) {
        case (_, .lagging): logger.warning("read replica lagging; reads go to the primary", fields)
        case (.down, _): logger.info("read replica back; reads go to it", fields)
        default: logger.info("read replica caught up; reads go to it", fields)
        }
    }

    // MARK: - Monitor

    private func monitor() {
        var primaryConnection: PostgresConnection?
        var replicaConnection: PostgresConnection?
        var clock = ReplicaLagClock()
        // The primary's first position seen, until the replica has replayed it (see State.condition).
        var start: WALPosition?
        var hasCaughtUp = false
        var delay = settings.probeInterval
        while !state.withLock({ $0.isStopped }) {
            do {
                let connection = try primaryConnection ?? PostgresConnection(configuration: primary)
                primaryConnection = connection
                let text = try connection.queryValue("SELECT pg_current_wal_lsn()::text", as: String.self)
                if let position = text.flatMap(WALPosition.init) {
                    clock.primary(at: position, seen: .now)
                    if start == nil { start = position }
                }
            } catch {
                // The primary's own trouble is the pool's to report; the lag is measured again once it answers.
                primaryConnection?.close()
                primaryConnection = nil
            }
            do {
                let connection = try replicaConnection ?? PostgresConnection(configuration: pool.configuration)
                replicaConnection = connection
                let row = try connection.query(
                    "SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed"
                ).first
                guard let row, try row.decode("standby", as: Bool.self),
                    let replayed = try row.decodeIfPresent("replayed", as: String.self).flatMap(WALPosition.init)
                else {
                    markDown(because: "the read database is no standby (pg_is_in_recovery() is false)")
                    delay = min(delay * 2, settings.maximumRetryDelay)
                    _ = wake.wait(timeout: .now() + delay.seconds)
                    continue
                }
                if !hasCaughtUp, let start, replayed >= start { hasCaughtUp = true }
                measured(lag: clock.lag(replayed: replayed, now: .now), replayed: replayed, isBehindStart: !hasCaughtUp)
                delay = settings.probeInterval
            } catch {
                replicaConnection?.close()
                replicaConnection = nil
                markDown(because: "\(error)")
                delay = min(delay * 2, settings.maximumRetryDelay)
            }
            _ = wake.wait(timeout: .now() + delay.seconds)
        }
        primaryConnection?.close()
        replicaConnection?.close()
    }
}
