import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP on the event loop (docs/design/web-dashboard.md, section 1): connections accepted on the HTTP listener, each
/// an `HTTPMachine` over a `Transport` (TLS when the server has a certificate). The loop reads, performs the
/// machine's actions and writes; a request runs on the database pool — the road a line command's database work takes,
/// with its ticket and its queue limit — through the server's `HTTPApplication`, never on the loop thread.
extension EventLoop {
    /// Serves a connection just accepted on the HTTP listener.
    func admitHTTP(_ descriptor: Int32) {
        let peer = peerName(descriptor)
        guard let (transport, handshakeDeadline) = tcpTransport(descriptor, peer: peer) else { return }
        let id = nextConnectionID
        nextConnectionID = id.next
        var limits = HTTPLimits()
        limits.idleTimeout = configuration.httpIdleTimeout
        limits.bodyStallTimeout = configuration.uploadTimeout
        limits.maximumPendingOutput = configuration.maximumPendingOutput
        limits.maximumStreamBacklog = configuration.maximumWatcherBacklog
        let connection = HTTPConnection(
            descriptor: descriptor, id: id,
            machine: HTTPMachine(limits: limits, now: .now, handshakeDeadline: handshakeDeadline),
            interest: BARKEEP_EVENT_READ, transport: transport,
            context: HTTPRequestContext(peerName: peer, isTLS: tlsContext != nil))
        httpConnections[id] = connection
        server.updateStatistics { $0.httpConnections += 1 }
        armDeadline(connection)
        _ = barkeep_poller_add(server.poller, descriptor, BARKEEP_EVENT_READ, id.rawValue)
    }

    /// Acts on the readiness of an HTTP connection's socket.
    func handle(_ connection: HTTPConnection, events: UInt32) {
        if (connection.machine.isRunning || connection.machine.isStreaming) && events & BARKEEP_EVENT_CLOSED != 0 {
            // The peer is gone while its request waits or runs, or while it streams: nobody reads the answer, and a
            // request that has not started yet never starts.
            close(connection)
            return
        }
        if connection.machine.isHandshaking {
            connection.machine.transportReady()
            process(connection)
            return
        }
        if events & BARKEEP_EVENT_WRITE != 0 {
            guard flush(connection) else { return }
            // Output drained below the bound: pipelined requests waiting in the buffer may be read now.
            process(connection)
        }
        if events & (BARKEEP_EVENT_READ | BARKEEP_EVENT_HANGUP | BARKEEP_EVENT_ERROR) != 0,
            httpConnections[connection.id] != nil
        {
            read(connection)
        }
    }

    /// Reads what the transport holds and answers it, as `read(_:)` does for a line connection.
    func read(_ connection: HTTPConnection) {
        readTransport(
            connection.transport, id: connection.id, peer: connection.context.peerName,
            isOpen: { httpConnections[connection.id] != nil },
            isReading: { connection.interest & BARKEEP_EVENT_READ != 0 },
            received: { bytes, now in
                connection.machine.receive(bytes, now: now)
                process(connection, now: now)
            },
            ended: {
                // The client sent everything it will: what it sent whole is answered, then the connection closes.
                connection.machine.endInput()
                process(connection)
            },
            failed: { close(connection) })
    }

    /// Performs the connection's actions until its machine waits, then writes and sets its timer.
    func process(_ connection: HTTPConnection, now: ContinuousClock.Instant = .now) {
        while httpConnections[connection.id] != nil {
            switch connection.machine.nextAction(now: now) {
            case .authorize(let head):
                authorize(head, on: connection)
            case .execute(let head, let body):
                run(head, body: body, on: connection)
            case .handshake:
                let outcome = connection.transport.handshake()
                connection.machine.handshakeStepped(outcome, now: .now)
            case .read:
                guard flush(connection) else { return }
                armDeadline(connection)
                read(connection)
                return
            case .closeSilently(let reason):
                logSilentClose(reason, peer: connection.context.peerName, descriptor: connection.descriptor)
                close(connection)
                return
            case .requestEvents(let projectID, let after):
                server.hub?.requestPage(connection: connection.id, projectID: projectID, after: after)
            case .abandon:
                abandon(connection)
                return
            case .wait:
                guard flush(connection) else { return }
                armDeadline(connection)
                return
            }
        }
    }

    /// Judges a head with a body on a pool thread through the server's application (authenticated? the route's
    /// limit?) before its body is read; the machine waits until `admit`.
    private func authorize(_ head: HTTPRequestHead, on connection: HTTPConnection) {
        onPool(connection, ifCancelled: HTTPAdmission.refused(.busy("the client left"))) {
            application, context, database in
            try application.admit(head, context: context, database: database)
        } finish: { loop, id, result in
            loop.admitted(id, head: head, result: result)
        }
    }

