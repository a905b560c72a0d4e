import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading and answering: bytes from the socket into the connection's machine, and the machine's actions performed
/// (commands run here or on the database pool, uploads watched, replies written).
extension EventLoop {
    /// Reads what the transport holds and answers it. A read that leaves bytes
    /// inside the transport (OpenSSL's buffers, which the socket will not signal again) reads on while the
    /// connection takes requests; once it stops taking them, the connection waits in `heldInput` until it does.
    func read(_ connection: Connection) {
        if case .plain(let descriptor) = connection.transport {
            // Plain text, the usual case: one read per readiness, as `readTransport` does it for plain text, without
            // the closures a transport that holds bytes back needs (each holding the connection).
            switch Transport.read(descriptor, into: &readBuffer) {
            case .done(let count): received(readBuffer[0..<count], on: connection, now: polledAt)
            case .wantRead, .wantWrite: break
            case .closed: inputEnded(connection)
            case .failed: close(connection)
            }
            return
        }
        readTransport(
            connection.transport, id: connection.id, peer: connection.session.peerName,
            isOpen: { connection.isOpen }, isReading: { connection.machine.wantsReadable },
            received: { bytes, now in received(bytes, on: connection, now: now) },
            ended: { inputEnded(connection) },
            failed: { close(connection) })
    }

    /// Bytes read from the connection's transport at `now`: framed, and what they complete answered.
    private func received(_ bytes: ArraySlice<UInt8>, on connection: Connection, now: ContinuousClock.Instant) {
        connection.inputMark = nextInputMark()
        connection.machine.receive(bytes, now: now)
        process(connection, now: now)
    }

    /// The connection's input ended. For a watcher nothing more can be delivered: it closes. Otherwise the client
    /// sent everything (`printf … | nc -N`, an upload then a half-close): it is answered, then it closes.
    private func inputEnded(_ connection: Connection) {
        guard connection.machine.endInput() else {
            close(connection)
            return
        }
        process(connection)
    }

    /// Reads `transport` (of connection `id`, from `peer`) until it would block: each read goes to `received` (with
    /// the batch's `polledAt`), the end of the stream to `ended`, a failure to `failed` (TLS's reason logged at
    /// debug; a reset of plain text says nothing). Plain text never holds bytes back: one read per readiness, as the
    /// poller is level-triggered. A read that leaves bytes inside the transport (OpenSSL's buffers) reads on while the
    /// connection `isOpen` and `isReading`; once it stops reading, it waits in `heldInput` until it does.
    func readTransport(
        _ transport: Transport, id: ConnectionID, peer: @autoclosure () -> String, isOpen: () -> Bool,
        isReading: () -> Bool, received: (ArraySlice<UInt8>, ContinuousClock.Instant) -> Void, ended: () -> Void,
        failed: () -> Void
    ) {
        while true {
            switch transport.read(into: &readBuffer) {
            case .done(let count):
                received(readBuffer[0..<count], polledAt)
            case .wantRead, .wantWrite:
                return
            case .closed:
                ended()
                return
            case .failed(let reason):
                if case .tls = transport {
                    server.logger.debug("TLS connection failed", ["peer": peer(), "error": reason])
                }
                failed()
                return
            }
            guard transport.hasPending, isOpen() else { return }
            guard isReading() else {
                heldInput.insert(id)
                return
            }
        }
    }

    /// Reads the connections whose transport holds bytes and that take requests again.
    func readHeldInput() {
        for id in heldInput {
            if let connection = httpConnections[id] {
                guard connection.transport.hasPending else {
                    heldInput.remove(id)
                    continue
                }
                guard connection.interest & BARKEEP_EVENT_READ != 0 else { continue }
                heldInput.remove(id)
                read(connection)
                continue
            }
            guard let connection = connections[id], connection.transport.hasPending else {
                heldInput.remove(id)
                continue
            }
            guard connection.machine.wantsReadable else { continue }
            heldInput.remove(id)
            read(connection)
        }
    }

