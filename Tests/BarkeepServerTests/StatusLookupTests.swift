import BarkeepCore
import BarkeepProtocol
import BarkeepServer
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Synchronization
import Testing

/// STATUS with a kept reply answered on the event loop, its status version looked up over the loop's own
/// non-blocking connection (`StatusVersionLookup`), and the pool path whenever that cannot answer.
@Suite("STATUS version lookups on the event loop")
struct StatusLookupTests {
    /// Every line of the reply to `request`, the final one last.
    private func reply(_ client: LineClient, _ request: String) throws -> [String] {
        try client.send(request + "\n")
        return try readReply(client)
    }

    /// Every line of the next reply, the final one last.
    private func readReply(_ client: LineClient) throws -> [String] {
        var lines: [String] = []
        while let line = try client.readLine() {
            lines.append(line)
            if !line.hasPrefix("* ") { break }
        }
        return lines
    }

    /// Sends `requests` in one write, then reads their replies in order.
    private func pipelined(_ client: LineClient, _ requests: [String]) throws -> [[String]] {
        try client.send(requests.map { $0 + "\n" }.joined())
        return try requests.map { _ in try readReply(client) }
    }

    /// Whether `client`'s `STATUS app` comes to be answered on the loop (each reply `made`): the lookup connection
    /// opens as the loop starts, and until it is ready, STATUS takes the pool path.
    private func isAnsweredOnLoop(_ running: RunningServer, _ client: LineClient, made: [String]) throws -> Bool {
        try eventually {
            if try reply(client, "STATUS app") != made { Issue.record("STATUS answered otherwise") }
            return running.server.statistics.keptStatusOnLoop >= 1
        }
    }

    /// Whether `count` STATUS requests (`send` sends them and checks their replies) are all answered on the loop, none
    /// by the pool. A lookup may legitimately take the pool path (its connection lost or reconnecting on a loaded
    /// machine): then `send` is tried again, until a deadline.
    private func isAllOnLoop(_ running: RunningServer, count: Int, _ send: () throws -> Void) throws -> Bool {
        try eventually(.seconds(60)) {
            let before = running.server.statistics
            try send()
            // The counters are published once per batch of the loop's events: wait until all are counted.
            func counted(_ statistics: Server.Statistics) -> Int {
                statistics.keptStatusOnLoop + statistics.keptStatusToPool
            }
            #expect(eventually { counted(running.server.statistics) >= counted(before) + count })
            return running.server.statistics.keptStatusToPool == before.keptStatusToPool
        }
    }

