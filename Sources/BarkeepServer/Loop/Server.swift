import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's network front: TCP and Unix socket listeners served by one epoll event loop thread (`EventLoop`,
/// each connection's framing and flow control a `ConnectionMachine`).
///
/// Sockets are non-blocking. Each connection frames request lines, checks them against the command table, and
/// answers them strictly in order; a command that needs the database runs on the pool's threads while its
/// connection waits (one command at a time per connection), and its result comes back to the loop; a STATUS with a
/// kept reply has its status version looked up by the loop itself, over a non-blocking connection. Per client,
/// memory is bounded: unread replies past `maximumPendingOutput` pause reading, a watcher past
/// `maximumWatcherBacklog` is disconnected, a full pool answers `BUSY`. Connections past `maximumConnections` are
/// answered `BUSY` and closed; when the process runs out of descriptors, spare ones let Unix socket peers in and
/// refuse TCP clients, and a listener that cannot be served is left out of the poller for a moment, so the loop
/// never spins on it.
///
/// Thread-safety: connection state lives on the loop thread only. What other threads touch — the stop flag, the
/// counters, and work posted to the loop — is behind `shared` (a `Mutex`); the wakeup eventfd is safe to write
/// from any thread.
public final class Server: Sendable {
    /// The server's counters.
    public struct Statistics: Sendable, Equatable {
        /// Connections open now.
        public var connections = 0
        /// Connections accepted since start.
        public var accepted = 0
        /// Requests answered since start.
        public var commandsServed = 0
        /// Connections streaming events now.
        public var watchers = 0
        /// HTTP connections open now.
        public var httpConnections = 0
        /// The most reply bytes ever waiting for one client at once: bounded by the configuration's
        /// `maximumPendingOutput` plus one reply (one page of a streamed reply).
        public var peakPendingOutput = 0
        /// STATUS requests answered with a kept reply after the event loop looked its version up itself.
        public var keptStatusOnLoop = 0
        /// STATUS requests with a kept reply that went to the pool instead: the version had changed, the token was
        /// revoked, or the loop's lookup connection was down, connecting, full or failed.
        public var keptStatusToPool = 0
        /// Reads of a streamed reply that went on from where an earlier read of it let its database connection go.
        public var streamReadsResumed = 0
        /// Status-version lookups the event loop sent to the database (each covers every STATUS waiting then).
        public var statusLookups = 0
    }

    /// What the loop thread shares with the others, behind `shared`.
    struct Shared {
        var statistics = Statistics()
        var isStopping = false
        var isRunning = false
        var grace = Duration.seconds(5)
        var posted: [@Sendable (EventLoop) -> Void] = []
        var httpAddress: ServerAddress?
    }

    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    /// The events that change which sources a daemon should hold, or ask one of them for a run.
    static let sourceChangeKinds: Set<String> = Set(
        [EventKind.sourceAdded, .sourcePaused, .sourceResumed, .sourceRemoved, .sourceRequested].map(\.rawValue))
    private let commands: CommandTable
    /// The server's logger.
    public let logger: Logger
    /// The database pool commands run on; nil: commands that need the database are answered `UNAVAILABLE`.
    let pool: PostgresPool?
    /// The group commit of verdicts on single findings, writing through `pool`; nil without one.
    let verdicts: VerdictQueue?
    /// The streaming replica read-only commands read from, with its routing rule; nil: every read on `pool`.
    let replica: ReadReplica?
    /// This daemon's presence among those serving the database, whether it serves it alone, and its writes'
    /// generation (what the loop's kept STATUS checks depend on); nil without a pool.
    public let presence: Presence?
    /// Failed HELLOs per peer across its connections: what each may still fail, and which reach the log.
    let failedHellos = FailedHelloLimiter()
    /// Pages rendered once per status version and shared (RenderedPageCache): the overview's live refetches.
    let renderedPages = RenderedPageCache()
    /// Overview parts served from a kept rendering since start (STATS' `pages-shared`, the metrics).
    public var pagesShared: Int { renderedPages.reused }
    /// What other threads share with the loop thread.
    let shared = Mutex(Shared())
    private let loopFinished = DispatchSemaphore(value: 0)
    /// The eventfd that wakes the loop up for posted work and shutdown.
    let wakeup: Int32
    /// The epoll instance of the event loop.
    let poller: Int32
    private let startedAt = ContinuousClock.now
    /// The event dispatcher feeding WATCH; nil without a pool.
    let hub: WatchHub?
    /// The certificate and key TCP connections are served with; nil: plain text.
    private let tlsContext: ServerTLSContext?
    /// What answers HTTP requests, on the pool's threads: the JSON API and the pages.
    var httpApplication: any HTTPApplication { WebApplication(server: self, commands: commands) }

