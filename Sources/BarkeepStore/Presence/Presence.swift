import BarkeepCore
import CBarkeepSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A daemon's presence among those serving one database, and whether it serves it alone (*sole mode*), on one
/// advisory lock (`barkeep_presence_key()`, Schema/0029) held on a connection of its own (`applicationName`) by a
/// thread of its own.
///
/// Every daemon holds the lock in shared mode for as long as it serves (`start` returns once it does). One that also
/// gets it exclusively (`pg_try_advisory_lock`, tried every `retryInterval` and when another daemon says it leaves)
/// knows no other daemon serves the database: every write and revocation then goes through it. A daemon starting
/// sends `NOTIFY barkeep_presence, 'joining'` before it waits for its shared lock (and again at each
/// `retryInterval` it waited); the sole daemon, told so, leaves sole mode *first* (`epoch` moves on) and only then
/// lets the exclusive lock go, so the newcomer serves nothing before it. Any error of the connection also leaves
/// sole mode at once, then the connection is opened again and the shared lock taken again (telling the others
/// again). While sole, the connection is used every `retryInterval` (`SELECT 1`), so a connection cut without a
/// word fails within `lossTimeoutSeconds` (`tcp_user_timeout`, keepalives); a Unix socket closes at once.
///
/// What callers read: `epoch` (odd while sole, moved on at every entry and exit), `generation` (moved on by
/// `noteWrite` after every write of this daemon, before its reply goes out) and `isPresent`.
///
/// Thread-safety: the counters are atomics; the rest is behind a `Mutex`, and the thread is woken by an eventfd.
public final class Presence: Sendable {
    /// The channel daemons tell each other on.
    public static let channel = "barkeep_presence"
    /// What a daemon about to wait for its shared lock says.
    public static let joining = "joining"
    /// What a daemon leaving says (a clean shutdown): the others may be alone now.
    public static let leaving = "leaving"
    /// `application_name` of the presence connection, as `pg_stat_activity` shows it.
    public static let applicationName = "barkeepd-presence"
    /// How often a daemon not sole tries to be; how long a daemon starting waits for its shared lock before telling
    /// the others again; how often the sole daemon proves its connection alive.
    public static var retryInterval: Duration { .seconds(1) }
    /// A TCP presence connection whose server went silent is given up within this many seconds.
    public static var lossTimeoutSeconds: Int { 3 }
    /// The key's SQL: the one home of the key is the migration's function.
    static let key = "barkeep_presence_key()"

    private struct State {
        var isStopping = false
        var isPresent = false
        var soleSince: Date?
        var isLossTold = false
        var isOthersTold = false
    }

    private let configuration: PostgresConfiguration
    private let logger: Logger
    private let epochValue = Atomic<UInt64>(0)
    private let generationValue = Atomic<UInt64>(0)
    private let presentValue = Atomic<Bool>(false)
    private let state = Mutex(State())
    private let wakeup: Int32
    private let present = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let isStarted = Atomic<Bool>(false)

    /// A presence on the database `configuration` points to; nothing connects before `start`.
    public init(configuration: PostgresConfiguration, logger: Logger) {
        var configuration = configuration.with(applicationName: Self.applicationName)
        configuration.lossTimeoutSeconds = Self.lossTimeoutSeconds
        // Waiting for the shared lock gives up now and then to tell the others again, on whatever session.
        configuration.lockTimeoutMilliseconds = Int(Self.retryInterval.milliseconds)
        self.configuration = configuration
        self.logger = logger.with(["component": "presence"])
        wakeup = barkeep_wakeup_create()
    }

    deinit { if wakeup >= 0 { _ = Glibc.close(wakeup) } }

    // MARK: - What the loop reads

    /// Moves on at every entry into sole mode and every exit from it; odd while sole.
    public var epoch: UInt64 { epochValue.load(ordering: .sequentiallyConsistent) }
    /// Whether `epoch` is one of sole mode.
    public static func isSole(_ epoch: UInt64) -> Bool { epoch & 1 == 1 }
    /// Whether the daemon serves the database alone now.
    public var isSole: Bool { Self.isSole(epoch) }
    /// Since when it does; nil when it does not.
    public var soleSince: Date? { state.withLock { $0.soleSince } }
    /// Moves on after every write of this daemon finished (or failed).
    public var generation: UInt64 { generationValue.load(ordering: .sequentiallyConsistent) }
    /// Whether the shared lock is held now (false from a loss of the connection until it is back).
    public var isPresent: Bool { presentValue.load(ordering: .sequentiallyConsistent) }

    /// How long a write waits for a lost presence to come back before it is refused (`awaitPresence`).
    public static var writeWait: Duration { .seconds(5) }

