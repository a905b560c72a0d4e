import BarkeepStore
import CBarkeepSystem

/// A STATUS waiting for the loop's lookup of its project's status version: what to send when the kept reply is still
/// current, and what to run on the pool otherwise.
struct KeptReplyLookup {
    /// The connection that asked.
    var connection: ConnectionID
    /// The command, for the pool path.
    var command: CommandTable.Resolved
    /// The kept reply and the version it was made at.
    var reply: KeptReply
    /// The token the connection had when it asked (checked by the lookup).
    var tokenID: Int64?
    /// The pool path: today's STATUS.
    var otherwise: @Sendable (PostgresConnection, Int64?) throws -> CommandResult
}

/// What one lookup is of: a project's status version, and a token's state (nil: none checked).
struct StatusLookupKey: Hashable {
    var project: String
    var tokenID: Int64?
}

/// The STATUS requests one lookup answers: every request of the same project and token that was waiting when it was
/// sent.
struct KeptReplyBatch {
    var key: StatusLookupKey
    /// The loop's input mark when it was sent: it answers for every request read (`Connection.inputMark`) by then.
    var sentAt: UInt64
    var lookups: [KeptReplyLookup]
}

/// What the loop's lookups last found for a project and token, and up to which input mark that holds.
struct StatusConfirmation {
    var answer: StatusVersionLookup<KeptReplyBatch>.Answer
    var sentAt: UInt64
}

/// STATUS with a kept reply, answered on the loop: the status version (and the token) is looked up over the loop's
/// own non-blocking database connection (`StatusVersionLookup`), and the kept bytes are sent when it still holds, with
/// no pool thread woken. Whatever else happens (the version changed, the token was revoked, the lookup connection is
/// down, connecting or failed) the STATUS takes the pool path, unchanged.
///
/// Lookups are shared. The STATUS requests of one project and token that wait during one batch of the loop's events go
/// out as one lookup, sent after the batch; its answer also holds for any later request whose bytes the connection
/// had read before the lookup was sent, and that no command of its connection finished on the pool since
/// (`Connection.inputMark`): such a request is answered at once, from memory. So every STATUS is checked against the
/// database by a statement that ran after it arrived (and after its connection's previous write), as when each had
/// its own; a client pipelining a hundred STATUS waits for one lookup, and a thousand clients that ask together share
/// one.
extension EventLoop {
    /// `application_name` of the lookup connection, as `pg_stat_activity` shows it.
    static let lookupApplicationName = "barkeepd-status"
    /// At most this many projects and tokens have a lookup's answer remembered.
    static let maximumConfirmations = 4096

    /// A new input mark: every read and every command finished on the pool takes one, and a lookup takes the one of
    /// its sending, so that a lookup answers for the requests whose connection's mark is not above its own.
    func nextInputMark() -> UInt64 {
        inputMarks += 1
        return inputMarks
    }

    /// Answers `reply` for `connection` when a lookup sent after its request arrived found it current; otherwise the
    /// request waits for the lookup sent after this batch of events (or runs `otherwise` on the pool when the lookup
    /// connection is not ready).
    func lookUp(
        _ reply: KeptReply, otherwise: @escaping @Sendable (PostgresConnection, Int64?) throws -> CommandResult,
        for resolved: CommandTable.Resolved, on connection: Connection
    ) {
        let lookup = KeptReplyLookup(
            connection: connection.id, command: resolved, reply: reply, tokenID: connection.session.tokenID,
            otherwise: otherwise)
        let key = StatusLookupKey(project: reply.project, tokenID: lookup.tokenID)
        if let confirmed = statusConfirmations[key], confirmed.sentAt >= connection.inputMark {
            send(lookup, with: confirmed.answer, on: connection)
            return
        }
        guard statusLookup?.isReady == true else {
            runOnPool(lookup)
            return
        }
        waitingLookups[key, default: []].append(lookup)
    }

    /// Sends one lookup for each project and token that STATUS requests wait for (after each batch of events); those
    /// it cannot send (the connection is not ready, or holds `maximumPending` lookups already) take the pool path.
    func sendWaitingLookups() {
        guard let statusLookup, !waitingLookups.isEmpty else { return }
        let waiting = waitingLookups
        waitingLookups = [:]
        for (key, lookups) in waiting {
            let batch = KeptReplyBatch(key: key, sentAt: nextInputMark(), lookups: lookups)
            if !statusLookup.submit(project: key.project, checkingToken: key.tokenID, tag: batch) {
                for lookup in lookups { runOnPool(lookup) }
            }
        }
        updateLookupRegistration()
    }

    /// The lookup's socket is ready: answer what it answered.
    func handleLookupReadiness() {
        guard let statusLookup else { return }
        let answers = statusLookup.handleReadiness()
        updateLookupRegistration()
        logLookupNotices()
        for (batch, answer) in answers {
            if let answer, statusConfirmations[batch.key].map({ $0.sentAt < batch.sentAt }) ?? true {
                // Bounded: each holds a project and a token; past the bound they are all forgotten (and found again).
                if statusConfirmations.count >= Self.maximumConfirmations { statusConfirmations.removeAll() }
                statusConfirmations[batch.key] = StatusConfirmation(answer: answer, sentAt: batch.sentAt)
            }
            for lookup in batch.lookups {
                guard let connection = connections[lookup.connection] else { continue }
                guard let answer else {
                    runOnPool(lookup)
                    continue
                }
                send(lookup, with: answer, on: connection)
                process(connection)
            }
        }
    }

    /// Sends the kept reply when `answer` found its version current and the token active; otherwise runs the pool
    /// path.
    private func send(
        _ lookup: KeptReplyLookup, with answer: StatusVersionLookup<KeptReplyBatch>.Answer, on connection: Connection
    ) {
        guard answer.isTokenActive, answer.version == lookup.reply.version else {
            runOnPool(lookup)
            return
        }
        unpublishedKept.onLoop += 1
        lookup.reply.wasSent()
        apply(CommandResult(.bytes(lookup.reply.bytes)), to: connection)
    }

    /// Connects the lookup when due; lookups that failed meanwhile take the pool path.
    func tickStatusLookup() {
        guard let statusLookup else { return }
        let failed = statusLookup.tick(now: .now)
        updateLookupRegistration()
        logLookupNotices()
        for batch in failed {
            for lookup in batch.lookups { runOnPool(lookup) }
        }
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