    /// Prepares a server; nothing listens until `start()`. Without a pool, commands that need the database are
    /// answered `UNAVAILABLE` and WATCH is not served. With a `replica`, the commands that only read
    /// (`Command.readsReplica`) read from it as it decides. `presence`, on `pool`'s database (a server with a pool
    /// must be given one, or its writes would go unchecked against a daemon serving alone; ignored without a pool),
    /// is held from `start`; the daemon's
    /// other writers in this process note their writes on it. Its giver stops it after `shutdown`, once the pool,
    /// the verdicts' group commit and every other writer drained (a write committing after it let its lock go could
    /// go unseen by a daemon then serving the database alone).
    public init(
        configuration: ServerConfiguration,
        commands: CommandTable,
        pool: PostgresPool? = nil,
        replica: ReadReplica? = nil,
        presence: Presence? = nil,
        logger: Logger
    ) throws(ServerError) {
        precondition(pool == nil || presence != nil, "a server with a database pool needs the daemon's presence")
        self.configuration = configuration
        self.commands = commands
        self.pool = pool
        self.replica = pool == nil ? nil : replica
        self.presence = pool == nil ? nil : presence
        // With a replica, a verdict's batch notes where the primary's log ended, for the client's next read.
        verdicts = pool.map { VerdictQueue(pool: $0, recordsPositions: replica != nil) }
        self.logger = logger.with(["component": "server"])
        tlsContext = try configuration.tls.map { tls throws(ServerError) in try ServerTLSContext(tls) }
        poller = barkeep_poller_create()
        wakeup = barkeep_wakeup_create()
        guard poller >= 0, wakeup >= 0 else { throw .eventLoop(errorText()) }
        hub = try pool.map { pool throws(ServerError) in
            try WatchHub(database: pool.configuration, logger: logger.with(["component": "watch"]))
        }
    }

    deinit {
        _ = Glibc.close(poller)
        _ = Glibc.close(wakeup)
    }

    // MARK: - Database work

