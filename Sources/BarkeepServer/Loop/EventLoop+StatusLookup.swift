import BarkeepCore
import BarkeepStore
import CBarkeepSystem

/// A STATUS waiting for the loop's lookup of its project's status version: what to send when the kept reply is still
/// current, and what to run on the pool otherwise.
struct KeptReplyLookup {
    /// The connection that asked.
    var connection: ConnectionID
    /// The command, for the pool path.
    var command: Command
    /// The kept reply and the version it was made at.
    var reply: KeptReply
    /// The token the connection had when it asked (checked by the lookup).
    var tokenID: Int64?
    /// The pool path: today's STATUS.
    var otherwise: @Sendable (PostgresConnection, Int64?) throws -> CommandResult
}

/// STATUS with a kept reply, answered on the loop: the status version (and the token) is looked up over the loop's
/// own non-blocking database connection (`StatusVersionLookup`), and the kept bytes are sent when it still holds, with
/// no pool thread woken. Whatever else happens (the version changed, the token was revoked, the lookup connection is
/// down, connecting or failed) the STATUS takes the pool path, unchanged.
///
/// Lookups are shared as a group commit is (`SharedStatusLookups`): one is in flight at a time, covering every project
/// and token that STATUS requests wait for when it is sent (after a batch of the loop's events, or as soon as the one
/// before returns, before its replies are sent); those that arrive meanwhile wait for the next. Its answer also holds for any later request whose bytes the
/// connection had read before the lookup was sent, and that no command of its connection finished on the pool since
/// (`Connection.inputMark`): such a request is answered at once, from memory. So every STATUS is checked against the
/// database by a statement that ran after it arrived (and after its connection's previous write), as when each had
/// its own; a client pipelining a hundred STATUS waits for one lookup, and any number of clients cost one round trip
/// per cycle.
///
/// In sole mode (`Presence`: this daemon serves the database alone, so every write and revocation goes through it) a
/// lookup's answer also holds for requests arriving later, until the daemon leaves sole mode or one of its writes
/// finishes (`SharedStatusLookups.Stamp`): a reader's repeated STATUS is answered from memory with no round trip.
extension EventLoop {
    /// The largest reply a connection keeps for its line (`ConnectionMachine.keep`): it holds it until a write or a
    /// new session, shared with the cache only while the cache keeps it, so many connections' replies evicted there
    /// must stay small; and a larger reply costs more to send than to find again.
    static let maximumKeptLineReply = 64 << 10
    /// `application_name` of the lookup connection, as `pg_stat_activity` shows it.
    static let lookupApplicationName = PostgresConfiguration.daemonApplicationName(.status)
    /// A new input mark: every read and every command finished on the pool takes one, and a lookup takes the one of
    /// its sending, so that a lookup answers for the requests whose connection's mark is not above its own.
    func nextInputMark() -> UInt64 {
        inputMarks += 1
        return inputMarks
    }

    /// Answers `reply` for `connection` when a lookup sent after its request arrived found it current; otherwise the
    /// request waits for a lookup sent after it arrived (or runs `otherwise` on the pool when the lookup connection is
    /// not ready).
    func lookUp(
        _ reply: KeptReply, otherwise: @escaping @Sendable (PostgresConnection, Int64?) throws -> CommandResult,
        for command: Command, on connection: Connection
    ) {
        let tokenID = connection.session.tokenID
        let key = StatusLookupKey(project: reply.project, tokenID: tokenID)
        let now = presenceStamp()
        let confirmed = statusLookups.confirmed(key, arrivedAt: connection.inputMark, now: now)
        // The common case first, building nothing more.
        if let confirmed, confirmed.isTokenActive, confirmed.version == reply.version {
            // Held in sole mode: the connection sends it again for the same line while the stamp holds, with no
            // request made (`ConnectionMachine.keep`).
            if now.isSole, reply.bytes.count <= Self.maximumKeptLineReply, statusLookups.holdsLater(key, now: now) {
                connection.keep(reply, stamp: KeptStamp(epoch: now.epoch, generation: now.generation))
            }
            sendKept(reply, to: connection)
            return
        }
        let lookup = KeptReplyLookup(
            connection: connection.id, command: command, reply: reply, tokenID: tokenID, otherwise: otherwise)
        guard confirmed == nil, statusLookup?.isReady == true else {
            runOnPool(lookup)
            return
        }
        statusLookups.wait(lookup, for: key, arrivedAt: connection.inputMark, now: now)
    }

    /// The presence's sole epoch and write generation now (`.none` without a database).
    func presenceStamp() -> StatusLookupStamp {
        guard let presence = server.presence else { return .none }
        return .init(epoch: presence.epoch, generation: presence.generation)
    }