    /// Runs `work` with the server's application on a pool thread — the road a line command's database work takes,
    /// its ticket cancelling it when the client leaves before it starts (`ifCancelled` is then its result) — and
    /// `finish` on the loop with the result; without a pool, or with the pool's queue full, `finish` gets the error
    /// at once.
    private func onPool<Outcome: Sendable>(
        _ connection: HTTPConnection, ifCancelled: Outcome, reads: Bool = false, writes: Bool = false,
        client: Int? = nil,
        _ work: @escaping @Sendable (any HTTPApplication, HTTPRequestContext, PostgresConnection) throws -> Outcome,
        finish: @escaping @Sendable (EventLoop, ConnectionID, Result<Outcome, any Error>) -> Void
    ) {
        let id = connection.id
        guard let pool = server.pool else {
            finish(self, id, .failure(StoreError.poolClosed))
            return
        }
        let ticket = CommandTicket()
        connection.ticket = ticket
        let application = server.httpApplication
        let context = connection.context
        let guarded: @Sendable (PostgresConnection) throws -> Outcome = { database in
            guard !ticket.isCancelled else { return ifCancelled }
            return try work(application, context, database)
        }
        do {
            try server.submitDatabaseWork(
                on: pool, reads: reads && client != nil, writes: writes,
                after: client.flatMap(httpWrites.position(of:)),
                guarded
            ) { [server] result, wrote in
                server.post { loop in
                    if let wrote, let client, case .success(let outcome) = result {
                        loop.httpWrites.note(wrote, by: client)
                        // A sign-in: the browser's next requests carry the new session's cookie alone.
                        if let session = Self.sessionSet(by: outcome, isTLS: context.isTLS) {
                            loop.httpWrites.note(wrote, by: Self.httpClientKey(authorization: [], session: session))
                        }
                    }
                    finish(loop, id, result)
                }
            }
        } catch {
            finish(self, id, .failure(error))
        }
    }

    /// The key an HTTP client's writes are remembered by: its `Authorization` fields and its session cookie.
    static func httpClientKey(authorization: [String], session: String?) -> Int {
        (authorization + [session ?? ""]).joined(separator: "\n").hashValue
    }

    /// The session cookie `outcome` sets, when it is a response that starts a session.
    static func sessionSet(by outcome: some Sendable, isTLS: Bool) -> String? {
        guard let response = outcome as? HTTPResponse else { return nil }
        let prefix = WebAuthentication.cookieName(isTLS: isTLS) + "="
        for field in response.fields where field.name.lowercased() == "set-cookie" && field.value.hasPrefix(prefix) {
            let value = field.value.dropFirst(prefix.count).prefix { $0 != ";" }
            if !value.isEmpty { return String(value) }
        }
        return nil
    }

    /// The application judged a head on the pool: the machine reads the body or answers the refusal.
    private func admitted(_ id: ConnectionID, head: HTTPRequestHead, result: Result<HTTPAdmission, any Error>) {
        guard let connection = httpConnections[id] else { return }
        connection.ticket = nil
        switch result {
        case .success(let admission): admit(head, admission, on: connection)
        case .failure(let error): admit(head, .refused(response(for: error)), on: connection)
        }
        process(connection)
    }

    /// Hands `admission` to the machine. A body admitted within its limit counts against the upload total the line
    /// protocol's uploads share (`maximumPayloadTotal`) until its request is answered; one that would pass it is
    /// refused `503 BUSY`, unread.
    private func admit(_ head: HTTPRequestHead, _ admission: HTTPAdmission, on connection: HTTPConnection) {
        var admission = admission
        if case .body(let limit, _) = admission, head.contentLength <= limit {
            if head.contentLength > configuration.maximumPayloadTotal - uploadBytesHeld {
                admission = .refused(.busy("the server holds too many uploads; retry later"))
            } else {
                uploadBytesHeld += head.contentLength
                connection.reservedUpload = head.contentLength
            }
        }
        connection.machine.admit(admission, now: .now)
    }

    /// The connection's admitted body no longer counts against the upload total: its request was answered, or the
    /// connection closed.
    private func releaseUpload(_ connection: HTTPConnection) {
        uploadBytesHeld -= connection.reservedUpload
        connection.reservedUpload = 0
    }

    /// Runs a request on a pool thread through the server's application; the machine waits until `complete`.
    private func run(_ head: HTTPRequestHead, body: [UInt8], on connection: HTTPConnection) {
        // GET and HEAD read: with a read replica they go where it decides, after this client's last write; without
        // one no client needs telling apart. Any other method is a write for the daemon's presence (`Presence`).
        let isTLS = connection.context.isTLS
        let session = WebAuthentication.sessionCookie(head, isTLS: isTLS)
        let client =
            server.replica == nil
            ? nil
            : Self.httpClientKey(authorization: head.values(of: "authorization"), session: session)
        let isRead = head.method == "GET" || head.method == "HEAD"
        // The client left while the request waited for a database connection: it never starts.
        onPool(
            connection, ifCancelled: HTTPResponse.error(503, .unavailable, "the client left"),
            reads: isRead, writes: !isRead, client: client
        ) {
            application, context, database in
            try application.respond(to: head, body: body, context: context, database: database)
        } finish: { loop, id, result in
            loop.complete(id, result: result, session: session)
        }
    }

