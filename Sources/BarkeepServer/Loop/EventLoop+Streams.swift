import BarkeepProtocol
import BarkeepStore
import Synchronization

/// Streamed replies (`CommandAction.streamed`): each page read on the pool only when the connection's machine asks for
/// it (`fetchPage`, once the unwritten output is below the bound), so a client that does not read costs the daemon its
/// unread-reply bound and two pages (one queued, one read ahead), whatever the reply's size.
///
/// A read holds a pool connection and a cursor between pages while its client keeps up. When the client leaves a page
/// unread for `ServerConfiguration.streamHold`, or for a moment while other work waits for a database connection, the
/// read gives the connection up; the next page then comes from a new read that goes on from the last record sent.
extension EventLoop {
    /// How a read of a streamed reply ended.
    enum StreamReadEnd: Sendable {
        /// The first read found the whole reply in one page: it is sent as any other.
        case whole(CommandResult)
        /// The last page was sent: the final line follows.
        case finished
        /// The read gave its database connection up before the end (`PageHandOff.Demand.release`).
        case released
        /// The client had gone.
        case cancelled
    }

    /// Starts `reply`, the command's: its first read, with the connection's token checked first.
    func startStream(_ reply: StreamedReply, for command: Command, on connection: Connection) {
        connection.stream = Connection.Stream(
            reply: reply, command: command.name, readsReplica: command.readsReplica)
        startRead(connection, checkingToken: connection.session.tokenID)
    }

    /// The machine asks for the next page: the read holding a connection sends it, or a new read starts.
    func fetchPage(_ connection: Connection) {
        guard let stream = connection.stream else { return }
        if let read = stream.read {
            read.want()
        } else {
            startRead(connection, checkingToken: nil)
        }
    }

    /// Starts a read of the connection's streamed reply on the pool, from where the last page ended.
    private func startRead(_ connection: Connection, checkingToken tokenID: Int64?) {
        guard var stream = connection.stream else { return }
        guard let pool = server.pool else {
            connection.stream = nil
            finish(connection, Self.noDatabase)
            return
        }
        let handOff = PageHandOff()
        stream.read = handOff
        connection.stream = stream
        let isFirst = !connection.machine.isStreaming
        if !isFirst { server.updateStatistics { $0.streamReadsResumed += 1 } }
        do {
            let (id, reply, position, hold) = (connection.id, stream.reply, stream.position, configuration.streamHold)
            let sent = PageCount()
            let read: @Sendable (PostgresConnection, PostgresPool) throws -> StreamReadEnd = {
                [server] database, pool in
                // The client left while the read waited for a database connection: never start it.
                guard !handOff.isCancelled else { return StreamReadEnd.cancelled }
                if let tokenID, try TokenStore.activeRole(id: tokenID, on: database) == nil {
                    return .whole(Server.revokedToken)
                }
                return try Self.readPages(
                    of: reply, after: position, isFirst: isFirst, hold: hold, pool: pool, handOff: handOff,
                    on: database
                ) { bytes, count, last in
                    sent.add()
                    server.post { loop in loop.receivePage(bytes, count: count, last: last, from: handOff, for: id) }
                }
            }
            let ended: @Sendable (Result<StreamReadEnd, any Error>) -> Void = { [server] result in
                server.post { loop in loop.endRead(result, of: handOff, for: id) }
            }
            if let replica = server.replica, stream.readsReplica {
                // A read whose pages went out cannot start over on the primary; one that sent none can.
                try replica.submitRead(
                    after: readsAfter(connection), primary: pool, isRetryable: { sent.isZero }, read, completion: ended)
            } else {
                try pool.submit({ try read($0, pool) }, completion: ended)
            }
        } catch {
            connection.stream?.read = nil
            end(connection, failing: error)
        }
    }

