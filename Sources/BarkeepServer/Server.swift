import BarkeepCore
import BarkeepProtocol
import CBarkeepSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's network front: TCP and Unix socket listeners served by one epoll event loop thread.
///
/// Sockets are non-blocking; each connection frames request lines, checks them against the command table and
/// queues replies in order (pipelining). A client that does not read its replies has its requests left unread
/// once `maximumPendingOutput` bytes are waiting, so memory per client stays bounded.
///
/// Thread-safety: connection state lives on the loop thread only. What other threads touch — the stop flag and
/// the counters — is behind `shared` (a `Mutex`); the wakeup eventfd is safe to write from any thread.
public final class Server: Sendable {
    /// The server's counters.
    public struct Statistics: Sendable, Equatable {
        /// Connections open now.
        public var connections = 0
        /// Connections accepted since start.
        public var accepted = 0
        /// Requests answered since start.
        public var commandsServed = 0
        /// The most reply bytes ever waiting for one client at once: bounded by the configuration's
        /// `maximumPendingOutput` plus one reply.
        public var peakPendingOutput = 0
    }

    private struct Shared {
        var statistics = Statistics()
        var isStopping = false
        var isRunning = false
        var grace = Duration.seconds(5)
    }

    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    private let commands: CommandTable
    private let logger: Logger
    private let shared = Mutex(Shared())
    private let loopFinished = DispatchSemaphore(value: 0)
    private let wakeup: Int32
    private let poller: Int32

    /// Prepares a server; nothing listens until `start()`.
    public init(configuration: ServerConfiguration, commands: CommandTable, logger: Logger) throws(ServerError) {
        self.configuration = configuration
        self.commands = commands
        self.logger = logger.with(["component": "server"])
        poller = barkeep_poller_create()
        wakeup = barkeep_wakeup_create()
        guard poller >= 0, wakeup >= 0 else { throw .eventLoop(errorText()) }
    }

    deinit {
        _ = Glibc.close(poller)
        _ = Glibc.close(wakeup)
    }

    /// The server's counters now.
    public var statistics: Statistics { shared.withLock { $0.statistics } }

    /// Opens every listener and starts the event loop thread. Returns the bound addresses (a TCP port 0 resolved).
    /// If any listener cannot be opened, none stays open.
    public func start() throws(ServerError) -> [ServerAddress] {
        var listeners: [Listener] = []
        do {
            for address in configuration.addresses { listeners.append(try Listener.open(address)) }
        } catch {
            listeners.forEach { $0.close() }
            throw error
        }
        let loop = EventLoop(server: self, listeners: listeners)
        shared.withLock { $0.isRunning = true }
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

    /// Stops accepting, lets every queued reply go out for up to `grace`, closes every connection and waits for
    /// the loop thread to end.
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
    }

    // MARK: - Loop

    /// The loop's state.
    ///
    /// `@unchecked Sendable`: `start()` creates it and hands it to the loop thread, the only thread that touches it
    /// from then on.
    private final class EventLoop: @unchecked Sendable {
        unowned let server: Server
        let listeners: [Listener]
        var connections: [UInt64: Connection] = [:]
        var nextToken: UInt64 = 1
        let wakeupToken: UInt64 = 0
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

        init(server: Server, listeners: [Listener]) {
            self.server = server
            self.listeners = listeners
        }

        /// Tokens below this number are listeners and the wakeup fd; connections count up from it.
        var firstConnectionToken: UInt64 { UInt64(listeners.count) + 1 }

        func run() {
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
                let timeout: Int32 = drainDeadline == nil ? -1 : 100
                let count = events.withUnsafeMutableBufferPointer { buffer in
                    barkeep_poller_wait(server.poller, buffer.baseAddress, Int32(buffer.count), timeout)
                }
                guard count >= 0 else {
                    if errno == EINTR { continue }
                    server.logger.error("epoll_wait failed", ["error": errorText()])
                    break
                }
                for event in events.prefix(Int(count)) { handle(event) }
            }
            for connection in Array(connections.values) { close(connection) }
        }

        private func handle(_ event: barkeep_event) {
            if event.token == wakeupToken {
                barkeep_wakeup_drain(server.wakeup)
            } else if event.token < firstConnectionToken {
                accept(from: listeners[Int(event.token) - 1])
            } else if let connection = connections[event.token] {
                if event.events & BARKEEP_EVENT_WRITE != 0 {
                    let wasPaused = connection.isReadingPaused
                    guard flush(connection) else { return }
                    // The client took enough replies: answer the requests left buffered while it lagged.
                    if wasPaused && !connection.isReadingPaused { process(connection) }
                }
                if event.events & (BARKEEP_EVENT_READ | BARKEEP_EVENT_HANGUP | BARKEEP_EVENT_ERROR) != 0,
                    connections[event.token] != nil
                {
                    read(connection)
                }
            }
        }