    /// Sends the lookup of every project and token that STATUS requests wait for, when none is in flight (after each
    /// batch of events, and as soon as the one in flight returns); when it cannot be sent (the connection is not
    /// ready, or failed), they take the pool path.
    func sendWaitingLookups() {
        guard let statusLookup, statusLookups.inFlight == nil, !statusLookups.waiting.isEmpty else { return }
        let sentAt = nextInputMark()
        // Read before the statement goes out: a write finished later, or sole mode left, voids its answer for later
        // requests.
        guard let keys = statusLookups.send(at: sentAt, stamp: presenceStamp()) else { return }
        lookupsSent += 1
        if !statusLookup.submit(keys, tag: sentAt) { answer(nil) }
        updateLookupRegistration()
    }

    /// The lookup's socket is ready: answer what it answered.
    func handleLookupReadiness() {
        guard let statusLookup else { return }
        let answered = statusLookup.handleReadiness()
        updateLookupRegistration()
        logLookupNotices()
        for (sentAt, answers) in answered where sentAt == statusLookups.inFlight?.sentAt {
            answer(answers)
        }
    }

    /// The lookup in flight answered `answers` (nil: it failed): its requests get the kept reply, or the pool path.
    /// The next lookup, of the requests that arrived meanwhile, goes out first: the database reads it while these
    /// replies are sent.
    private func answer(_ answers: [StatusLookupAnswer]?) {
        let answered = statusLookups.answer(answers)
        if answers != nil { sendWaitingLookups() }
        for (lookup, answer) in answered {
            guard let connection = connections[lookup.connection] else { continue }
            guard let answer else {
                runOnPool(lookup)
                continue
            }
            send(lookup, with: answer, on: connection)
            process(connection)
        }
    }

    /// Sends the kept reply when `answer` found its version current and the token active; otherwise runs the pool
    /// path.
    private func send(_ lookup: KeptReplyLookup, with answer: StatusLookupAnswer, on connection: Connection) {
        guard answer.isTokenActive, answer.version == lookup.reply.version else {
            runOnPool(lookup)
            return
        }
        sendKept(lookup.reply, to: connection)
    }

    private func sendKept(_ reply: KeptReply, to connection: Connection) {
        unpublishedKept.onLoop += 1
        reply.wasSent()
        apply(CommandResult(.bytes(reply.bytes)), to: connection)
    }

    /// Connects the lookup when due; a lookup that failed meanwhile takes the pool path.
    func tickStatusLookup() {
        guard let statusLookup else { return }
        let failed = statusLookup.tick(now: .now)
        updateLookupRegistration()
        logLookupNotices()
        if failed.contains(where: { $0 == statusLookups.inFlight?.sentAt }) { answer(nil) }
    }

    /// Closes the lookup connection as the loop ends.
    func closeStatusLookup() {
        _ = statusLookup?.close()
        updateLookupRegistration()
        statusLookup = nil
    }

    /// Logs what the lookup connection told: its loss and return, and a lookup PostgreSQL refused.
    private func logLookupNotices() {
        for notice in statusLookup?.takeNotices() ?? [] {
            switch notice {
            case .down(let error):
                server.logger.warning(
                    "status lookup connection lost; kept STATUS replies go through the pool until it is back",
                    ["error": error])
            case .up:
                server.logger.info("status lookup connection ready")
            case .failed(let error):
                server.logger.warning("a status lookup failed; it went through the pool", ["error": error])
            case .timedOut(let limit):
                server.logger.warning(
                    "a status lookup took longer than its deadline; its STATUS requests went through the pool and the "
                        + "lookup connection is opened again",
                    ["deadline": DurationText.describe(limit)])
            }
        }
    }

    private func runOnPool(_ lookup: KeptReplyLookup) {
        guard let connection = connections[lookup.connection] else { return }
        unpublishedKept.toPool += 1
        runOnPool(lookup.command, on: connection) { try lookup.otherwise($0, lookup.tokenID) }
    }

    /// Brings the poller in line with the lookup's socket: registered anew when it may be another one, modified when
    /// only the readiness it waits for changed.
    private func updateLookupRegistration() {
        let wanted = statusLookup?.registration
        guard wanted != lookupRegistration else { return }
        if let old = lookupRegistration, old.socket != wanted?.socket || old.generation != wanted?.generation {
            // Fails harmlessly when libpq already closed the socket (the poller forgot it then).
            _ = barkeep_poller_remove(server.poller, old.socket)
            lookupRegistration = nil
        }
        guard let wanted else { return }
        let events = (wanted.wantsRead ? BARKEEP_EVENT_READ : 0) | (wanted.wantsWrite ? BARKEEP_EVENT_WRITE : 0)
        if lookupRegistration == nil {
            _ = barkeep_poller_add(server.poller, wanted.socket, events, Self.lookupKey)
        } else {
            _ = barkeep_poller_modify(server.poller, wanted.socket, events, Self.lookupKey)
        }
        lookupRegistration = wanted
    }
}