    /// Runs `work` on a database connection where it belongs, the one home of that rule for the line protocol and
    /// HTTP: without a read replica, on `pool`; with one, a read (`reads`) where the replica's rule sends it, once the
    /// replica has replayed `after` (the client's last write), and anything else on `pool`, after which `completion`
    /// also gets where the primary's log ended (read-your-writes for the client's next read). Throws what the pool
    /// throws when it cannot take the work.
    ///
    /// A write for the presence (`writes`: a command whose effect is not a read, an HTTP method other than GET and
    /// HEAD — not where it reads, which is `reads`) starts only while this daemon holds its presence on the database,
    /// and its end (success or failure) moves the presence's write generation on before `completion` runs, so no
    /// STATUS after its reply is answered by a check made before it (`Presence`, docs/protocol.md). Anything else
    /// neither waits for the presence nor moves the generation.
    func submitDatabaseWork<T: Sendable>(
        on pool: PostgresPool, reads: Bool, writes: Bool, after: WALPosition?,
        _ work: @escaping @Sendable (PostgresConnection) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>, WALPosition?) -> Void
    ) throws {
        if writes, let presence {
            try submitWrite(on: pool, presence: presence, after: after, work, completion: completion)
            return
        }
        try route(on: pool, reads: reads, after: after, work, completion: completion)
    }

    /// A write: `work` after `presence`'s check, the generation moved on after it.
    private func submitWrite<T: Sendable>(
        on pool: PostgresPool, presence: Presence, after: WALPosition?,
        _ work: @escaping @Sendable (PostgresConnection) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>, WALPosition?) -> Void
    ) throws {
        try route(
            on: pool, reads: false, after: after,
            { database in
                try presence.checkWrite()
                return try work(database)
            },
            completion: { result, position in
                presence.noteWrite()
                completion(result, position)
            })
    }

    /// Runs `work` where it belongs: on the replica as its rule says (a read), on `pool` otherwise.
    private func route<T: Sendable>(
        on pool: PostgresPool, reads: Bool, after: WALPosition?,
        _ work: @escaping @Sendable (PostgresConnection) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>, WALPosition?) -> Void
    ) throws {
        guard let replica else {
            try pool.submit(work) { completion($0, nil) }
            return
        }
        if reads {
            try replica.submitRead(after: after, primary: pool, { database, _ in try work(database) }) {
                completion($0, nil)
            }
        } else {
            try pool.submit { [logger] database in
                let value = try work(database)
                let position = WALPosition.afterCommit(on: database)
                if position == nil { logger.warning(Self.positionUnknown, [:]) }
                return (value, position)
            } completion: { result in
                completion(result.map(\.0), (try? result.get())?.1 ?? nil)
            }
        }
    }

    /// Logged when a write's end in the primary's log could not be read: its client's next read may go to a
    /// replica that has not replayed it.
    static let positionUnknown =
        "the primary's log position after a write could not be read: the writer's next read may miss it on the replica"

    // MARK: - Introspection

    /// The server's counters now.
    public var statistics: Statistics { shared.withLock { $0.statistics } }
    /// This daemon's identity.
    public var serverID: String { configuration.serverID }
    /// Time since the server was created.
    public var uptime: Duration { ContinuousClock.now - startedAt }
    /// The HTTP listener's bound address (a port 0 resolved) once started; nil without HTTP.
    public var httpAddress: ServerAddress? { shared.withLock { $0.httpAddress } }
    /// The database pool's load.
    public var poolUsage: PostgresPool.Usage? { pool?.usage }
    /// Where reads go and how they went, with a read replica.
    public var replicaUsage: ReadReplica.Usage? { replica?.usage }

    // MARK: - Life cycle

    /// Opens every listener and starts the event loop thread (and the event dispatcher, with a pool). Returns the
    /// bound addresses of the line protocol's listeners (a TCP port 0 resolved; the HTTP one is `httpAddress`). If
    /// any listener cannot be opened, none stays open.
    public func start() throws(ServerError) -> [ServerAddress] {
        // Present on the database before serving anything: a daemon serving it alone lets this one in first.
        do {
            try presence?.start(timeout: configuration.presenceTimeout)
        } catch {
            throw .presence(error.description)
        }
        var listeners: [Listener] = []
        do {
            for address in configuration.addresses { listeners.append(try Listener.open(address)) }
            if let address = configuration.httpAddress {
                var listener = try Listener.open(address)
                listener.kind = .http
                listeners.append(listener)
            }
        } catch {
            listeners.forEach { $0.close() }
            presence?.stop()
            throw error
        }
        let loop = EventLoop(server: self, listeners: listeners, commands: commands, tlsContext: tlsContext)
        if let tls = configuration.tls, let expiry = tlsContext?.expiry {
            let fields = [
                ("tcp", listeners.filter { !$0.isUnix }.map(\.address.description).joined(separator: ",")),
                ("certificate", tls.certificateFile), ("expires", expiry.notAfter),
            ]
            logger.log(.info, "TLS required on TCP", fieldList: fields)
            if expiry.hasExpired {
                logger.log(.warning, "the TLS certificate has expired: clients will refuse it", fieldList: fields)
            }
        }
        let httpAddress = listeners.first { $0.kind == .http }?.address
        shared.withLock {
            $0.isRunning = true
            $0.httpAddress = httpAddress
        }
        hub?.start(
            deliverPage: { [self] connectionID, events, isComplete in
                post { loop in loop.deliverPage(to: connectionID, events: events, isComplete: isComplete) }
            },
            deliverLive: { [self] events in
                // A source added, paused, resumed, removed or asked to run, through this daemon or any other: this
                // daemon's sync sources look at once rather than at their next lease renewal.
                if let sourcesChanged = configuration.sourcesChanged,
                    events.contains(where: { Self.sourceChangeKinds.contains($0.kind) })
                {
                    sourcesChanged()
                }
                configuration.hooks?.eventsArrived(
                    isHookChange: events.contains { HookDeliverer.hookChangeKinds.contains($0.kind) })
                post { loop in loop.deliverLive(events) }
            }
        )
        let thread = Thread { [self, loop] in
            loop.run()
            loop.listeners.forEach { $0.close() }
            shared.withLock { $0.isRunning = false }
            loopFinished.signal()
        }
        thread.name = "barkeep-loop"
        thread.start()
        return listeners.filter { $0.kind == .line }.map(\.address)
    }

    /// Stops accepting and reading, lets running commands finish and queued replies go out for up to `grace`,
    /// closes every connection, and waits for the loop thread (and the event dispatcher) to end.
    public func shutdown(grace: Duration = .seconds(5)) {
        let wasRunning = shared.withLock { shared in
            defer {
                shared.isStopping = true
                shared.grace = grace
            }
            return shared.isRunning && !shared.isStopping
        }
        guard wasRunning else { return }
        _ = barkeep_wakeup_signal(wakeup)
        loopFinished.wait()
        hub?.stop()
        // The presence is stopped by its giver once the pool drained (`init`).
    }

    /// Runs `work` on the loop thread, soon.
    func post(_ work: @escaping @Sendable (EventLoop) -> Void) {
        shared.withLock { $0.posted.append(work) }
        _ = barkeep_wakeup_signal(wakeup)
    }

    /// Changes the counters under the shared lock.
    func updateStatistics(_ change: (inout Statistics) -> Void) {
        shared.withLock { change(&$0.statistics) }
    }

    // MARK: - Database work

    /// Runs a command's database work on a pool thread: first checks that the token behind the session was not
    /// revoked meanwhile, then the work; errors become protocol errors.
    static func runAuthorized(
        _ work: @Sendable (PostgresConnection) throws -> CommandResult,
        session: Session,
        on connection: PostgresConnection
    ) throws -> CommandResult {
        if let tokenID = session.tokenID, try TokenStore.activeRole(id: tokenID, on: connection) == nil {
            return revokedToken
        }
        return try work(connection)
    }

    /// The result of a command whose client left while it waited to start: it was never started.
    static var clientGone: CommandResult { CommandResult(.error(.unavailable, "the client disconnected")) }

    /// The result of a command whose connection's token was revoked since its HELLO: refused, and the connection
    /// back to what the peer is without a token.
    static var revokedToken: CommandResult {
        var result = CommandResult(.error(.noAuth, "the token of this connection was revoked"))
        result.authentication = .cleared
        return result
    }

    /// The reply for an error thrown by a command: one code, and a message without SQL, values or secrets.
    func reply(for error: any Error, command: String) -> Reply {
        if let refusal = CommandError(refusing: error) { return .error(refusal.code, refusal.message) }
        switch error {
        case StoreError.poolBusy:
            return .error(.busy, "the server is busy; retry later")
        case let error as StoreError where error.isConnectionFailure:
            logger.warning("database unavailable", ["command": command, "error": error.description])
            return .error(.unavailable, "the database is unavailable; retry later")
        default:
            logger.error("command failed", ["command": command, "error": "\(error)"])
            return .error(.internal, "internal error; see the server log")
        }
    }
}
