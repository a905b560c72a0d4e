import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// Runs commands for an HTTP request as its `WebIdentity`, on the pool thread and database connection the request was
/// given, through exactly the line protocol's road: `CommandTable.resolve` with a `Session` made from the identity
/// (unknown commands, arity, keys and roles refused as on the wire, before any handler runs), the command's handler,
/// then its action (`.done`, `.database`, `.databaseCheckingToken`, `.keptReply`, `.streamed`) run here. The answer
/// is the reply's bytes as the wire would send them, read back as the CLI reads them.
/// Not `Sendable`: it holds the pool connection of one request, on that request's pool thread.
struct InProcessClient {
    /// The most records one streamed reply may gather before it is refused (`TOOLONG`): an HTTP body is built whole,
    /// so memory stays bounded; a larger result is asked for by filter or page.
    static let maximumRecords = HTTPLimit.answerRecords

    /// The records and the final line's fields of a successful reply, as the CLI reads them.
    struct Answer: Sendable {
        /// The records, in order.
        var records: [Record]
        /// The text after `OK`.
        var text: String
        /// The final line's `key=value` fields.
        var fields: [String: String]
    }

    /// The server whose commands run.
    let server: Server
    /// The server's command table.
    let commands: CommandTable
    /// Who runs them.
    let identity: WebIdentity
    /// The peer's address, for the log.
    let peerName: String
    /// The pool connection the request holds.
    let database: PostgresConnection

    /// The line-protocol session the identity is: its token, role and actor, speaking the current protocol version.
    var session: Session {
        Session(isLocal: false, uid: nil, peerName: peerName, role: nil, actor: "anonymous")
            .applying(.token(id: identity.tokenID, name: identity.name, role: identity.role))
            .speaking(ProtocolVersion.current)
    }

    /// Runs `request` (with `payload`, for a command that takes an upload: its size is the request's last argument)
    /// and reads its reply; a refusal or a command's error is thrown as the wire's code and message (a handler's
    /// own error as it threw it, with the argument it names).
    func run(_ request: Request, payload: [UInt8]? = nil) throws(CommandError) -> Answer {
        let reply = try execute(request, payload: payload)
        var bytes: [UInt8] = []
        reply.encode(into: &bytes)
        return try Self.read(bytes)
    }

    /// Runs the typed `request` and reads its reply into `R.Reply`, as the CLI does.
    func run<R: CommandRequest>(_ request: R, payload: [UInt8]? = nil) throws(CommandError) -> R.Reply {
        let answer = try run(request.wireRequest, payload: payload)
        return try Self.typed(answer, of: R.self)
    }

    /// `answer` read into `R`'s typed reply; a reply that does not read is `INTERNAL`.
    static func typed<R: CommandRequest>(_ answer: Answer, of type: R.Type) throws(CommandError) -> R.Reply {
        do {
            try R.Reply.check(finalText: answer.text, command: R.spec.name)
            return try R.Reply(
                records: answer.records, final: answer.fields, version: ProtocolVersion.current,
                command: R.spec.name)
        } catch {
            throw CommandError(.internal, "the reply of \(R.spec.name) did not read: \(error.description)")
        }
    }

    // MARK: - The line protocol's road

    /// The wire reply to `request`: resolved, handled and its action run; a handler's `CommandError` is thrown as it
    /// is, the same code and message its `ERR` reply would carry, and its key.
    private func execute(_ request: Request, payload: [UInt8]?) throws(CommandError) -> Reply {
        let session = session
        let resolved: CommandTable.Resolved
        switch commands.resolve(
            request, session: session, maximumPayload: server.configuration.maximumPayload,
            maximumScreenshot: server.configuration.maximumScreenshot)
        {
        case .success(let value): resolved = value
        case .failure(let refusal): return refusal.reply
        }
        if let size = resolved.payloadSize, payload?.count != size {
            return .error(.badArgument, "the upload is \(payload?.count ?? 0) bytes, not the \(size) announced")
        }
        let name = resolved.command.name
        do {
            let action = try resolved.command.handler(
                resolved.input(payload: payload, session: session, server: server))
            switch action {
            case .done(let result):
                return result.reply
            case .database(let work):
                return try Server.runAuthorized(work, session: session, on: database).reply
            case .databaseCheckingToken(let work):
                return try work(database, session.tokenID).reply
            case .keptReply(_, let otherwise):
                // The kept bytes are the event loop's to send; here the same answer is read afresh.
                return try otherwise(database, session.tokenID).reply
            case .streamed(let reply):
                return try collect(reply, session: session)
            case .verdict(let grouped):
                // Already on a pool thread: the verdict alone, in its own transaction, as it always was.
                return try Server.runAuthorized(
                    { try grouped.reply(FindingStore.apply(grouped.verdict, project: grouped.project, on: $0)) },
                    session: session, on: database
                ).reply
            }
        } catch let error as CommandError {
            throw error
        } catch {
            return server.reply(for: error, command: name)
        }
    }

    /// Every page of a streamed reply, the token checked first as for `.database`; past `maximumRecords`, `TOOLONG`.
    private func collect(_ reply: StreamedReply, session: Session) throws -> Reply {
        if let tokenID = session.tokenID, try TokenStore.activeRole(id: tokenID, on: database) == nil {
            return Server.revokedToken.reply
        }
        var records: [Record] = []
        var isTooLong = false
        try reply.read(database, nil) { page in
            guard records.count + page.records.count <= Self.maximumRecords else {
                isTooLong = true
                return false
            }
            records.append(contentsOf: page.records)
            return !page.isLast
        }
        if isTooLong {
            return .error(.tooLong, "the answer has more than \(Self.maximumRecords) records; narrow the filter")
        }
        return reply.summary.fields.isEmpty
            ? .records(records) : .summarizedRecords(records, summary: reply.summary)
    }

    /// A reply's bytes read as the CLI reads them: record lines (`*…`) up to the final line.
    static func read(_ bytes: [UInt8]) throws(CommandError) -> Answer {
        var records: [Record] = []
        for slice in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var line = String(decoding: slice, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            let final: FinalLine
            do throws(ProtocolError) {
                if line.hasPrefix("*") {
                    records.append(try Record(parsing: line))
                    continue
                }
                final = try FinalLine(parsing: line)
            } catch {
                throw CommandError(.internal, "a reply did not read: \(error.description)")
            }
            switch final {
            case .ok(let text): return Answer(records: records, text: text, fields: final.fields)
            case .error(let code, let message): throw CommandError(code, message)
            }
        }
        throw CommandError(.internal, "a reply ended without its final line")
    }
}
