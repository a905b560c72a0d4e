import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's network front: TCP and Unix socket listeners served by one epoll event loop thread.
///
/// Sockets are non-blocking. Each connection frames request lines, checks them against the command table, and
/// answers them strictly in order; a command that needs the database runs on the pool's threads while its
/// connection waits (one command at a time per connection), and its result comes back to the loop. Per client,
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
        /// The most reply bytes ever waiting for one client at once: bounded by the configuration's
        /// `maximumPendingOutput` plus one reply.
        public var peakPendingOutput = 0
    }

    fileprivate struct Shared {
        var statistics = Statistics()
        var isStopping = false
        var isRunning = false
        var grace = Duration.seconds(5)
        var posted: [@Sendable (EventLoop) -> Void] = []
    }

    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    /// The events that change which sources a daemon should hold, or ask one of them for a run.
    static let sourceChangeKinds: Set<String> = Set(
        [EventKind.sourceAdded, .sourcePaused, .sourceResumed, .sourceRemoved, .sourceRequested].map(\.rawValue))
    private let commands: CommandTable
    /// The server's logger.
    public let logger: Logger
    fileprivate let pool: PostgresPool?
    private let shared = Mutex(Shared())
    private let loopFinished = DispatchSemaphore(value: 0)
    private let wakeup: Int32
    /// The epoll instance of the event loop.
    let poller: Int32
    private let startedAt = ContinuousClock.now
    private let hub: WatchHub?
    /// The certificate and key TCP connections are served with; nil: plain text.
    private let tlsContext: ServerTLSContext?

    /// Prepares a server; nothing listens until `start()`. Without a pool, commands that need the database are
    /// answered `UNAVAILABLE` and WATCH is not served.
    public init(
        configuration: ServerConfiguration,
        commands: CommandTable,
        pool: PostgresPool? = nil,
        logger: Logger
    ) throws(ServerError) {
        self.configuration = configuration
        self.commands = commands
        self.pool = pool
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

    // MARK: - Introspection

    /// The server's counters now.
    public var statistics: Statistics { shared.withLock { $0.statistics } }
    /// This daemon's identity.
    public var serverID: String { configuration.serverID }
    /// Time since the server was created.
    public var uptime: Duration { ContinuousClock.now - startedAt }
    /// The database pool's load.
    public var poolUsage: PostgresPool.Usage? { pool?.usage }

    // MARK: - Life cycle

    /// Opens every listener and starts the event loop thread (and the event dispatcher, with a pool). Returns the
    /// bound addresses (a TCP port 0 resolved). If any listener cannot be opened, none stays open.
    public func start() throws(ServerError) -> [ServerAddress] {
        var listeners: [Listener] = []
        do {
            for address in configuration.addresses { listeners.append(try Listener.open(address)) }
        } catch {
            listeners.forEach { $0.close() }
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
        shared.withLock { $0.isRunning = true }
        hub?.start(
            deliverPage: { [self] token, events, isComplete in
                post { loop in loop.deliverPage(to: token, events: events, isComplete: isComplete) }
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
        return listeners.map(\.address)
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
    }

    /// Runs `work` on the loop thread, soon.
    fileprivate func post(_ work: @escaping @Sendable (EventLoop) -> Void) {
        shared.withLock { $0.posted.append(work) }
        _ = barkeep_wakeup_signal(wakeup)
    }

    fileprivate func updateStatistics(_ change: (inout Statistics) -> Void) {
        shared.withLock { change(&$0.statistics) }
    }

    // MARK: - Database work

    /// Runs a command's database work on a pool thread: first checks that the token behind the session was not
    /// revoked meanwhile, then the work; errors become protocol errors.
    fileprivate static func runAuthorized(
        _ work: @Sendable (PostgresConnection) throws -> CommandResult,
        session: Session,
        on connection: PostgresConnection
    ) throws -> CommandResult {
        if let tokenID = session.tokenID, try TokenStore.activeRole(id: tokenID, on: connection) == nil {
            var result = CommandResult(.error(.noAuth, "the token of this connection was revoked"))
            result.authentication = .cleared
            return result
        }
        return try work(connection)
    }

    /// The reply for an error thrown by a command: one code, and a message without SQL, values or secrets.
    fileprivate func reply(for error: any Error, command: String) -> Reply {
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

    // MARK: - Loop

    /// The loop's state.
    ///
    /// `@unchecked Sendable`: `start()` creates it and hands it to the loop thread, the only thread that touches it
    /// from then on; other threads reach it only through `post`, whose work runs on the loop thread.
    final class EventLoop: @unchecked Sendable {
        // unowned(unsafe): the loop thread's closure holds the server strongly for as long as the loop runs, and
        // a checked unowned reference would cost an atomic operation on every use in the hot path.
        unowned(unsafe) let server: Server
        let listeners: [Listener]
        let commands: CommandTable
        var connections: [UInt64: Connection] = [:]
        /// Watching connections by project id.
        var watchers: [Int64: Set<UInt64>] = [:]
        var nextToken: UInt64 = 1
        let wakeupToken: UInt64 = 0
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
        /// /dev/null, open for the loop's life: spare descriptors are duplicates of it.
        var nullDescriptor: Int32 = -1
        /// Descriptors held in reserve, duplicates of `nullDescriptor`. When the process runs out, one is freed to
        /// accept a waiting connection: a Unix socket peer is served while another spare is left, any other is
        /// answered `BUSY` and closed, its slot becoming a spare again at once (`dup3`, so no other thread can take
        /// it meanwhile).
        var spareDescriptors: [Int32] = []
        static let spareCount = 4
        /// Listeners taken out of the poller because accepting failed for want of descriptors, by index.
        var pausedListeners: Set<Int> = []
        /// Open connections accepted on TCP listeners.
        var tcpConnections = 0
        /// When paused listeners are polled again at the latest; a connection that closes brings it forward.
        var resumeListenersAt: ContinuousClock.Instant?
        var isDraining = false
        var shedCount = 0
        var lastShedLog = ContinuousClock.now - .seconds(2)
        var unpublishedServed = 0
        var unpublishedPeak = 0
        /// The certificate and key for connections accepted on TCP listeners; nil: plain text.
        let tlsContext: ServerTLSContext?
        /// TLS connections still in their handshake, with their deadlines, in order of acceptance (so of deadline),
        /// from `handshakeHead` on; entries whose connection finished or closed are skipped when reached.
        var handshakeDeadlines: [(token: UInt64, deadline: ContinuousClock.Instant)] = []
        var handshakeHead = 0
        /// TLS connections that stopped reading while OpenSSL held bytes of theirs: the socket will not signal
        /// those again, so they are read once the connection takes requests again.
        var tlsBacklog: Set<UInt64> = []
        /// Upload bytes the connections hold together (their `reservedUpload`), at most `maximumPayloadTotal`.
        var uploadBytesHeld = 0
        /// Connections receiving or skipping an upload, whose stall the loop watches for.
        var uploading: Set<UInt64> = []

        init(server: Server, listeners: [Listener], commands: CommandTable, tlsContext: ServerTLSContext?) {
            self.server = server
            self.listeners = listeners
            self.commands = commands
            self.tlsContext = tlsContext
        }

        var configuration: ServerConfiguration { server.configuration }

        /// Tokens below this number are listeners and the wakeup fd; connections count up from it.
        var firstConnectionToken: UInt64 { UInt64(listeners.count) + 1 }

        func run() {
            nullDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            refillSpares()
            defer {
                spareDescriptors.forEach { _ = Glibc.close($0) }
                if nullDescriptor >= 0 { _ = Glibc.close(nullDescriptor) }
            }
            _ = barkeep_poller_add(server.poller, server.wakeup, BARKEEP_EVENT_READ, wakeupToken)
            for (index, listener) in listeners.enumerated() {
                _ = barkeep_poller_add(server.poller, listener.descriptor, BARKEEP_EVENT_READ, UInt64(index + 1))
            }
            nextToken = firstConnectionToken
            var events = [barkeep_event](repeating: barkeep_event(), count: 256)
            var drainDeadline: ContinuousClock.Instant?
            while true {
                let (isStopping, grace) = server.shared.withLock { ($0.isStopping, $0.grace) }
                if isStopping && drainDeadline == nil {
                    drainDeadline = .now + grace
                    beginDrain()
                }
                if let drainDeadline, connections.isEmpty || ContinuousClock.now >= drainDeadline { break }
                var timeout: Int32 = drainDeadline == nil ? -1 : 50
                if let wait = millisecondsToNextHandshakeDeadline() {
                    timeout = timeout < 0 ? wait : min(timeout, wait)
                }
                if let wait = millisecondsToNextUploadDeadline() {
                    timeout = timeout < 0 ? wait : min(timeout, wait)
                }
                if let resume = resumeListenersAt {
                    let wait = Int32(min(1000, max(0, (resume - .now).milliseconds.rounded(.up))))
                    timeout = timeout < 0 ? wait : min(timeout, wait)
                }
                let count = events.withUnsafeMutableBufferPointer { buffer in
                    barkeep_poller_wait(server.poller, buffer.baseAddress, Int32(buffer.count), timeout)
                }
                guard count >= 0 else {
                    if errno == EINTR { continue }
                    server.logger.error("epoll_wait failed", ["error": errorText()])
                    break
                }
                for event in events.prefix(Int(count)) { handle(event) }
                if !handshakeDeadlines.isEmpty { expireHandshakes() }
                if !uploading.isEmpty { expireStalledUploads() }
                if !tlsBacklog.isEmpty { readTLSBacklog() }
                if let resume = resumeListenersAt, ContinuousClock.now >= resume { resumeListeners() }
                publishStatistics()
            }
            for connection in Array(connections.values) { close(connection) }
        }

        private func handle(_ event: barkeep_event) {
            if event.token == wakeupToken {
                barkeep_wakeup_drain(server.wakeup)
                let work = server.shared.withLock { shared in
                    defer { shared.posted.removeAll() }
                    return shared.posted
                }
                for item in work { item(self) }
            } else if event.token < firstConnectionToken {
                if !isDraining { accept(from: Int(event.token) - 1) }
            } else if let connection = connections[event.token] {
                if connection.isRunning && event.events & BARKEEP_EVENT_CLOSED != 0 {
                    // The peer is gone (not half-closed) while its command waits or runs: nobody will read the
                    // reply, and a command that has not started yet never starts.
                    close(connection)
                    return
                }
                // A handshake reads and writes as OpenSSL asks, whichever way the socket became ready.
                if connection.isHandshaking {
                    read(connection)
                    return
                }
                if event.events & BARKEEP_EVENT_WRITE != 0 {
                    let wasPaused = connection.isReadingPaused
                    guard flush(connection) else { return }
                    // The client took enough replies: answer the requests left buffered while it lagged.
                    if wasPaused && !connection.isReadingPaused { process(connection) }
                    requestPageIfDue(connection)
                }
                if event.events & (BARKEEP_EVENT_READ | BARKEEP_EVENT_HANGUP | BARKEEP_EVENT_ERROR) != 0,
                    connections[event.token] != nil
                {
                    read(connection)
                }
            }
        }

        /// Stop listening and reading; running commands finish, queued replies go out, then connections close.
        private func beginDrain() {
            isDraining = true
            resumeListenersAt = nil
            for listener in listeners { _ = barkeep_poller_remove(server.poller, listener.descriptor) }
            for connection in Array(connections.values) {
                if connection.isWatching || connection.isHandshaking {
                    close(connection)
                    continue
                }
                connection.isClosing = true
                if !connection.isRunning { flush(connection) }
            }
        }

        // MARK: Accepting

        private func accept(from index: Int) {
            let listener = listeners[index]
            while true {
                var descriptor = barkeep_accept(listener.descriptor)
                var onSpare = false
                if descriptor < 0 && (errno == EMFILE || errno == ENFILE), let spare = spareDescriptors.popLast() {
                    // Out of descriptors: a spare's slot takes the waiting connection.
                    _ = Glibc.close(spare)
                    descriptor = barkeep_accept(listener.descriptor)
                    onSpare = true
                }
                guard descriptor >= 0 else {
                    let code = errno
                    if onSpare { refillSpares() }
                    if code == EMFILE || code == ENFILE {
                        // No spare, or another thread took its slot: accepting would fail again at once, so the
                        // listener rests until a connection closes or for a moment.
                        pause(index, reason: "out of file descriptors")
                    } else if code != EAGAIN && code != EWOULDBLOCK && code != EINTR {
                        server.logger.warning("accept failed", ["error": errorText(code)])
                    }
                    return
                }
                // TCP clients up to the limit; Unix socket peers, whatever TCP holds, up to the limit plus a reserve.
                let isFull =
                    listener.isUnix
                    ? connections.count >= configuration.maximumConnections + ServerConfiguration.unixSocketReserve
                    : tcpConnections >= configuration.maximumConnections
                if onSpare && !(listener.isUnix && !spareDescriptors.isEmpty) {
                    refuse(descriptor, on: listener, "out of file descriptors", keepingAsSpare: true)
                    continue
                }
                if isFull {
                    refuse(descriptor, on: listener, "too many connections", keepingAsSpare: false)
                    continue
                }
                admit(descriptor, on: listener)
            }
        }

        /// Serves a connection just accepted on `listener`.
        private func admit(_ descriptor: Int32, on listener: Listener) {
            var session: Session
            if listener.isUnix {
                var uid: uid_t = 0
                var pid: pid_t = 0
                if barkeep_peer_credentials(descriptor, &uid, &pid) == 0 {
                    // The daemon's own user, or root, owns the daemon: admin without a token.
                    let isOwner = uid == configuration.ownerUID || uid == 0
                    session = Session(
                        isLocal: true,
                        uid: uid,
                        peerName: "unix:uid=\(uid)",
                        role: isOwner ? .admin : nil,
                        actor: "local:" + userName(uid)
                    )
                } else {
                    session = Session(isLocal: true, uid: nil, peerName: "unix", role: nil, actor: "anonymous")
                }
            } else {
                var name = [CChar](repeating: 0, count: 64)
                let peer =
                    barkeep_peer_name(descriptor, &name, Int32(name.count)) == 0
                    ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    : "tcp"
                session = Session(isLocal: false, uid: nil, peerName: peer, role: nil, actor: "anonymous")
            }
            let token = nextToken
            nextToken += 1
            let connection = Connection(
                descriptor: descriptor,
                token: token,
                session: session,
                maximumLineLength: configuration.maximumLineLength,
                interest: BARKEEP_EVENT_READ
            )
            if !listener.isUnix, let tlsContext {
                guard startHandshake(connection, context: tlsContext) else {
                    _ = Glibc.close(descriptor)
                    return
                }
            }
            connections[token] = connection
            if !listener.isUnix { tcpConnections += 1 }
            _ = barkeep_poller_add(server.poller, descriptor, BARKEEP_EVENT_READ, token)
            server.updateStatistics {
                $0.connections += 1
                $0.accepted += 1
            }
        }

        /// Answers a connection `ERR BUSY` and closes it; `keepingAsSpare`: its slot becomes a spare descriptor.
        private func refuse(_ descriptor: Int32, on listener: Listener, _ reason: String, keepingAsSpare: Bool) {
            var bytes: [UInt8] = []
            Reply.error(.busy, reason + "; retry later").encode(into: &bytes)
            _ = bytes.withUnsafeBytes { barkeep_send(descriptor, $0.baseAddress, $0.count) }
            if keepingAsSpare && barkeep_replace_descriptor(nullDescriptor, descriptor) >= 0 {
                spareDescriptors.append(descriptor)
            } else {
                _ = Glibc.close(descriptor)
            }
            shedCount += 1
            // At most one line a second: a flood of refusals must not become a flood of logs.
            if ContinuousClock.now - lastShedLog >= .seconds(1) {
                server.logger.warning(
                    "refusing connections: \(reason)",
                    ["listener": "\(listener.address)", "refused": String(shedCount)]
                )
                lastShedLog = .now
                shedCount = 0
            }
        }

        /// Leaves listener `index` out of the poller until a connection closes, or for a quarter of a second.
        private func pause(_ index: Int, reason: String) {
            guard pausedListeners.insert(index).inserted else { return }
            _ = barkeep_poller_remove(server.poller, listeners[index].descriptor)
            resumeListenersAt = resumeListenersAt ?? .now + .milliseconds(250)
            if ContinuousClock.now - lastShedLog >= .seconds(1) {
                server.logger.warning(
                    "not accepting for now: \(reason)", ["listener": "\(listeners[index].address)"])
                lastShedLog = .now
            }
        }

        /// Takes spares back and polls the paused listeners again.
        private func resumeListeners() {
            resumeListenersAt = nil
            guard !isDraining else { return }
            refillSpares()
            for index in pausedListeners {
                _ = barkeep_poller_add(
                    server.poller, listeners[index].descriptor, BARKEEP_EVENT_READ, UInt64(index + 1))
            }
            pausedListeners.removeAll()
        }

        /// Duplicates /dev/null until there are `spareCount` spares, or descriptors run out.
        private func refillSpares() {
            guard nullDescriptor >= 0 else { return }
            while spareDescriptors.count < Self.spareCount {
                let spare = fcntl(nullDescriptor, F_DUPFD_CLOEXEC, 0)
                guard spare >= 0 else { return }
                spareDescriptors.append(spare)
            }
        }

        private func userName(_ uid: uid_t) -> String {
            guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid\(uid)" }
            return String(cString: name)
        }

        // MARK: Reading and answering

        func read(_ connection: Connection) {
            if let tls = connection.tls {
                readTLS(connection, tls)
                return
            }
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                Glibc.read(connection.descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            guard count > 0 else {
                if count < 0 || connection.isWatching {
                    // A reset or error: nothing more can be delivered.
                    close(connection)
                    return
                }
                // End of stream: the client sent everything (`printf … | nc -N`, an upload then a half-close).
                // Answer what it sent, then close once the replies are out.
                connection.isInputClosed = true
                process(connection)
                return
            }
            connection.framer.append(readBuffer[0..<count])
            connection.lastInputAt = .now
            process(connection)
        }

        /// Answers buffered requests in order, writing replies as it goes, until the lines run out, a command goes
        /// to the database, or the client's unread replies reach the bound.
        func process(_ connection: Connection) {
            while connections[connection.token] != nil {
                let isAtBound = answerBufferedLines(connection)
                if connection.isInputClosed && !isAtBound && !connection.isRunning {
                    // Nothing more will come and every complete request is answered (a partial line or upload at
                    // the end of the stream is dropped): close once the replies are written.
                    connection.isClosing = true
                }
                guard flush(connection) else { return }
                guard isAtBound, connection.pendingOutputCount < configuration.maximumPendingOutput else { return }
            }
        }

        /// Returns true when it stopped at the output bound with lines possibly left.
        private func answerBufferedLines(_ connection: Connection) -> Bool {
            while !connection.isClosing && connections[connection.token] != nil {
                if connection.pendingOutputCount >= configuration.maximumPendingOutput { return true }
                switch connection.state {
                case .running:
                    return false
                case .discardingPayload(let remaining):
                    let left = connection.framer.discardPayload(count: remaining)
                    guard left == 0 else {
                        connection.state = .discardingPayload(remaining: left)
                        return false
                    }
                    connection.state = .ready
                    uploading.remove(connection.token)
                case .receivingPayload(let resolved, let size):
                    guard let payload = connection.framer.takePayload(count: size) else { return false }
                    connection.state = .ready
                    uploading.remove(connection.token)
                    execute(resolved, payload: payload, on: connection)
                    if !connection.isRunning { releaseUpload(connection) }
                case .watching:
                    guard let line = nextLine(connection) else { return false }
                    guard let bytes = line, let request = decodeRequest(bytes, connection) else { continue }
                    switch request.verb {
                    case "PING": answer(connection, .ok("PONG"))
                    case "QUIT":
                        answer(connection, .ok("BYE"))
                        connection.isClosing = true
                    default:
                        answer(connection, .error(.badArgument, "the connection is watching; send PING or QUIT"))
                    }
                case .ready:
                    guard let line = nextLine(connection) else { return false }
                    guard let bytes = line else { continue }
                    if let reply = commands.constantReply(for: bytes) {
                        connection.output.append(contentsOf: reply)
                        unpublishedServed += 1
                        unpublishedPeak = max(unpublishedPeak, connection.pendingOutputCount)
                        continue
                    }
                    guard let request = decodeRequest(bytes, connection) else { continue }
                    switch commands.resolve(
                        request,
                        session: connection.session,
                        server: server,
                        maximumPayload: configuration.maximumPayload
                    ) {
                    case .failure(let refusal):
                        answer(connection, refusal.reply)
                        if refusal.closesConnection { connection.isClosing = true }
                        if refusal.payloadToDiscard > 0 {
                            connection.state = .discardingPayload(remaining: refusal.payloadToDiscard)
                            startUpload(connection)
                        }
                    case .success(let resolved):
                        if let size = resolved.payloadSize {
                            guard uploadBytesHeld + size <= configuration.maximumPayloadTotal else {
                                answer(connection, .error(.busy, "too many uploads in progress; retry later"))
                                connection.state = .discardingPayload(remaining: size)
                                startUpload(connection)
                                continue
                            }
                            connection.reservedUpload = size
                            uploadBytesHeld += size
                            connection.framer.reservePayload(count: size)
                            connection.state = .receivingPayload(resolved, size: size)
                            startUpload(connection)
                        } else {
                            execute(resolved, payload: nil, on: connection)
                        }
                    }
                }
            }
            return false
        }

        /// The request on a line, nil for a blank line or one answered with a framing error.
        private func decodeRequest(_ bytes: ArraySlice<UInt8>, _ connection: Connection) -> Request? {
            do {
                return try Request(line: LineFramer.decode(bytes))
            } catch {
                answer(connection, .error(error.code, error.description))
                return nil
            }
        }

        /// The next complete line's bytes: nil when none is buffered, `.some(nil)` for a line over the limit, which
        /// was answered with `TOOLONG`.
        private func nextLine(_ connection: Connection) -> ArraySlice<UInt8>?? {
            do {
                guard let bytes = try connection.framer.nextLineBytes() else { return nil }
                return .some(bytes)
            } catch {
                answer(connection, .error(error.code, error.description))
                return .some(nil)
            }
        }

        private func answer(_ connection: Connection, _ reply: Reply) {
            connection.enqueue(reply)
            unpublishedServed += 1
            unpublishedPeak = max(unpublishedPeak, connection.pendingOutputCount)
        }

        /// Counters are published once per batch of events, not per reply: the shared lock stays off the hot path.
        private func publishStatistics() {
            guard unpublishedServed > 0 else { return }
            let (served, peak) = (unpublishedServed, unpublishedPeak)
            server.updateStatistics {
                $0.commandsServed += served
                $0.peakPendingOutput = max($0.peakPendingOutput, peak)
            }
            unpublishedServed = 0
            unpublishedPeak = 0
        }

        private func execute(_ resolved: CommandTable.Resolved, payload: [UInt8]?, on connection: Connection) {
            var input = resolved.input
            input.payload = payload
            let action: CommandAction
            do {
                action = try resolved.command.handler(input)
            } catch {
                answer(connection, .error(error.code, error.message))
                return
            }
            switch action {
            case .done(let result):
                apply(result, to: connection)
            case .database(let work):
                guard let pool = server.pool else {
                    answer(connection, .error(.unavailable, "this server has no database"))
                    return
                }
                connection.state = .running
                let session = connection.session
                let token = connection.token
                let name = resolved.command.name
                let ticket = CommandTicket()
                connection.ticket = ticket
                do {
                    try pool.submit { database in
                        // The client left while the command waited for a database connection: never start it.
                        guard !ticket.isCancelled else {
                            return CommandResult(.error(.unavailable, "the client disconnected"))
                        }
                        return try Server.runAuthorized(work, session: session, on: database)
                    } completion: { [server] result in
                        server.post { loop in loop.complete(token: token, command: name, result: result) }
                    }
                } catch {
                    connection.state = .ready
                    connection.ticket = nil
                    answer(connection, server.reply(for: error, command: name))
                }
            }
        }

        /// A command's database work finished: apply its result and carry on with the connection's next request.
        func complete(token: UInt64, command: String, result: Result<CommandResult, any Error>) {
            guard let connection = connections[token] else { return }
            connection.state = .ready
            connection.ticket = nil
            releaseUpload(connection)
            switch result {
            case .success(let value): apply(value, to: connection)
            case .failure(let error): answer(connection, server.reply(for: error, command: command))
            }
            process(connection)
        }

        private func apply(_ result: CommandResult, to connection: Connection) {
            if let change = result.authentication { connection.session = connection.session.applying(change) }
            answer(connection, result.reply)
            if result.closesConnection { connection.isClosing = true }
            if let watch = result.watch, !connection.isClosing {
                connection.state = .watching(
                    Connection.Watch(
                        projectID: watch.projectID, project: watch.project, lastSent: watch.since, filter: watch.filter)
                )
                watchers[watch.projectID, default: []].insert(connection.token)
                server.updateStatistics { $0.watchers += 1 }
                requestPageIfDue(connection)
            }
        }

        // MARK: Uploads

        /// The connection starts receiving or skipping an upload: its stall is watched from now.
        private func startUpload(_ connection: Connection) {
            connection.lastInputAt = .now
            uploading.insert(connection.token)
        }

        /// The connection's upload no longer counts against the total: its command finished, or it closed.
        private func releaseUpload(_ connection: Connection) {
            uploadBytesHeld -= connection.reservedUpload
            connection.reservedUpload = 0
        }

        private func millisecondsToNextUploadDeadline() -> Int32? {
            guard !uploading.isEmpty else { return nil }
            var earliest: ContinuousClock.Instant?
            for token in uploading {
                guard let connection = connections[token] else { continue }
                let deadline = connection.lastInputAt + configuration.uploadTimeout
                earliest = earliest.map { min($0, deadline) } ?? deadline
            }
            guard let earliest else { return nil }
            let wait = max(.zero, earliest - .now)
            return Int32(
                clamping: wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000 + 1)
        }

        /// Refuses and closes the uploads that sent nothing for the upload timeout: a stalled writer must not hold
        /// its buffered bytes for ever.
        private func expireStalledUploads() {
            let now = ContinuousClock.now
            for token in uploading {
                guard let connection = connections[token] else {
                    uploading.remove(token)
                    continue
                }
                guard connection.isUploading, now - connection.lastInputAt >= configuration.uploadTimeout else {
                    continue
                }
                uploading.remove(token)
                server.logger.warning("dropping a stalled upload", ["peer": connection.session.peerName])
                connection.state = .ready
                releaseUpload(connection)
                // The bytes received so far go at once, whether or not the client reads the reply.
                connection.framer = LineFramer(maximumLineLength: configuration.maximumLineLength)
                let seconds = configuration.uploadTimeout.components.seconds
                answer(connection, .error(.badArgument, "the upload stalled: no bytes for \(seconds) s"))
                connection.isClosing = true
                flush(connection)
            }
        }

        // MARK: Watching

        /// Asks the dispatcher for the next page of stored events when a replaying watcher has room for it.
        private func requestPageIfDue(_ connection: Connection) {
            guard case .watching(var watch) = connection.state, watch.isReplaying, !watch.isPageRequested,
                connection.pendingOutputCount < configuration.maximumWatcherBacklog / 4,
                let hub = server.hub
            else { return }
            watch.isPageRequested = true
            connection.state = .watching(watch)
            hub.requestPage(connection: connection.token, projectID: watch.projectID, after: watch.lastSent)
        }

        /// A page of stored events for one watcher, in order; `isComplete` when it reached the newest.
        func deliverPage(to token: UInt64, events: [Event], isComplete: Bool) {
            guard let connection = connections[token], case .watching(var watch) = connection.state else { return }
            // Events the filter passes over still move the cursor on, so the next page starts after them.
            for event in events where event.seq > watch.lastSent {
                if event.matches(watch.filter) { connection.enqueue(line: event.record.encoded) }
                watch.lastSent = event.seq
            }
            watch.isPageRequested = false
            watch.isReplaying = !isComplete
            connection.state = .watching(watch)
            afterEvents(connection)
        }

        /// Newly committed events, in order: each goes to the live watchers of its project. A revoked token ends
        /// the streams it opened; a deleted project ends its watchers' streams after its last event.
        func deliverLive(_ events: [Event]) {
            var touched: Set<UInt64> = []
            var ended: [UInt64: Reply] = [:]
            for event in events {
                if event.kind == EventKind.tokenRevoked.rawValue {
                    for tokens in watchers.values {
                        for token in tokens where connections[token]?.session.actor == "token:" + event.subject {
                            ended[token] = .error(.noAuth, "the token of this connection was revoked")
                        }
                    }
                    continue
                }
                let tokens: Set<UInt64>
                if let projectID = event.projectID {
                    tokens = watchers[projectID] ?? []
                } else if event.kind == EventKind.projectDeleted.rawValue, let name = event.project {
                    // The project's row is gone, so the event names it only: find its watchers by name.
                    tokens = Set(
                        watchers.values.joined().filter { token in
                            if case .watching(let watch) = connections[token]?.state { return watch.project == name }
                            return false
                        }
                    )
                } else {
                    continue
                }
                for token in tokens {
                    guard let connection = connections[token], case .watching(var watch) = connection.state,
                        !watch.isReplaying, event.seq > watch.lastSent
                    else { continue }
                    // A stream ends with its project's deletion, whether its filter wants the event or not.
                    if event.matches(watch.filter) { connection.enqueue(line: event.record.encoded) }
                    watch.lastSent = event.seq
                    connection.state = .watching(watch)
                    touched.insert(token)
                    if event.kind == EventKind.projectDeleted.rawValue {
                        ended[token] = .error(.notFound, "project '\(watch.project)' was deleted")
                    }
                }
            }
            for token in touched where ended[token] == nil {
                if let connection = connections[token] { afterEvents(connection) }
            }
            for (token, reply) in ended {
                guard let connection = connections[token] else { continue }
                connection.enqueue(reply)
                connection.isClosing = true
                flush(connection)
            }
        }

        private func afterEvents(_ connection: Connection) {
            guard case .watching(let watch) = connection.state else { return }
            if connection.pendingOutputCount > configuration.maximumWatcherBacklog {
                server.logger.warning(
                    "disconnecting a watcher that does not read",
                    ["peer": connection.session.peerName, "project": watch.project, "last_seq": "\(watch.lastSent)"]
                )
                connection.enqueue(.error(.busy, "watcher fell behind; resume with since=\(watch.lastSent)"))
                flush(connection)
                close(connection)
                return
            }
            guard flush(connection) else { return }
            requestPageIfDue(connection)
        }

        // MARK: Writing

        /// Writes what the socket takes; returns false when the connection was closed.
        @discardableResult
        func flush(_ connection: Connection) -> Bool {
            while connection.pendingOutputCount > 0 {
                if let tls = connection.tls {
                    guard let written = writeTLS(connection, tls) else { return false }
                    guard written > 0 else { break }
                    connection.outputStart += written
                    continue
                }
                let written = connection.output.withUnsafeBytes { buffer in
                    barkeep_send(
                        connection.descriptor,
                        buffer.baseAddress.map { $0 + connection.outputStart },
                        connection.pendingOutputCount
                    )
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { break }
                    close(connection)
                    return false
                }
                connection.outputStart += written
            }
            connection.compactOutput()
            if connection.pendingOutputCount == 0 && connection.isClosing && !connection.isRunning {
                close(connection)
                return false
            }
            updateInterest(connection)
            return true
        }

        private func updateInterest(_ connection: Connection) {
            let wantsWrites = connection.pendingOutputCount > 0
            let paused = connection.pendingOutputCount >= configuration.maximumPendingOutput
            connection.isReadingPaused = paused
            // No reading while a command runs: the framer would otherwise buffer whatever a client pipelines.
            let reads = !paused && !connection.isClosing && !connection.isInputClosed && !connection.isRunning
            var interest: UInt32 = reads ? BARKEEP_EVENT_READ : 0
            if wantsWrites { interest |= BARKEEP_EVENT_WRITE }
            // A system call only when something changed: most flushes leave a connection as it was.
            guard interest != connection.interest else { return }
            connection.interest = interest
            _ = barkeep_poller_modify(server.poller, connection.descriptor, interest, connection.token)
        }

        func close(_ connection: Connection) {
            guard connections.removeValue(forKey: connection.token) != nil else { return }
            connection.ticket?.cancel()
            if !connection.session.isLocal { tcpConnections -= 1 }
            // A best-effort close_notify, so that a TLS client can tell the end from a cut connection.
            if let tls = connection.tls, !connection.isHandshaking { tls.shutdown() }
            tlsBacklog.remove(connection.token)
            uploading.remove(connection.token)
            // The payload may still be parsed on the pool; its bytes are counted from here on as freed.
            releaseUpload(connection)
            if case .watching(let watch) = connection.state {
                watchers[watch.projectID]?.remove(connection.token)
                if watchers[watch.projectID]?.isEmpty == true { watchers[watch.projectID] = nil }
                server.updateStatistics { $0.watchers -= 1 }
            }
            _ = barkeep_poller_remove(server.poller, connection.descriptor)
            _ = Glibc.close(connection.descriptor)
            server.updateStatistics { $0.connections -= 1 }
            // The freed slot goes to the spares first, then the paused listeners try again.
            if spareDescriptors.count < Self.spareCount { refillSpares() }
            if resumeListenersAt != nil { resumeListenersAt = .now }
        }
    }

}

extension Event {
    /// The event as a WATCH record: `finding` its finding's number, `screen` the screen it is about, `screens` those
    /// it counts for, comma-separated (present, maybe empty, whenever `screen` is).
    var record: Record {
        Record([
            "seq": String(seq), "project": project, "kind": kind, "subject": subject, "from": from, "to": to,
            "reason": reason, "actor": actor, "at": at.postgresText, "finding": findingNumber.map(String.init),
            "screen": screen, "screens": screen == nil ? nil : screens.joined(separator: ","),
        ])
    }
}