    /// Reads pages of `reply` after `position` (on a pool thread) and hands each to `send` as encoded record lines
    /// once the client wants it; the first page of a read goes at once. A page is read while the one before is being
    /// written, so a client that keeps up is not held up by the database; a read that gives up drops the page it
    /// holds, which the next read reads again. A first read whose first page is the last returns it whole.
    private static func readPages(
        of reply: StreamedReply,
        after position: (any Sendable)?,
        isFirst: Bool,
        hold: Duration,
        pool: PostgresPool,
        handOff: PageHandOff,
        on database: PostgresConnection,
        send: ([UInt8], Int, (any Sendable)?) -> Void
    ) throws -> StreamReadEnd {
        var end = StreamReadEnd.finished
        var isFirstPage = true
        try reply.read(database, position) { page in
            if isFirst && isFirstPage && page.isLast {
                let whole: Reply =
                    reply.summary.fields.isEmpty
                    ? .records(page.records) : .summarizedRecords(page.records, summary: reply.summary)
                end = .whole(CommandResult(whole))
                return false
            }
            // Encoded here, on the pool thread: the loop only queues the bytes.
            var bytes: [UInt8] = []
            Reply.encode(records: page.records, into: &bytes)
            if !isFirstPage {
                switch handOff.awaitDemand(hold: hold, isContended: { pool.hasQueuedWork }) {
                case .next:
                    break
                case .cancelled:
                    end = .cancelled
                    return false
                case .release:
                    end = .released
                    return false
                }
            }
            isFirstPage = false
            send(bytes, page.records.count, page.position)
            return !page.isLast
        }
        return end
    }

    /// A page of a streamed reply, from its current read: queued, and the connection goes on.
    private func receivePage(
        _ bytes: [UInt8], count: Int, last: (any Sendable)?, from handOff: PageHandOff, for id: ConnectionID
    ) {
        guard let connection = connections[id], var stream = connection.stream, stream.read === handOff else { return }
        stream.count += count
        if let last { stream.position = last }
        connection.stream = stream
        connection.machine.receivePage(bytes)
        process(connection)
    }

    /// A read of a streamed reply ended: the reply ends (whole, with its final line, or with an error), or waits for
    /// the next read.
    private func endRead(_ result: Result<StreamReadEnd, any Error>, of handOff: PageHandOff, for id: ConnectionID) {
        guard let connection = connections[id], let stream = connection.stream, stream.read === handOff else { return }
        connection.stream?.read = nil
        switch result {
        case .success(.whole(let result)):
            connection.stream = nil
            apply(result, to: connection)
        case .success(.finished):
            connection.stream = nil
            var final: [UInt8] = []
            Reply.encodeEnd(count: stream.count, summary: stream.reply.summary, into: &final)
            finish(connection, .bytes(final))
        case .success(.released):
            // The machine asked for a page after the read had decided to let go: a new read sends it.
            if case .streaming(isPageRequested: true) = connection.machine.state {
                startRead(connection, checkingToken: nil)
            }
        case .success(.cancelled):
            break
        case .failure(let error):
            end(connection, failing: error)
        }
        process(connection)
    }

    /// The streamed reply cannot go on: answered with the error while nothing of it went out; otherwise the records
    /// sent cannot be followed by an error, and the connection closes.
    private func end(_ connection: Connection, failing error: any Error) {
        guard let stream = connection.stream else { return }
        connection.stream = nil
        guard connection.machine.isStreaming else {
            finish(connection, server.reply(for: error, command: stream.command))
            return
        }
        server.logger.warning(
            "a streamed reply broke off; closing its connection",
            ["command": stream.command, "peer": connection.session.peerName, "error": "\(error)"])
        connection.machine.breakOff()
    }
}

/// How many pages a read of a streamed reply handed over, told across threads: a read that handed none may start
/// over elsewhere.
///
/// Thread-safety: the count is an `Atomic`.
private final class PageCount: Sendable {
    private let count = Atomic<Int>(0)

    /// One more page handed over.
    func add() { count.add(1, ordering: .relaxed) }

    /// Whether none was.
    var isZero: Bool { count.load(ordering: .relaxed) == 0 }
}
