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

/// STATUS with a kept reply, answered on the loop: the status version (and the token) is looked up over the loop's
/// own non-blocking database connection (`StatusVersionLookup`), and the kept bytes are sent when it still holds, with
/// no pool thread woken. Whatever else happens (the version changed, the token was revoked, the lookup connection is
/// down, connecting, full or failed) the STATUS takes the pool path, unchanged.
extension EventLoop {
    /// `application_name` of the lookup connection, as `pg_stat_activity` shows it.
    static let lookupApplicationName = "barkeepd-status"

    /// Sends the lookup of `reply`'s version for `connection`, or runs `otherwise` on the pool when it cannot be sent.
    func lookUp(
        _ reply: KeptReply, otherwise: @escaping @Sendable (PostgresConnection, Int64?) throws -> CommandResult,
        for resolved: CommandTable.Resolved, on connection: Connection
    ) {
        let lookup = KeptReplyLookup(
            connection: connection.id, command: resolved, reply: reply, tokenID: connection.session.tokenID,
            otherwise: otherwise)
        let isSent = statusLookup?.submit(project: reply.project, checkingToken: lookup.tokenID, tag: lookup) == true
        updateLookupRegistration()
        if !isSent { runOnPool(lookup) }
    }

    /// The lookup's socket is ready: answer what it answered.
    func handleLookupReadiness() {
        guard let statusLookup else { return }
        let answers = statusLookup.handleReadiness()
        updateLookupRegistration()
        logLookupNotices()
        for (lookup, answer) in answers {
            guard let connection = connections[lookup.connection] else { continue }
            guard let answer, answer.isTokenActive, answer.version == lookup.reply.version else {
                runOnPool(lookup)
                continue
            }
            unpublishedKept.onLoop += 1
            lookup.reply.wasSent()
            apply(CommandResult(.bytes(lookup.reply.bytes)), to: connection)
            process(connection)
        }
    }

    /// Connects the lookup when due; lookups that failed meanwhile take the pool path.
    func tickStatusLookup() {
        guard let statusLookup else { return }
        let failed = statusLookup.tick(now: .now)
        updateLookupRegistration()
        logLookupNotices()
        for lookup in failed { runOnPool(lookup) }
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