    /// A request's work on the pool finished: its response goes out and the connection carries on. `session`: the
    /// request's session cookie.
    private func complete(_ id: ConnectionID, result: Result<HTTPResponse, any Error>, session: String? = nil) {
        guard let connection = httpConnections[id] else { return }
        connection.ticket = nil
        switch result {
        case .success(let response): complete(connection, response, session: session)
        case .failure(let error): complete(connection, response(for: error))
        }
        process(connection)
    }

    private func complete(_ connection: HTTPConnection, _ response: HTTPResponse, session: String? = nil) {
        releaseUpload(connection)
        connection.machine.complete(response, now: .now, closesConnection: isDraining)
        unpublishedServed += 1
        if let session, Self.clearsSession(response, isTLS: connection.context.isTLS) {
            endStreams(of: session)
        }
        // An event stream started: live events of its project reach it through the watchers index, as WATCH's do.
        guard let stream = connection.machine.startedStream else { return }
        connection.streamSession = session
        watchers[stream.projectID, default: []].insert(connection.id)
        server.updateStatistics { $0.watchers += 1 }
    }

    /// Whether `response` clears the session cookie: a sign-out (or a session found ended).
    static func clearsSession(_ response: HTTPResponse, isTLS: Bool) -> Bool {
        let clearing = SignInCookie.clearing(isTLS: isTLS)
        return response.fields.contains { $0.name.lowercased() == "set-cookie" && $0.value == clearing }
    }

    /// The session `cookie` ended here (signed out): the event streams it opened on this daemon end now, as a revoked
    /// token's do, rather than at the session's expiry; a reconnecting page is refused by its credentials.
    private func endStreams(of cookie: String) {
        for stream in httpConnections.all where stream.streamSession == cookie && stream.machine.isStreaming {
            stream.machine.endStream()
            flush(stream)
        }
    }

    /// The answer for an error a request threw: busy or unavailable `503`, anything else `500`; no SQL, values or
    /// secrets in it.
    private func response(for error: any Error) -> HTTPResponse {
        switch error {
        case StoreError.poolBusy:
            return .busy("the server is busy; retry later")
        case let error as StoreError where error.isConnectionFailure:
            server.logger.warning("database unavailable", ["error": error.description])
            return .error(503, .unavailable, "the database is unavailable; retry later")
        default:
            server.logger.error("HTTP request failed", ["error": "\(error)"])
            return .error(500, .internal, "internal error; see the server log")
        }
    }

    /// Writes what the socket takes; returns false when the connection was closed.
    @discardableResult
    func flush(_ connection: HTTPConnection) -> Bool {
        guard connection.transport.writeOut(&connection.machine), !connection.machine.isFinished else {
            close(connection)
            return false
        }
        var interest: UInt32 = connection.machine.wantsReadable ? BARKEEP_EVENT_READ : 0
        if connection.machine.wantsWritable { interest |= BARKEEP_EVENT_WRITE }
        if interest != connection.interest {
            connection.interest = interest
            _ = barkeep_poller_modify(server.poller, connection.descriptor, interest, connection.id.rawValue)
        }
        return true
    }

    /// Sets a timer for the connection's next deadline unless one at or before it is set already. An HTTP deadline
    /// may move earlier (an idle connection's first byte starts the shorter head deadline): the earlier timer is
    /// set, and the later one, when it fires, is stale.
    func armDeadline(_ connection: HTTPConnection) {
        arm(at: connection.machine.nextDeadline, for: connection.id, armed: &connection.armedDeadline)
    }

    /// The timer of an HTTP connection fired at `now`.
    func fire(_ entry: DeadlineQueue.Entry, for connection: HTTPConnection, now: ContinuousClock.Instant) {
        guard connection.armedDeadline == entry else { return }
        connection.armedDeadline = nil
        if connection.machine.expire(now: now) { process(connection, now: now) }
        if httpConnections[connection.id] != nil { armDeadline(connection) }
    }

    /// Closes an HTTP connection: its request on the pool, if any, never starts.
    func close(_ connection: HTTPConnection) {
        guard httpConnections.removeValue(forKey: connection.id) != nil else { return }
        server.updateStatistics { $0.httpConnections -= 1 }
        connection.ticket?.cancel()
        releaseUpload(connection)
        if let stream = connection.machine.startedStream {
            watchers[stream.projectID]?.remove(connection.id)
            if watchers[stream.projectID]?.isEmpty == true { watchers[stream.projectID] = nil }
            server.updateStatistics { $0.watchers -= 1 }
        }
        if !connection.machine.isHandshaking { connection.transport.shutdown() }
        heldInput.remove(connection.id)
        _ = barkeep_poller_remove(server.poller, connection.descriptor)
        _ = Glibc.close(connection.descriptor)
        if spareDescriptors.count < Self.spareCount { refillSpares() }
        if let resume = resumeListenersAt, resume > .now { scheduleResume(at: .now) }
    }
}