    /// Performs the connection's actions in order, writing replies as it goes, until the machine waits for bytes, a
    /// command, or the client to read its replies.
    func process(_ connection: Connection, now: ContinuousClock.Instant = .now) {
        while connection.isOpen {
            let room = configuration.maximumPayloadTotal - uploadBytesHeld
            switch connection.machine.nextAction(now: now, uploadRoom: room) {
            case .execute(let resolved, let payload):
                execute(resolved, payload: payload, on: connection)
            case .beginUpload(let reserved):
                uploadBytesHeld += reserved
                armDeadline(connection)
            case .endUpload:
                // Its stall no longer matters: the timer, when it fires, finds no deadline.
                break
            case .fetchPage:
                fetchPage(connection)
            case .handshake:
                stepHandshake(connection)
            case .read:
                guard flush(connection) else { return }
                read(connection)
                return
            case .closeSilently(let reason):
                closeSilently(connection, reason)
                return
            case .requestEvents(let projectID, let after):
                server.hub?.requestPage(connection: connection.id, projectID: projectID, after: after)
            case .abandon:
                abandon(connection)
                return
            case .write:
                guard flush(connection), !connection.machine.isOutputFull else { return }
            case .wait:
                flushLater(connection)
                return
            }
        }
    }

    /// Runs a resolved command: its handler here, then its database work (if any) on the pool; the machine waits
    /// until `complete`.
    private func execute(
        _ resolved: consuming CommandTable.Resolved, payload: consuming [UInt8]?, on connection: Connection
    ) {
        // Only the command is kept: the request moves into the handler's input.
        let command = resolved.command
        let action: CommandAction
        do {
            action = try command.handler(resolved.input(payload: payload, session: connection.session, server: server))
        } catch {
            finish(connection, .error(error.code, error.message))
            return
        }
        switch consume action {
        case .done(let result):
            apply(result, to: connection)
        case .database(let work):
            let session = connection.session
            runOnPool(command, on: connection) { try Server.runAuthorized(work, session: session, on: $0) }
        case .databaseCheckingToken(let work):
            let tokenID = connection.session.tokenID
            runOnPool(command, on: connection) { try work($0, tokenID) }
        case .keptReply(let reply, let otherwise):
            lookUp(reply, otherwise: otherwise, for: command, on: connection)
        case .streamed(let reply):
            startStream(reply, for: command, on: connection)
        case .verdict(let grouped):
            runGrouped(grouped, command, on: connection)
        }
    }

    /// Hands a verdict to the server's group commit; the machine waits until `complete`, called once the batch
    /// holding it has committed. A client gone before its batch starts has nothing done, as on the pool.
    private func runGrouped(_ grouped: GroupedVerdict, _ command: Command, on connection: Connection) {
        guard let queue = server.verdicts else {
            finish(connection, Self.noDatabase)
            return
        }
        // A write: only while present on the database (`Presence.checkWrite`, without waiting on the loop thread).
        if let presence = server.presence, !presence.isPresent {
            finish(connection, server.reply(for: Presence.lost, command: command.name))
            return
        }
        let (id, name, ticket) = handOff(command, from: connection)
        let request = VerdictQueue.Request(
            project: grouped.project, verdict: grouped.verdict, tokenID: connection.session.tokenID,
            isCancelled: { ticket.isCancelled })
        queue.submit(request) { [server] outcome in
            // Its batch committed or failed: no STATUS after its reply is answered by a check made before it.
            server.presence?.noteWrite()
            let result: Result<CommandResult, any Error>
            // With a replica, where the primary's log ended after the batch: this client's next read waits for it.
            var wrote: WALPosition?
            switch outcome {
            case .cancelled: result = .success(Server.clientGone)
            case .tokenRevoked: result = .success(Server.revokedToken)
            case .decided(let change, let position):
                result = Result { try grouped.reply(try change.get()) }
                wrote = position
                if server.replica != nil, position == nil, (try? change.get()) != nil {
                    server.logger.warning(Server.positionUnknown, [:])
                }
            }
            server.post { [wrote] loop in loop.complete(id, command: name, result: result, wrote: wrote) }
        }
    }