    /// A server's log lines, kept.
    private final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
        var logger: Logger {
            Logger(level: .info, clock: { Date() }) { [self] line in lines.withLock { $0.append(line) } }
        }
        var all: [String] { lines.withLock { $0 } }
    }

    /// `serverWithProject`, its log kept, and another daemon's presence on its database (`anotherPresence`).
    private func serverNotAlone() throws -> (RunningServer, LineClient, LogLines, Presence) {
        let log = LogLines()
        let (running, owner) = try serverWithProject(logger: log.logger)
        return (running, owner, log, try anotherPresence(running))
    }

    /// A database and a server on it with project `app` and one screen.
    private func serverWithProject(logger: Logger = Logger(level: .error, clock: { Date() }) { _ in }) throws
        -> (RunningServer, LineClient)
    {
        let running = try RunningServer.withDatabase(logger: logger)
        let owner = try running.owner()
        #expect(try reply(owner, "PROJECT CREATE app").last == "OK count=1")
        #expect(try reply(owner, "SCREEN ADD app Inbox path=Sources/Inbox/**").last?.hasPrefix("OK") == true)
        return (running, owner)
    }

    /// The backends of the loop's lookup connection in the server's database.
    private func lookupBackends(_ running: RunningServer) throws -> [Int32] {
        try backends(running, named: PostgresConfiguration.daemonApplicationName(.status))
    }

    /// The backends of the connections named `name` (`application_name`, before its instance's suffix) in the
    /// server's database.
    private func backends(_ running: RunningServer, named name: String) throws -> [Int32] {
        let database = try administration(running)
        defer { database.close() }
        return try database.query(
            "SELECT pid FROM pg_stat_activity WHERE split_part(application_name, '/', 1) = $1 AND datname = current_database()",
            [name]
        ).map { try $0.decode(at: 0, as: Int32.self) }
    }

    /// A connection of the test's own to the server's database: no daemon's (`Presence.otherBackends`).
    private func administration(_ running: RunningServer) throws -> PostgresConnection {
        try PostgresConnection(configuration: try #require(running.database).with(applicationName: "barkeep-test"))
    }

    /// Another daemon's presence on the server's database, taken now (the server leaves sole mode before it is):
    /// every STATUS is then checked by a lookup again. Stop it when done.
    private func anotherPresence(_ running: RunningServer) throws -> Presence {
        let presence = Presence(
            configuration: try #require(running.database), logger: Logger(level: .error, clock: { Date() }) { _ in })
        try presence.start(timeout: .seconds(30))
        #expect(running.server.presence?.isSole == false)
        return presence
    }

    /// A reader token's connection to `running`, and its secret.
    private func reader(_ running: RunningServer, _ owner: LineClient, named name: String) throws -> LineClient {
        let created = try #require(try reply(owner, "TOKEN CREATE \(name) role=reader").first)
        let secret = try #require(try Record(parsing: created)["token"])
        return try running.tcp(token: secret)
    }

    /// The server's STATS record.
    private func stats(_ client: LineClient) throws -> Record {
        try Record(parsing: try #require(try reply(client, "STATS").first))
    }

    @Test("docs/operations.md states the lookup's sharing and backoff as the code has them")
    func documentedBounds() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        typealias Lookup = StatusVersionLookup<Int>
        #expect(text.contains("| one in flight on the event loop's own database connection, for every project"))
        let backoff = [Lookup.minimumBackoff, Lookup.maximumBackoff].map { String(format: "%g", $0.seconds) }
        #expect(text.contains("(after \(backoff[0]) s, doubling up to \(backoff[1]) s)"))
        let deadline = String(format: "%g", Lookup.deadline.seconds)
        #expect(text.contains("for every project and token waiting, answered within \(deadline) s"))
        #expect(text.contains("a lookup unanswered after\n\(deadline) s"))
        // Sole mode's bounds: the joiner's retry, the loss timeout, a write's wait for a lost presence.
        #expect(text.contains("A daemon not in sole mode tries again every second"))
        #expect(Presence.retryInterval == .seconds(1))
        #expect(text.contains("within about \(Presence.lossTimeoutSeconds) s"))
        #expect(text.contains("connection gives up after \(Presence.lossTimeoutSeconds) s of silence"))
        #expect(text.contains("a write waits up to \(String(format: "%g", Presence.writeWait.seconds)) s"))
    }

    @Test("a kept reply is sent after a lookup on the loop, equal to the reply made from the status")
    func keptReplyOnLoop() throws {
        let (running, owner) = try serverWithProject()
        let made = try reply(owner, "STATUS app")
        #expect(made.last?.hasPrefix("OK count=") == true)
        #expect(running.server.statistics.keptStatusOnLoop == 0)
        #expect(try isAnsweredOnLoop(running, owner, made: made))
        // Twenty in a row on the loop, none to the pool.
        let isBatchOnLoop = try isAllOnLoop(running, count: 20) {
            for _ in 0..<20 where try reply(owner, "STATUS app") != made {
                Issue.record("STATUS answered otherwise")
            }
        }
        #expect(isBatchOnLoop)
        // STATS shows both counters.
        let stats = try #require(try reply(owner, "STATS").first)
        #expect(stats.contains(" status-kept-loop=") && stats.contains(" status-kept-pool="))
    }

    @Test("STATUS answers while the lookup connection is killed, then the loop path recovers; the log says both")
    func lookupConnectionKilled() throws {
        // Not alone: every STATUS is checked by a lookup (sole mode would answer it from memory, lookup or not).
        let (running, owner, log, other) = try serverNotAlone()
        defer { other.stop() }
        let made = try reply(owner, "STATUS app")
        #expect(try eventually { try reply(owner, "STATUS app") == made && !lookupBackends(running).isEmpty })
        let administrator = try administration(running)
        defer { administrator.close() }
        let pooled = running.server.statistics.keptStatusToPool
        // Killed before every request, the lookup cannot answer: each STATUS still gets the right reply, by the pool.
        let isFallenBack = try eventually {
            for pid in try lookupBackends(running) {
                try administrator.query("SELECT pg_terminate_backend($1)", [pid])
            }
            if try reply(owner, "STATUS app") != made { Issue.record("STATUS answered otherwise") }
            return running.server.statistics.keptStatusToPool > pooled
        }
        #expect(isFallenBack)
        let killed = Set(try lookupBackends(running))
        // Left alone, it connects again (a new backend) and answers on the loop again.
        let onLoop = running.server.statistics.keptStatusOnLoop
        let isRecovered = try eventually {
            if try reply(owner, "STATUS app") != made { Issue.record("STATUS answered otherwise") }
            return running.server.statistics.keptStatusOnLoop > onLoop
        }
        #expect(isRecovered)
        #expect(try !lookupBackends(running).isEmpty && Set(lookupBackends(running)).isDisjoint(with: killed))
        // Told once when lost (not at every failed attempt meanwhile), and once when back.
        let told = log.all.filter { $0.contains("status lookup connection") }
        #expect(told.first?.contains("level=warning msg=\"status lookup connection lost") == true, "\(told)")
        #expect(told.last?.contains("msg=\"status lookup connection ready\"") == true, "\(told)")
        #expect(told.count < 20, "\(told)")
    }

    @Test("a write through a second server is in the first server's next STATUS, answered on the loop before")
    func writeThroughAnotherServer() throws {
        let (first, owner) = try serverWithProject()
        let second = try RunningServer(commands: .standard, database: first.database)
        let other = try second.owner()
        let before = try reply(owner, "STATUS app")
        #expect(try isAnsweredOnLoop(first, owner, made: before))
        #expect(try reply(other, "SCREEN ADD app Settings path=Sources/Settings/**").last?.hasPrefix("OK") == true)
        let after = try reply(owner, "STATUS app")
        // One more screen row.
        #expect(after.count == before.count + 1)
        #expect(try reply(other, "STATUS app") == after)
    }

    @Test("a token revoked after its STATUS was answered on the loop gets NOAUTH")
    func revokedToken() throws {
        let (running, owner) = try serverWithProject()
        let created = try #require(try reply(owner, "TOKEN CREATE dash role=reader").first)
        let secret = try #require(try Record(parsing: created)["token"])
        let dashboard = try running.tcp(token: secret)
        let made = try reply(dashboard, "STATUS app")
        #expect(made.last?.hasPrefix("OK count=") == true)
        #expect(try isAnsweredOnLoop(running, dashboard, made: made))
        #expect(try owner.request("TOKEN REVOKE dash") == "OK revoked=dash")
        #expect(try reply(dashboard, "STATUS app") == ["ERR NOAUTH the token of this connection was revoked"])
        #expect(try reply(dashboard, "STATUS app").last?.hasPrefix("ERR NOAUTH STATUS needs a token") == true)
    }

    @Test("clients asking at once share lookups, yet every STATUS sent after a revocation committed is refused")
    func revokedWhileManyAsk() throws {
        let (running, owner) = try serverWithProject()
        let created = try #require(try reply(owner, "TOKEN CREATE dash role=reader").first)
        let secret = try #require(try Record(parsing: created)["token"])
        let clients = try (0..<8).map { _ in try running.tcp(token: secret) }
        let made = try reply(clients[0], "STATUS app")
        #expect(try isAnsweredOnLoop(running, clients[0], made: made))
        // Each client asks in a loop; what it was answered to a request sent after the revocation's reply came, when
        // not refused, is a STATUS answered by a lookup that ran before the request arrived.
        let state = Mutex((isRevoked: false, late: [[String]](), finished: 0))
        for client in clients {
            Thread {
                defer { state.withLock { $0.finished += 1 } }
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline {
                    let isSentAfter = state.withLock { $0.isRevoked }
                    guard let answer = try? reply(client, "STATUS app") else { return }
                    if answer.first?.hasPrefix("ERR NOAUTH") == true { return }
                    if isSentAfter { state.withLock { $0.late.append(answer) } }
                }
            }.start()
        }
        let onLoop = running.server.statistics.keptStatusOnLoop
        #expect(eventually { running.server.statistics.keptStatusOnLoop > onLoop + 200 })
        #expect(try owner.request("TOKEN REVOKE dash") == "OK revoked=dash")
        state.withLock { $0.isRevoked = true }
        #expect(eventually(.seconds(90)) { state.withLock { $0.finished } == clients.count })
        #expect(state.withLock { $0.late }.isEmpty)
    }

    @Test("STATUS requests pipelined together are answered on the loop, each the kept reply")
    func pipelinedOnLoop() throws {
        let (running, owner) = try serverWithProject()
        let made = try reply(owner, "STATUS app")
        #expect(try isAnsweredOnLoop(running, owner, made: made))
        // Fifty in one write share the lookup sent after they arrived: all on the loop, none to the pool.
        let isBatchOnLoop = try isAllOnLoop(running, count: 50) {
            for answer in try pipelined(owner, Array(repeating: "STATUS app", count: 50)) where answer != made {
                Issue.record("STATUS answered otherwise: \(answer)")
            }
        }
        #expect(isBatchOnLoop)
    }

    @Test(
        "a write pipelined between STATUS requests is in the STATUS after it, though a lookup answered the ones before")
    func pipelinedWriteIsRead() throws {
        let (running, owner) = try serverWithProject()
        let before = try reply(owner, "STATUS app")
        #expect(try isAnsweredOnLoop(running, owner, made: before))
        // The lookup sent for the first two came after every request of the write had arrived, so it would hold for
        // the last one too, but for the write between them: the last STATUS must read what it wrote.
        let answers = try pipelined(
            owner, ["STATUS app", "STATUS app", "SCREEN ADD app Settings path=Sources/Settings/**", "STATUS app"])
        #expect(answers[0] == before && answers[1] == before)
        #expect(answers[2].last?.hasPrefix("OK") == true)
        #expect(answers[3].count == before.count + 1)
        #expect(try reply(owner, "STATUS app") == answers[3])
    }

    // MARK: - Sole mode

    /// A scan of one finding (number 1 in a new project).
    private static let scan = Array(
        """
        {"tool": "duo_scan", "version": "1.2.2", "findings": [
          {"rule": "DUO007", "severity": "medium", "file": "Sources/MenuView.swift", "line": 9,
           "snippet": "let bar = UIToolbar()", "message": "A standalone bar."}
        ]}
        """.utf8)

    /// Whether `running` serves its database alone, soon.
    private func becomesSole(_ running: RunningServer) -> Bool {
        eventually(.seconds(30)) { running.server.presence?.isSole == true }
    }

    @Test("alone on its database, a reader's repeated STATUS takes no lookup; a verdict and a revocation show at once")
    func soleModeKeepsChecks() throws {
        let (running, owner) = try serverWithProject()
        try owner.send("INGEST app \(Self.scan.count) format=duo-scan\n")
        try owner.send(Self.scan)
        #expect(try readReply(owner).last?.hasPrefix("OK") == true)
        #expect(becomesSole(running))
        #expect(try stats(owner)["sole"] == "yes")
        #expect(try stats(owner)["sole-since"] != nil)
        let dashboard = try reader(running, owner, named: "dash")
        let made = try reply(dashboard, "STATUS app")
        #expect(made.last?.hasPrefix("OK count=") == true)
        #expect(try isAnsweredOnLoop(running, dashboard, made: made))
        // A hundred more, one after another and pipelined: none sends a lookup, none goes to the pool.
        let lookups = running.server.statistics.statusLookups
        let isBatchOnLoop = try isAllOnLoop(running, count: 100) {
            for _ in 0..<50 where try reply(dashboard, "STATUS app") != made {
                Issue.record("STATUS answered otherwise")
            }
            for answer in try pipelined(dashboard, Array(repeating: "STATUS app", count: 50)) where answer != made {
                Issue.record("STATUS answered otherwise: \(answer)")
            }
        }
        #expect(isBatchOnLoop)
        #expect(running.server.presence?.isSole == true)
        #expect(running.server.statistics.statusLookups == lookups)
        // A verdict through this daemon (the group commit's path): the next STATUS reads it.
        #expect(try reply(owner, "FINDING SET app 1 approved reason=seen").last?.hasPrefix("OK") == true)
        let after = try reply(dashboard, "STATUS app")
        #expect(after != made && after.last?.hasPrefix("OK count=") == true)
        #expect(try reply(owner, "STATUS app") == after)
        // A revocation through this daemon: the next STATUS is refused.
        #expect(try owner.request("TOKEN REVOKE dash") == "OK revoked=dash")
        #expect(try reply(dashboard, "STATUS app") == ["ERR NOAUTH the token of this connection was revoked"])
    }

    @Test("a STATUS line's kept reply: a write pipelined before it, a revocation and a daemon joining show at once")
    func keptLine() throws {
        let (running, owner) = try serverWithProject()
        #expect(becomesSole(running))
        let dashboard = try reader(running, owner, named: "dash")
        let made = try reply(dashboard, "STATUS app")
        #expect(try isAnsweredOnLoop(running, dashboard, made: made))
        // Kept for the owner's line too; then a write pipelined between two of its STATUS: the second reads it.
        let own = try reply(owner, "STATUS app")
        #expect(try isAnsweredOnLoop(running, owner, made: own))
        for answer in try pipelined(owner, Array(repeating: "STATUS app", count: 20)) where answer != own {
            Issue.record("STATUS answered otherwise: \(answer)")
        }
        let written = try pipelined(
            owner, ["STATUS app", "SCREEN ADD app Settings path=Sources/Settings/**", "STATUS app"])
        #expect(written[0] == own)
        #expect(written[1].last?.hasPrefix("OK") == true)
        #expect(written[2].count == own.count + 1)
        // The reader's kept line, after a write on another connection: the next STATUS reads it, and is kept anew.
        let after = try reply(dashboard, "STATUS app")
        #expect(after == written[2])
        // One more first: the lookup that answered the one before is counted by the time this is answered.
        #expect(try reply(dashboard, "STATUS app") == after)
        let lookups = running.server.statistics.statusLookups
        for answer in try pipelined(dashboard, Array(repeating: "STATUS app", count: 50)) where answer != after {
            Issue.record("STATUS answered otherwise: \(answer)")
        }
        #expect(running.server.statistics.statusLookups == lookups)
        // A revocation: refused at once, though its line's reply was kept.
        #expect(try owner.request("TOKEN REVOKE dash") == "OK revoked=dash")
        #expect(try reply(dashboard, "STATUS app") == ["ERR NOAUTH the token of this connection was revoked"])
        // Another daemon joining: the owner's kept line no longer holds; each STATUS is looked up again.
        let again = try reply(owner, "STATUS app")
        #expect(try reply(owner, "STATUS app") == again)
        let other = try anotherPresence(running)
        defer { other.stop() }
        let before = running.server.statistics.statusLookups
        #expect(try reply(owner, "STATUS app") == again)
        #expect(eventually { running.server.statistics.statusLookups > before })
    }

    @Test("HELLO and CHECK on other connections neither void a sole daemon's kept checks nor move its generation")
    func readsKeepChecks() throws {
        let (running, owner) = try serverWithProject()
        #expect(becomesSole(running))
        let presence = try #require(running.server.presence)
        let dashboard = try reader(running, owner, named: "dash")
        let created = try #require(try reply(owner, "TOKEN CREATE cli role=reader").first)
        let secret = try #require(try Record(parsing: created)["token"])
        let made = try reply(dashboard, "STATUS app")
        #expect(try isAnsweredOnLoop(running, dashboard, made: made))
        let generation = presence.generation
        let lookups = try stats(owner)["status-lookups"]
        #expect(lookups != nil)
        // What a CLI command does: a new connection, its HELLO (the token's last use recorded), a CHECK.
        for _ in 0..<3 {
            let client = try running.tcp(token: secret)
            try client.send("CHECK app \(Self.scan.count) format=duo-scan\n")
            try client.send(Self.scan)
            #expect(try readReply(client).last?.hasPrefix("OK") == true)
        }
        #expect(presence.generation == generation)
        #expect(try reply(dashboard, "STATUS app") == made)
        #expect(try stats(owner)["status-lookups"] == lookups)
        // A write does void them: the next STATUS is looked up again.
        #expect(try reply(owner, "SCREEN ADD app Settings path=Sources/Settings/**").last?.hasPrefix("OK") == true)
        #expect(presence.generation != generation)
        #expect(try reply(dashboard, "STATUS app").count == made.count + 1)
        #expect(try stats(owner)["status-lookups"] != lookups)
    }

    @Test("a backend of another daemon (one leaving, killed, or older than the lock) keeps a daemon out of sole mode")
    func otherDaemonsBackend() throws {
        let log = LogLines()
        let configuration = try TestDatabase.makeDatabase()
        let migrating = try PostgresConnection(configuration: configuration.with(applicationName: "barkeep-test"))
        try Migrator().migrate(migrating)
        migrating.close()
        // A daemon's connection without this server's instance: another daemon's, holding no presence lock.
        var other: PostgresConnection? = try PostgresConnection(
            configuration: configuration.with(applicationName: PostgresConfiguration.daemonApplicationPrefix))
        let running = try RunningServer(commands: .standard, database: configuration, logger: log.logger)
        let presence = try #require(running.server.presence)
        let told = "not serving the database alone while another daemon's connections are on it"
        #expect(eventually(.seconds(30)) { log.all.contains { $0.contains(told) } })
        #expect(holds(for: .milliseconds(1500)) { !presence.isSole })
        other?.close()
        other = nil
        #expect(becomesSole(running))
    }

    @Test("a daemon joining ends the first one's sole mode before it serves; when it leaves, the first is alone again")
    func handover() throws {
        let (first, owner) = try serverWithProject()
        #expect(becomesSole(first))
        let dashboard = try reader(first, owner, named: "dash")
        let before = try reply(dashboard, "STATUS app")
        #expect(try isAnsweredOnLoop(first, dashboard, made: before))
        var second: RunningServer? = try RunningServer(commands: .standard, database: first.database)
        // Its start returned: the first no longer serves alone (nor does the second).
        #expect(first.server.presence?.isSole == false)
        #expect(second?.server.presence?.isSole == false)
        let other = try #require(try second?.owner())
        #expect(try reply(other, "SCREEN ADD app Settings path=Sources/Settings/**").last?.hasPrefix("OK") == true)
        let after = try reply(dashboard, "STATUS app")
        #expect(after.count == before.count + 1)
        #expect(try other.request("TOKEN REVOKE dash") == "OK revoked=dash")
        #expect(try reply(dashboard, "STATUS app") == ["ERR NOAUTH the token of this connection was revoked"])
        // Neither takes sole mode while both serve.
        #expect(holds(for: .milliseconds(2500)) { first.server.presence?.isSole == false })
        second = nil
        #expect(becomesSole(first))
        // Alone again, and still right: a write and a revocation through it show at once.
        let again = try reader(first, owner, named: "again")
        let current = try reply(again, "STATUS app")
        #expect(current == after)
        #expect(try isAnsweredOnLoop(first, again, made: current))
        #expect(try reply(owner, "SCREEN ADD app Search path=Sources/Search/**").last?.hasPrefix("OK") == true)
        #expect(try reply(again, "STATUS app").count == current.count + 1)
        #expect(try owner.request("TOKEN REVOKE again") == "OK revoked=again")
        #expect(try reply(again, "STATUS app") == ["ERR NOAUTH the token of this connection was revoked"])
    }

    @Test("a presence connection killed ends sole mode at once; it comes back, and sole mode with it")
    func presenceConnectionKilled() throws {
        let log = LogLines()
        let (running, owner) = try serverWithProject(logger: log.logger)
        #expect(becomesSole(running))
        let presence = try #require(running.server.presence)
        let epoch = presence.epoch
        let killed = try backends(running, named: Presence.applicationName)
        #expect(killed.count == 1)
        let administrator = try administration(running)
        defer { administrator.close() }
        for pid in killed { try administrator.query("SELECT pg_terminate_backend($1)", [pid]) }
        // Left at once (the epoch moved on), back later on a new backend, and alone again.
        #expect(eventually { presence.epoch != epoch })
        #expect(eventually(.seconds(30)) { presence.isSole && presence.epoch != epoch })
        let now = try backends(running, named: Presence.applicationName)
        #expect(now.count == 1 && Set(now).isDisjoint(with: killed))
        let told = log.all.filter { $0.contains("presence") }
        #expect(told.contains { $0.contains("level=warning msg=\"presence connection lost") }, "\(told)")
        #expect(told.contains { $0.contains("msg=\"presence on the database back\"") }, "\(told)")
        // Still right.
        let made = try reply(owner, "STATUS app")
        #expect(try reply(owner, "SCREEN ADD app Settings path=Sources/Settings/**").last?.hasPrefix("OK") == true)
        #expect(try reply(owner, "STATUS app").count == made.count + 1)
    }

    @Test("a lookup stalled past its deadline sends its STATUS to the pool; the loop answers the others meanwhile")
    func stalledLookup() throws {
        let (running, owner, log, other) = try serverNotAlone()
        defer { other.stop() }
        let made = try reply(owner, "STATUS app")
        #expect(try isAnsweredOnLoop(running, owner, made: made))
        // The lookup's backend stopped: its statement never ends, and its socket stays open.
        let stalled = try lookupBackends(running)
        #expect(stalled.count == 1)
        for pid in stalled { kill(pid_t(pid), SIGSTOP) }
        defer { for pid in stalled { kill(pid_t(pid), SIGCONT) } }
        let pooled = running.server.statistics.keptStatusToPool
        let started = ContinuousClock.now
        try owner.send("STATUS app\n")
        // The loop answers another connection at once meanwhile.
        let pinger = try running.owner()
        #expect(try pinger.request("PING") == "OK PONG")
        #expect(ContinuousClock.now - started < StatusVersionLookup<Int>.deadline)
        #expect(try readReply(owner) == made)
        let waited = ContinuousClock.now - started
        #expect(waited >= StatusVersionLookup<Int>.deadline - .milliseconds(100))
        #expect(waited < StatusVersionLookup<Int>.deadline + .seconds(3), "\(waited)")
        #expect(eventually { running.server.statistics.keptStatusToPool > pooled })
        #expect(log.all.contains { $0.contains("took longer than its deadline") })
        // A new lookup connection answers on the loop again.
        let onLoop = running.server.statistics.keptStatusOnLoop
        #expect(
            try eventually {
                if try reply(owner, "STATUS app") != made { Issue.record("STATUS answered otherwise") }
                return running.server.statistics.keptStatusOnLoop > onLoop
            })
        // The stopped backend stays until it runs again; the new one is another.
        #expect(try !Set(lookupBackends(running)).subtracting(stalled).isEmpty)
    }
}