    /// Whether the shared lock is held, waiting up to `timeout` for it while it is not (the thread is told to try
    /// again every tenth of a second meanwhile): a write on a pool thread calls it before it starts, and is refused when it returns false.
    public func awaitPresence(timeout: Duration = Presence.writeWait) -> Bool {
        if isPresent { return true }
        let deadline = ContinuousClock.now + timeout
        var polls = 0
        while !isPresent {
            guard ContinuousClock.now < deadline, !isStopping else { return false }
            // Every tenth of a second: try now rather than after the backoff.
            if polls % 10 == 0 { _ = barkeep_wakeup_signal(wakeup) }
            polls += 1
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// What a write meets when the presence is lost and does not come back in time (`checkWrite`).
    public static let lost = StoreError.connectionLost(
        "this daemon's presence on the database is lost until it is back")

    /// Before a write of this daemon starts: returns once the presence is held (`awaitPresence`), or throws `lost`,
    /// since a write then could go unseen by a daemon that believes it serves alone. `noteWrite` after it.
    public func checkWrite() throws(StoreError) {
        guard awaitPresence() else { throw Self.lost }
    }

    /// A write of this daemon finished (successfully or not): called after it committed or failed, before its reply
    /// can be sent.
    public func noteWrite() {
        generationValue.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    // MARK: - Life cycle

    /// Starts the presence thread and waits until it holds its shared lock, or its first connection failed (the
    /// database is unreachable: the daemon serves as it does in an outage, refusing writes until the thread gets
    /// its lock); throws when the lock is not taken within `timeout` (a daemon serving the database alone did not
    /// let this one in).
    public func start(timeout: Duration) throws(StoreError) {
        guard wakeup >= 0 else { throw .connectionFailed("cannot create the presence thread's eventfd") }
        guard !isStarted.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "barkeep-presence"
        thread.start()
        if present.wait(timeout: .now() + timeout.seconds) == .timedOut {
            stop()
            throw .connectionFailed(
                "no presence lock on the database within \(DurationText.describe(timeout)): another daemon serving it "
                    + "alone did not let this one in")
        }
    }

    /// Leaves sole mode, lets the lock go, tells the other daemons, and ends the thread. Call after the daemon
    /// stopped serving.
    public func stop() {
        guard isStarted.load(ordering: .sequentiallyConsistent) else { return }
        let wasRunning = state.withLock { state in
            defer { state.isStopping = true }
            return !state.isStopping
        }
        guard wasRunning else { return }
        _ = barkeep_wakeup_signal(wakeup)
        finished.wait()
    }

    private var isStopping: Bool { state.withLock { $0.isStopping } }

    // MARK: - The thread

    private func run() {
        var delay = Duration.milliseconds(100)
        var isFirst = true
        while !isStopping {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                defer {
                    presentValue.store(false, ordering: .sequentiallyConsistent)
                    leave()
                    connection.close()
                }
                guard let session = try join(connection) else { return }
                try connection.listen(Self.channel)
                // Alone already? Then `start` returns with sole mode on.
                try trySole(connection, session: session)
                presentValue.store(true, ordering: .sequentiallyConsistent)
                let wasLost = state.withLock { state in
                    defer { state.isLossTold = false }
                    return state.isLossTold
                }
                if wasLost { logger.info("presence on the database back", [:]) }
                if isFirst {
                    isFirst = false
                    present.signal()
                }
                delay = .milliseconds(100)
                try serve(connection, session: session)
                // No write of this daemon starts any more, then no kept check is used, and only then the locks go.
                presentValue.store(false, ordering: .sequentiallyConsistent)
                leave()
                // Let go of both locks before saying so: the others may try theirs at once.
                _ = try? connection.query("SELECT pg_advisory_unlock_all()")
                _ = try? connection.query("SELECT pg_notify($1, $2)", [Self.channel, Self.leaving])
                return
            } catch {
                presentValue.store(false, ordering: .sequentiallyConsistent)
                leave()
                if isFirstTelling(\.isLossTold) {
                    logger.warning(
                        "presence connection lost; writes refused and not serving the database alone until it is back",
                        ["error": "\(error)"])
                }
                if isFirst {
                    isFirst = false
                    present.signal()
                }
                waitForWakeup(delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
    }

    /// Tells the other daemons this one joins, and waits for the shared lock, telling them again at every
    /// `retryInterval` it waited. Returns the session holding it (its backend's pid); nil when the daemon stops
    /// meanwhile.
    private func join(_ connection: PostgresConnection) throws -> Int32? {
        // Every session of the connection has a `lock_timeout` (`init`), a session opened again silently too; but
        // the lock is the session's, so the session is checked after every statement.
        let session = connection.backendPID
        var isWaitTold = false
        while true {
            guard !isStopping else { return nil }
            try connection.query("SELECT pg_notify($1, $2)", [Self.channel, Self.joining])
            try Self.check(connection, isSession: session)
            do {
                try connection.query("SELECT pg_advisory_lock_shared(\(Self.key))")
                try Self.check(connection, isSession: session)
                break
            } catch StoreError.server(let error) where error.sqlState == "55P03" {
                try Self.check(connection, isSession: session)
                if !isWaitTold {
                    isWaitTold = true
                    logger.info("waiting for the daemon serving this database alone to let this one in", [:])
                }
            }
        }
        return session
    }

    /// Throws when `connection` is no longer on `session`: `PostgresConnection` opens a broken connection again by
    /// itself, and the new session holds none of the old one's locks.
    private static func check(_ connection: PostgresConnection, isSession session: Int32) throws {
        guard connection.backendPID == session else {
            throw StoreError.connectionLost("the presence session ended (its locks with it)")
        }
    }

    /// Present: tries sole mode now and then, and leaves it when a daemon joins; returns when the daemon stops,
    /// throws when the connection fails.
    private func serve(_ connection: PostgresConnection, session: Int32) throws {
        func checkSession() throws { try Self.check(connection, isSession: session) }
        var tryAt = ContinuousClock.now + Self.retryInterval
        while !isStopping {
            if isSole {
                // Proves the session (and so the lock) alive: a silent connection fails within the loss timeout.
                try connection.query("SELECT 1")
                try checkSession()
            } else if ContinuousClock.now >= tryAt {
                tryAt = .now + Self.retryInterval
                try trySole(connection, session: session)
            }
            // What the last statement's answer brought along first (libpq keeps it), then what comes.
            var told = try connection.waitForNotifications(timeout: .zero)
            if told.isEmpty { told = try connection.waitForNotifications(timeout: Self.retryInterval, wakeup: wakeup) }
            try checkSession()
            barkeep_wakeup_drain(wakeup)
            if told.contains(Self.joining), isSole {
                leave()
                try connection.query("SELECT pg_advisory_unlock(\(Self.key))")
                try checkSession()
                // The newcomer waits for its lock right after saying so: not taken back from under it at once.
                tryAt = .now + Self.retryInterval
            } else if told.contains(Self.leaving) {
                tryAt = .now
            }
        }
    }

    /// Enters sole mode when the exclusive lock is free (no other daemon holds or waits for the shared one) and no
    /// backend of another daemon is left on the database (`otherBackends`); otherwise lets the exclusive lock go.
    private func trySole(_ connection: PostgresConnection, session: Int32) throws {
        let isTaken = try connection.queryValue("SELECT pg_try_advisory_lock(\(Self.key))", as: Bool.self)
        try Self.check(connection, isSession: session)
        guard isTaken == true else { return }
        let others = try connection.queryValue(
            Self.otherBackends,
            [
                PostgresConfiguration.daemonApplicationPrefix,
                configuration.instance.map(PostgresConfiguration.instanceSuffix) ?? "",
            ],
            as: Int.self)
        try Self.check(connection, isSession: session)
        guard others == 0 else {
            try connection.query("SELECT pg_advisory_unlock(\(Self.key))")
            try Self.check(connection, isSession: session)
            if isFirstTelling(\.isOthersTold) {
                logger.info(
                    "not serving the database alone while another daemon's connections are on it",
                    ["connections": String(others ?? -1)])
            }
            return
        }
        state.withLock { $0.isOthersTold = false }
        enter()
    }

    /// How many backends of the database other than this session are of a daemon (`$1`: the application names'
    /// prefix) and not of this one (`$2`: this daemon's instance suffix; empty: every one is another's). A daemon
    /// leaving or killed may still have a write in flight on one, and a daemon older than the lock holds none:
    /// sole mode waits until they are gone.
    static let otherBackends = """
        SELECT count(*)::int FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND starts_with(application_name, $1::text)
          AND ($2::text = '' OR right(application_name, length($2::text)) <> $2::text)
        """

    /// Whether what `told` marks is to be logged now: it was not since it was last reset (which is then marked).
    private func isFirstTelling(_ told: WritableKeyPath<State, Bool> & Sendable) -> Bool {
        state.withLock { state in
            defer { state[keyPath: told] = true }
            return !state[keyPath: told]
        }
    }

    private func enter() {
        state.withLock { $0.soleSince = Date() }
        epochValue.wrappingAdd(1, ordering: .sequentiallyConsistent)
        logger.info("serving the database alone: STATUS checks are kept until something changes them", [:])
    }

    /// Leaves sole mode, when in it: first the epoch, so no later request uses what it kept.
    private func leave() {
        guard isSole else { return }
        epochValue.wrappingAdd(1, ordering: .sequentiallyConsistent)
        state.withLock { $0.soleSince = nil }
        logger.info("no longer serving the database alone: every STATUS is checked", [:])
    }

    private func waitForWakeup(_ duration: Duration) {
        var descriptor = pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(duration.milliseconds))
        barkeep_wakeup_drain(wakeup)
    }
}