        /// Stop listening; connections finish what they have queued, and idle ones close now.
        private func beginDrain() {
            for listener in listeners { _ = barkeep_poller_remove(server.poller, listener.descriptor) }
            for connection in Array(connections.values) {
                connection.isClosing = true
                flush(connection)
            }
        }

        private func accept(from listener: Listener) {
            while true {
                let descriptor = barkeep_accept(listener.descriptor)
                guard descriptor >= 0 else {
                    if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                        server.logger.warning("accept failed", ["error": errorText()])
                    }
                    return
                }
                var peer = Peer(isLocal: listener.isUnix, uid: nil, role: nil)
                if listener.isUnix {
                    var uid: uid_t = 0
                    var pid: pid_t = 0
                    if barkeep_peer_credentials(descriptor, &uid, &pid) == 0 {
                        peer.uid = uid
                        // The daemon's own user, or root, owns the daemon: admin without a token.
                        if uid == server.configuration.ownerUID || uid == 0 { peer.role = .admin }
                    }
                }
                let token = nextToken
                nextToken += 1
                let connection = Connection(
                    descriptor: descriptor,
                    token: token,
                    peer: peer,
                    maximumLineLength: server.configuration.maximumLineLength
                )
                connections[token] = connection
                _ = barkeep_poller_add(server.poller, descriptor, BARKEEP_EVENT_READ, token)
                server.shared.withLock {
                    $0.statistics.connections += 1
                    $0.statistics.accepted += 1
                }
            }
        }

        private func read(_ connection: Connection) {
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                Glibc.read(connection.descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            guard count > 0 else {
                // End of stream or a reset: whatever is queued cannot be delivered any more.
                close(connection)
                return
            }
            connection.framer.append(readBuffer[0..<count])
            process(connection)
        }

        /// Answers every buffered complete line, in order, writing replies as it goes and pausing whenever the
        /// client's unread replies reach the bound.
        private func process(_ connection: Connection) {
            while true {
                let isAtBound = answerBufferedLines(connection)
                guard flush(connection) else { return }
                // Stop when the lines ran out, or when the client still has not taken its replies: its next
                // writability event resumes here.
                guard isAtBound, connection.pendingOutputCount < server.configuration.maximumPendingOutput else {
                    return
                }
            }
        }

        /// Returns true when it stopped at the output bound with lines possibly left, false when none are left.
        private func answerBufferedLines(_ connection: Connection) -> Bool {
            var served = 0
            defer {
                if served > 0 {
                    let pending = connection.pendingOutputCount
                    server.shared.withLock { shared in
                        shared.statistics.commandsServed += served
                        shared.statistics.peakPendingOutput = max(shared.statistics.peakPendingOutput, pending)
                    }
                }
            }
            while !connection.isClosing {
                if connection.pendingOutputCount >= server.configuration.maximumPendingOutput { return true }
                let outcome: CommandOutcome
                do {
                    guard let line = try connection.framer.nextLine() else { return false }
                    guard let request = Request(line: line) else { continue }
                    outcome = server.commands.dispatch(request, from: connection.peer)
                } catch {
                    outcome = .reply(.error(error.code, error.description))
                }
                served += 1
                switch outcome {
                case .reply(let reply): connection.enqueue(reply)
                case .replyAndClose(let reply):
                    connection.enqueue(reply)
                    connection.isClosing = true
                }
            }
            return false
        }

        /// Writes what the socket takes; returns false when the connection was closed.
        @discardableResult
        private func flush(_ connection: Connection) -> Bool {
            while connection.pendingOutputCount > 0 {
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
            if connection.pendingOutputCount == 0 && connection.isClosing {
                close(connection)
                return false
            }
            updateInterest(connection)
            return true
        }

        private func updateInterest(_ connection: Connection) {
            let wantsWrites = connection.pendingOutputCount > 0
            let paused = connection.pendingOutputCount >= server.configuration.maximumPendingOutput
            connection.isReadingPaused = paused
            var interest: UInt32 = paused || connection.isClosing ? 0 : BARKEEP_EVENT_READ
            if wantsWrites { interest |= BARKEEP_EVENT_WRITE }
            _ = barkeep_poller_modify(server.poller, connection.descriptor, interest, connection.token)
        }

        private func close(_ connection: Connection) {
            guard connections.removeValue(forKey: connection.token) != nil else { return }
            _ = barkeep_poller_remove(server.poller, connection.descriptor)
            _ = Glibc.close(connection.descriptor)
            server.shared.withLock { $0.statistics.connections -= 1 }
        }
    }
}
