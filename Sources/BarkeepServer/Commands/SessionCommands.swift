import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// HELLO, STATS and WATCH: the commands about the connection and the server rather than the audit.
enum SessionCommands {
    static let all: [Command] = [hello, stats, watch, events]

    /// Failed HELLOs a connection may send: the last one's reply says it closes, and it does. (Across its
    /// connections, a peer is limited by the server's FailedHelloLimiter.)
    static let maximumFailedHellos = 10

    static let hello = Command(HelloRequest.self) { request, input in
        let version = request.protocolVersion?.number ?? ProtocolVersion.assumed
        let server = input.server
        @Sendable func greeting(_ role: Role?) -> CommandResult {
            var greeting = Greeting()
            greeting.protocolVersion = version
            greeting.server = server.serverID
            greeting.version = BarkeepVersion.current
            greeting.role = role?.rawValue ?? "none"
            greeting.maximumUpload = server.configuration.maximumPayload
            var result = CommandResult(HelloRequest.Reply(greeting), version: version)
            result.protocolVersion = version
            return result
        }
        guard let secret = request.token else {
            var result = greeting(input.session.baseRole)
            result.authentication = .cleared
            return .done(result)
        }
        let session = input.session
        let logger = server.logger
        // A peer that failed too often lately waits, whatever the token: not even looked at, it cannot be guessed.
        // Refused here at once when it has run out; else its allowance is taken on the pool, just before the
        // lookup, so HELLOs sent at once on many connections count too, while good ones from one busy host (which
        // give their share back) wait a moment for each other instead of being refused.
        let limiter = server.failedHellos
        let refusal: @Sendable (Duration) -> CommandResult = { wait in
            let isLast = session.failedHellos + 1 >= maximumFailedHellos
            var result = CommandResult(
                .error(
                    .noAuth,
                    "too many failed HELLOs from \(FailedHelloLimiter.peer(of: session.peerName)); retry in "
                        + "\(Int(wait.seconds.rounded(.up))) s" + (isLast ? "; closing" : "")))
            result.authentication = .failed
            result.closesConnection = isLast
            return result
        }
        if let wait = limiter.check(session.peerName) { return .done(refusal(wait)) }
        return .database { connection in
            if let wait = limiter.admitWaiting(session.peerName) { return refusal(wait) }
            let found: TokenInfo?
            do {
                found = try TokenStore.authenticate(secret: secret, on: connection)
            } catch {
                limiter.giveBack(session.peerName)  // Not a failed guess: the lookup could not be made.
                throw error
            }
            guard let token = found else {
                let failures = session.failedHellos + 1
                // Never the token itself in the log: only where the attempt came from, a line a second at most.
                if let suppressed = limiter.record(peerName: session.peerName) {
                    var fields = [("peer", session.peerName), ("failures", String(failures))]
                    if suppressed > 0 { fields.append(("suppressed", String(suppressed))) }
                    logger.log(.warning, "authentication failed", fieldList: fields)
                }
                let isLast = failures >= maximumFailedHellos
                var result = CommandResult(
                    .error(.noAuth, "invalid or revoked token" + (isLast ? "; too many failed HELLOs, closing" : "")))
                result.authentication = .failed
                result.closesConnection = isLast
                return result
            }
            limiter.giveBack(session.peerName)
            // A Unix-socket owner keeps its admin role whatever the token says.
            let role = session.baseRole.map { max($0, token.role) } ?? token.role
            var result = greeting(role)
            result.authentication = .token(id: token.id, name: token.name, role: role)
            return result
        }
    }

    static let stats = Command(StatsRequest.self) { _, input in
        let server = input.server
        let version = input.session.protocolVersion
        // Answered from memory, so it works when the database does not (when it is most wanted); only a token
        // needs the database, to be re-checked.
        let statistics: @Sendable () -> CommandResult = {
            let statistics = server.statistics
            var record = StatsRecord()
            record.server = server.serverID
            record.version = BarkeepVersion.current
            record.uptime = Int(server.uptime.seconds)
            record.connections = statistics.connections
            record.accepted = statistics.accepted
            record.commands = statistics.commandsServed
            record.watchers = statistics.watchers
            record.httpConnections = statistics.httpConnections
            record.pagesShared = server.pagesShared
            record.statusKeptLoop = statistics.keptStatusOnLoop
            record.statusKeptPool = statistics.keptStatusToPool
            record.statusLookups = statistics.statusLookups
            if let presence = server.presence {
                let since = presence.soleSince
                record.sole = since != nil
                record.soleSince = since.map { Timestamp.text($0) }
            }
            if let pool = server.poolUsage {
                record.poolSize = pool.size
                record.poolBusy = pool.busy
                record.poolQueued = pool.queued
                record.poolRejected = pool.rejected
            }
            if let replica = server.replicaUsage {
                record.replica = replica.condition.rawValue
                record.replicaLagMilliseconds = Int(replica.lag.milliseconds)
                record.replicaReads = replica.replicaReads
                record.primaryReads = replica.primaryReads
                record.replicaFallbacks = replica.fallbacks
            }
            return CommandResult(StatsRequest.Reply([record]), version: version)
        }
        return input.session.tokenID == nil ? .done(statistics()) : .database { _ in statistics() }
    }

    static let watch = Command(WatchRequest.self) { request, input in
        let name = request.project
        let since = request.since?.value
        var filter = EventFilter(screen: request.screen?.key)
        if let kinds = request.kinds?.kinds { filter.kinds = Set(kinds) }
        filter.finding = request.finding?.value
        let chosen = filter
        let version = input.session.protocolVersion
        return .database { connection in
            let project = try ProjectStore.require(name, on: connection)
            if let screen = chosen.screen, screen != AuditArea.unmapped {
                _ = try ScreenStore.require(screen, projectID: project.id, on: connection)
            }
            let start = try since ?? EventLog.head(on: connection)
            var result = CommandResult(
                WatchRequest.Reply(project: project.name, since: start), version: version)
            result.watch = WatchStart(projectID: project.id, project: project.name, since: start, filter: chosen)
            return result
        }
    }

    static let events = Command(EventsRequest.self) { request, input in
        let name = request.project
        let after = request.after?.value ?? 0
        let limit = request.limit?.value ?? EventPage.defaultLimit
        let version = input.session.protocolVersion
        return .database { connection in
            let project = try ProjectStore.require(name, on: connection)
            let events = try EventLog.events(after: after, projectID: project.id, limit: limit, on: connection)
            let next = events.last?.seq ?? after
            return CommandResult(
                EventsRequest.Reply(events.map(EventFields.init), summary: EventsPageEnd(next: next)), version: version)
        }
    }

    /// A `screen=` value of a request that follows events (HOOK ADD, as WATCH's `EventScreen`), checked; nil when
    /// not given.
    static func eventScreen(_ screen: String?) throws(CommandError) -> String? {
        guard let screen else { return nil }
        do throws(ValueProblem) {
            return try EventScreen(wire: screen).key
        } catch {
            throw CommandError(.badArgument, error.message)
        }
    }
}