    /// What a command handed off to a worker needs to come back: its connection's id, its name, and the ticket that
    /// is cancelled when the client leaves before the work starts.
    private func handOff(_ command: Command, from connection: Connection) -> (
        ConnectionID, String, CommandTicket
    ) {
        let ticket = CommandTicket()
        connection.ticket = ticket
        return (connection.id, command.name, ticket)
    }

    /// The answer to a command that needs the database, from a server that has none.
    static let noDatabase = Reply.error(.unavailable, "this server has no database")

    /// Runs `work` on a pool thread, unless the client has gone by the time a database connection is free; the
    /// machine waits until `complete`. With a read replica, a command that only reads goes where the replica's rule
    /// sends it (after this client's last write), and one that writes notes where the primary's log ended after it.
    func runOnPool(
        _ command: Command, on connection: Connection,
        _ work: @escaping @Sendable (PostgresConnection) throws -> CommandResult
    ) {
        guard let pool = server.pool else {
            finish(connection, Self.noDatabase)
            return
        }
        let (id, name, ticket) = handOff(command, from: connection)
        let guarded: @Sendable (PostgresConnection) throws -> CommandResult = { database in
            // The client left while the command waited for a database connection: never start it.
            guard !ticket.isCancelled else { return Server.clientGone }
            return try work(database)
        }
        do {
            try server.submitDatabaseWork(
                on: pool, reads: command.readsReplica, writes: command.writes,
                after: readsAfter(connection), guarded
            ) { [server] result, wrote in
                server.post { loop in loop.complete(id, command: name, result: result, wrote: wrote) }
            }
        } catch {
            connection.ticket = nil
            finish(connection, server.reply(for: error, command: name))
        }
    }

    /// A command's database work finished: apply its result and carry on with the connection's next request.
    /// `wrote`: where the primary's log ended after it, for the client's next reads.
    func complete(
        _ id: ConnectionID, command: String, result: Result<CommandResult, any Error>, wrote: WALPosition? = nil
    ) {
        guard let connection = connections[id] else { return }
        connection.ticket = nil
        if let wrote {
            connection.lastWrite = max(connection.lastWrite ?? wrote, wrote)
            lineWrites.note(wrote, by: connection.session.actor)
        }
        // What the command wrote must be in the answers to the requests after it (read-your-writes).
        connection.inputMark = nextInputMark()
        switch result {
        case .success(let value): apply(value, to: connection)
        case .failure(let error): finish(connection, server.reply(for: error, command: command))
        }
        process(connection)
    }

    /// Where the replica must be before it serves `connection`'s next read: this connection's last write, or its
    /// principal's on any connection (the CLI sends each command on a connection of its own).
    func readsAfter(_ connection: Connection) -> WALPosition? {
        // Without a replica no read waits for a position: nothing to look up on every command.
        guard server.replica != nil else { return nil }
        return [connection.lastWrite, lineWrites.position(of: connection.session.actor)].compactMap { $0 }.max()
    }

    /// The running command ended with `reply` alone.
    func finish(_ connection: Connection, _ reply: Reply) {
        connection.machine.complete(reply)
        releaseUpload(connection)
    }

    /// A command's result: the session changed as it says, its reply queued, a WATCH started.
    func apply(_ result: CommandResult, to connection: Connection) {
        guard result.changesConnection else {
            connection.machine.complete(result.reply, closesConnection: result.closesConnection)
            releaseUpload(connection)
            return
        }
        if let change = result.authentication { connection.session = connection.session.applying(change) }
        if let version = result.protocolVersion { connection.session = connection.session.speaking(version) }
        connection.machine.complete(
            result.reply, closesConnection: result.closesConnection,
            watch: result.watch.map {
                WatchMachine(projectID: $0.projectID, project: $0.project, since: $0.since, filter: $0.filter)
            })
        releaseUpload(connection)
        guard let watch = connection.machine.watch else { return }
        watchers[watch.projectID, default: []].insert(connection.id)
        server.updateStatistics { $0.watchers += 1 }
    }
}
