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
/// Thread-safety: the counters are atomics; the rest is behind a `Mutex`, the thread is woken by an eventfd, and
/// writes waiting for the presence wait on an `NSCondition` the thread broadcasts when the presence comes or it stops.
public final class Presence: Sendable {
    /// The channel daemons tell each other on.
    public static let channel = "barkeep_presence"
    /// What a daemon about to wait for its shared lock says.
    public static let joining = "joining"
    /// What a daemon leaving says (a clean shutdown): the others may be alone now.
    public static let leaving = "leaving"
    /// `application_name` of the presence connection, as `pg_stat_activity` shows it.
    public static let applicationName = PostgresConfiguration.daemonApplicationName(.presence)
    /// How often a daemon not sole tries to be; how long a daemon starting waits for its shared lock before telling
    /// the others again; how often the sole daemon proves its connection alive.
    public static var retryInterval: Duration { .seconds(1) }
    /// A TCP presence connection whose server went silent is given up within this many seconds.
    public static var lossTimeoutSeconds: Int { 3 }
    /// The key's SQL: the one home of the key is the migration's function.
    static let key = "barkeep_presence_key()"

    private struct State {
        var isStopping = false
        var soleSince: Date?
        /// What was logged once until it changes (`isFirstTelling`, `wasTold`): the connection lost, waiting to be
        /// let in, other daemons' connections keeping this one from serving alone.
        var isLossTold = false
        var isWaitTold = false
        var isOthersTold = false
    }

    private let configuration: PostgresConfiguration
    private let logger: Logger
    private let epochValue = Atomic<UInt64>(0)
    private let generationValue = Atomic<UInt64>(0)
    private let presentValue = Atomic<Bool>(false)
    /// Broadcast when the presence is taken and when the daemon stops: what `awaitPresence` waits on.
    private let presenceChanged = NSCondition()
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

    /// Whether the shared lock is held, waiting up to `timeout` for it while it is not (woken when the thread takes
    /// it, and telling the thread to try again every `retryNudge` meanwhile): a write on a pool thread calls it before
    /// it starts, and is refused when it returns false.
    public func awaitPresence(timeout: Duration = Presence.writeWait) -> Bool {
        if isPresent { return true }
        // The deadline on the monotonic clock: a step of the wall clock neither stretches nor cuts the wait.
        let deadline = ContinuousClock.now + timeout
        presenceChanged.lock()
        defer { presenceChanged.unlock() }
        while !isPresent {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero, !isStopping else { return false }
            // Try now rather than after the thread's backoff, and again at every nudge while it fails.
            _ = barkeep_wakeup_signal(wakeup)
            _ = presenceChanged.wait(until: Date(timeIntervalSinceNow: min(remaining, Self.retryNudge).seconds))
        }
        return true
    }

    /// How often a write waiting for the presence tells the thread to try again.
    static var retryNudge: Duration { .milliseconds(100) }

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
        // Writes waiting for the presence give up now: broadcast under the lock, so that one between its check of
        // `isStopping` and its wait is not missed.
        presenceChanged.lock()
        presenceChanged.broadcast()
        presenceChanged.unlock()
        finished.wait()
    }

    private var isStopping: Bool { state.withLock { $0.isStopping } }

    /// Marks the presence held or not; once held, wakes the writes waiting for it (`awaitPresence`).
    private func setPresent(_ isPresent: Bool) {
        presentValue.store(isPresent, ordering: .sequentiallyConsistent)
        guard isPresent else { return }
        presenceChanged.lock()
        presenceChanged.broadcast()
        presenceChanged.unlock()
    }

    // MARK: - The thread

    private func run() {
        var backoff = Backoff.connection
        var isFirst = true
        while !isStopping {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                // However the connection ends: no write of this daemon starts any more, then no kept check is used.
                defer {
                    setPresent(false)
                    leave()
                    connection.close()
                }
                guard let session = try join(connection) else { return }
                try session.connection.listen(Self.channel)
                // Alone already? Then `start` returns with sole mode on.
                try trySole(session)
                setPresent(true)
                if wasTold(\.isLossTold) { logger.info("presence on the database back", [:]) }
                if isFirst {
                    isFirst = false
                    present.signal()
                }
                backoff.reset()
                try serve(session)
                // Only then the locks go.
                setPresent(false)
                leave()
                // Let go of both locks before saying so: the others may try theirs at once.
                _ = try? connection.query("SELECT pg_advisory_unlock_all()")
                _ = try? connection.query("SELECT pg_notify($1, $2)", [Self.channel, Self.leaving])
                return
            } catch {
                if isFirstTelling(\.isLossTold) {
                    logger.warning(
                        "presence connection lost; writes refused and not serving the database alone until it is back",
                        ["error": "\(error)"])
                }
                if isFirst {
                    isFirst = false
                    present.signal()
                }
                waitForWakeup(backoff.next())
            }
        }
    }

    /// Tells the other daemons this one joins, and waits for the shared lock, telling them again at every
    /// `retryInterval` it waited. Returns the session holding it; nil when the daemon stops meanwhile.
    private func join(_ connection: PostgresConnection) throws -> Session? {
        // Every session of the connection has a `lock_timeout` (`init`), a session opened again silently too; but
        // the lock is the session's, so the session is checked after every statement.
        let session = Session(connection: connection)
        _ = wasTold(\.isWaitTold)
        while true {
            guard !isStopping else { return nil }
            try session.query("SELECT pg_notify($1, $2)", [Self.channel, Self.joining])
            do {
                try session.query("SELECT pg_advisory_lock_shared(\(Self.key))")
                return session
            } catch StoreError.server(let error) where error.sqlState == "55P03" {
                if isFirstTelling(\.isWaitTold) {
                    logger.info("waiting for the daemon serving this database alone to let this one in", [:])
                }
            }
        }
    }

    /// The presence connection on the session that holds (or takes) its locks: `PostgresConnection` opens a broken
    /// connection again by itself, and the new session holds none of the old one's locks, so each statement is
    /// followed by a check that the session is still the one.
    private struct Session {
        let connection: PostgresConnection
        /// The backend's pid when the session began.
        let pid: Int32

        init(connection: PostgresConnection) {
            self.connection = connection
            pid = connection.backendPID
        }

        /// Throws when the connection is no longer on this session.
        func check() throws {
            guard connection.backendPID == pid else {
                throw StoreError.connectionLost("the presence session ended (its locks with it)")
            }
        }

        /// Runs `sql` on the connection, then checks the session (after a failure too: a lost session is the cause
        /// to report).
        @discardableResult
        func query(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> PostgresRows {
            do {
                let rows = try connection.query(sql, parameters)
                try check()
                return rows
            } catch {
                try check()
                throw error
            }
        }

        /// `query`'s first column of its first row.
        func queryValue<T: PostgresDecodable>(
            _ sql: String, _ parameters: [(any PostgresEncodable)?] = [], as type: T.Type
        ) throws -> T? {
            try query(sql, parameters).first?.decodeIfPresent(at: 0, as: type)
        }

        /// The notifications on the channel the connection listens on (what the last answer brought along first),
        /// waiting up to `timeout` (or until `wakeup`) when there are none yet.
        func notifications(timeout: Duration, wakeup: Int32) throws -> [String] {
            var told = try connection.waitForNotifications(timeout: .zero)
            if told.isEmpty { told = try connection.waitForNotifications(timeout: timeout, wakeup: wakeup) }
            try check()
            return told
        }
    }

    /// Present: tries sole mode now and then, and leaves it when a daemon joins; returns when the daemon stops,
    /// throws when the connection fails.
    private func serve(_ session: Session) throws {
        var tryAt = ContinuousClock.now + Self.retryInterval
        while !isStopping {
            if isSole {
                // Proves the session (and so the lock) alive: a silent connection fails within the loss timeout.
                try session.query("SELECT 1")
            } else if ContinuousClock.now >= tryAt {
                tryAt = .now + Self.retryInterval
                try trySole(session)
            }
            let told = try session.notifications(timeout: Self.retryInterval, wakeup: wakeup)
            barkeep_wakeup_drain(wakeup)
            if told.contains(Self.joining), isSole {
                leave()
                try session.query("SELECT pg_advisory_unlock(\(Self.key))")
                // The newcomer waits for its lock right after saying so: not taken back from under it at once.
                tryAt = .now + Self.retryInterval
            } else if told.contains(Self.leaving) {
                tryAt = .now
            }
        }
    }

    /// Enters sole mode when the exclusive lock is free (no other daemon holds or waits for the shared one) and no
    /// backend of another daemon is left on the database (`otherBackends`); otherwise lets the exclusive lock go.
    private func trySole(_ session: Session) throws {
        guard try session.queryValue("SELECT pg_try_advisory_lock(\(Self.key))", as: Bool.self) == true else { return }
        let others = try session.queryValue(
            Self.otherBackends,
            [
                PostgresConfiguration.daemonApplicationPrefix,
                configuration.instance.map(PostgresConfiguration.instanceSuffix) ?? "",
            ],
            as: Int.self)
        guard others == 0 else {
            try session.query("SELECT pg_advisory_unlock(\(Self.key))")
            if isFirstTelling(\.isOthersTold) {
                logger.info(
                    "not serving the database alone while another daemon's connections are on it",
                    ["connections": String(others ?? -1)])
            }
            return
        }
        _ = wasTold(\.isOthersTold)
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
        !setTold(told, true)
    }

    /// Whether what `told` marks was logged since it was last reset; resets it (the condition ended: the next
    /// time it holds is logged again).
    private func wasTold(_ told: WritableKeyPath<State, Bool> & Sendable) -> Bool {
        setTold(told, false)
    }

    /// Sets `told` to `value` and returns what it was.
    private func setTold(_ told: WritableKeyPath<State, Bool> & Sendable, _ value: Bool) -> Bool {
        state.withLock { state in
            defer { state[keyPath: told] = value }
            return state[keyPath: told]
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
