import BarkeepCore
import BarkeepHashing
import BarkeepProtocol
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Synchronization
import Testing

@testable import BarkeepServer

#if canImport(Glibc)
    import Glibc
#endif

/// Commands that exist only in tests, to reach the error codes and paths no command of this release reaches by
/// itself: an upload, a command that holds a database worker, one that fails unexpectedly.
private let testCommands = CommandTable.standard.adding([
    Command("UPLOAD", positional: 2...2, minimumRole: .writer, takesPayload: true) { input in
        let name = input.argument(0)
        let size = input.payload?.count ?? -1
        return .database { connection in
            try connection.query("CREATE TABLE IF NOT EXISTS uploads (name text, size int)")
            try connection.query("INSERT INTO uploads VALUES ($1, $2)", [name, size])
            return CommandResult(.ok(["stored": String(size)]))
        }
    },
    Command("SLEEP", positional: 1...1, minimumRole: nil) { input in
        let seconds = input.argument(0)
        return .database { connection in
            try connection.query("SELECT pg_sleep($1::float8)", [seconds])
            return CommandResult(.ok("SLEPT"))
        }
    },
    Command("BREAK", minimumRole: nil) { _ in
        .database { connection in
            try connection.query("SELECT 1/0")
            return CommandResult(.ok("unreachable"))
        }
    },
])

@Suite("Protocol over a real database")
struct ProtocolTests {
    // MARK: - Every error code

    /// A request and the reply it must get, sent by the daemon's owner on the Unix socket after a project `app`
    /// exists.
    @Test(
        "each error code is reached, and the connection stays usable after it",
        arguments: [
            ("BADLINE", "PROJECT SHOW \"unclosed", "ERR BADLINE"),
            ("BADLINE", "PROJECT SHOW a\\b", "ERR BADLINE"),
            ("TOOLONG", "PROJECT SHOW " + String(repeating: "x", count: 5000), "ERR TOOLONG"),
            ("UNKNOWN", "FROBNICATE", "ERR UNKNOWN unknown command 'FROBNICATE'"),
            ("UNKNOWN", "PROJECT FROB", "ERR UNKNOWN unknown command 'PROJECT FROB'"),
            ("BADARG", "PROJECT SHOW", "ERR BADARG PROJECT SHOW takes 1 argument, got 0"),
            ("BADARG", "PROJECT CREATE x colour=red", "ERR BADARG PROJECT CREATE takes no key 'colour'"),
            ("BADARG", "PROJECT CREATE x sdk=27.0 sdk=27.1", "ERR BADARG key 'sdk' given twice"),
            ("BADARG", "PROJECT CREATE x sdk=banana", "ERR BADARG sdk must be a version"),
            ("BADARG", "SCREEN ADD app Inbox path=a title=x title=y", "ERR BADARG key 'title' given twice"),
            ("BADARG", "SCREEN ADD app Inbox title=x", "ERR BADARG SCREEN ADD needs path=…"),
            ("BADARG", "SCREEN ADD app unmapped path=a", "ERR BADARG a screen key is"),
            ("BADARG", "SCREEN ADD app Inbox path=a,b", "ERR BADARG path must be a path glob"),
            ("BADARG", "STEP SET app Inbox 1 finished", "ERR BADARG a step state is todo, done, not_applicable"),
            ("BADARG", "ITEM ADD app screen=Inbox step=13 title=x", "ERR BADARG unknown checklist step '13'"),
            (
                "BADARG", "ITEM ADD app screen=Inbox step=1 title=x needs=\"a b\"",
                "ERR BADARG needs must be an SDK symbol"
            ),
            ("BADARG", "POSE RECORD app Inbox P1 great", "ERR BADARG a pose result is passed, failed, not_run"),
            ("BADARG", "PROJECT SET app poses=P1,P99", "ERR BADARG unknown pose 'P99': poses are P1 to P16"),
            ("NOTFOUND", "SCREEN SHOW app Ghost", "ERR NOTFOUND no screen 'Ghost' in project 'app'"),
            ("BADARG", "PROJECT CREATE \"has space\"", "ERR BADARG a project name is"),
            ("BADARG", "TOKEN CREATE ci", "ERR BADARG TOKEN CREATE needs role=…"),
            ("BADARG", "WATCH app since=-1", "ERR BADARG since must be"),
            ("BADARG", "WATCH app kinds=finding.status,finding.bogus", "ERR BADARG unknown event kind 'finding.bogus'"),
            ("BADARG", "WATCH app finding=0", "ERR BADARG a finding is named by its number"),
            ("NOTFOUND", "WATCH app screen=Ghost", "ERR NOTFOUND no screen 'Ghost' in project 'app'"),
            // The finding and scan commands declared by their specs keep their words (issue 26).
            ("BADARG", "RUNS app limit=0", "ERR BADARG limit must be a number from 1 to 1000000"),
            ("BADARG", "RUN SHOW app x", "ERR BADARG a run is named by its number in the project: 1 to 2147483647"),
            ("BADARG", "FINDING COMMENT app 1 \"  \"", "ERR BADARG a comment needs some text"),
            ("BADARG", "FINDING SET app 1 bogus", "ERR BADARG status must be one of approved, applied"),
            ("BADARG", "FINDING SET app 1 declined", "ERR BADARG declined needs reason=…"),
            ("BADARG", "FINDING SET app 1,,2 approved", "ERR BADARG a finding is named by its number in the project"),
            ("BADARG", "FINDING SET app 1 approved dry-run=maybe", "ERR BADARG dry-run must be yes or no"),
            ("BADARG", "FINDING SET app approved", "ERR BADARG give PROJECT N[,N…] VALUE, or PROJECT VALUE where=yes"),
            ("BADARG", "FINDING SET app 1 approved where=yes", "ERR BADARG with where=yes the findings are chosen by"),
            ("BADARG", "FINDING ASSIGN app 1 ana rule=DUO003", "ERR BADARG rule= chooses findings only with where=yes"),
            ("BADARG", "FINDING ASSIGN app ana where=maybe", "ERR BADARG where must be yes or no"),
            ("BADARG", "FINDING ASSIGN app 1 \"a b\"", "ERR BADARG 'a b' is not a name to assign"),
            ("BADARG", "HELLO protocol=1", "ERR BADARG protocol '1' is not supported"),
            ("BADARG", "HELLO protocol=4", "ERR BADARG protocol '4' is not supported; this server speaks 2 and 3"),
            ("BADARG", "HELLO protocol=03", "ERR BADARG protocol '03' is not supported"),
            ("NOAUTH", "HELLO token=bk_nope", "ERR NOAUTH invalid or revoked token"),
            ("NOTFOUND", "PROJECT SHOW ghost", "ERR NOTFOUND no project named 'ghost'"),
            ("NOTFOUND", "TOKEN REVOKE ghost", "ERR NOTFOUND no active token named 'ghost'"),
            ("CONFLICT", "PROJECT CREATE app", "ERR CONFLICT a project named 'app' already exists"),
            ("INTERNAL", "BREAK", "ERR INTERNAL internal error; see the server log"),
        ]
    )
    func errorCodes(code: String, request: String, expectedPrefix: String) throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        let client = try running.owner()
        #expect(try client.request("PROJECT CREATE app")?.hasPrefix("* name=app") == true)
        #expect(try client.readLine() == "OK count=1")

        let reply = try #require(try client.request(request))
        #expect(reply.hasPrefix(expectedPrefix), "\(code): got \(reply)")
        #expect(reply.hasPrefix("ERR \(code) "))
        #expect(try client.request("PING") == "OK PONG")
    }

    @Test("NOAUTH and FORBIDDEN: roles on TCP")
    func rolesOnTCP() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        let reader = try #require(try createToken(owner, name: "dana", role: "reader"))

        // No token on TCP: only HELLO, PING and QUIT.
        let anonymous = try running.tcp()
        #expect(try anonymous.request("PING") == "OK PONG")
        #expect(
            try anonymous.request("PROJECT LIST") == "ERR NOAUTH PROJECT LIST needs a token: send HELLO token=… first")
        #expect(try anonymous.request("STATS")?.hasPrefix("ERR NOAUTH") == true)

        // A reader reads but does not write.
        let client = try running.tcp()
        #expect(
            try client.request("HELLO token=\(reader)")
                == "OK protocol=\(ProtocolVersion.assumed) server=test version=\(BarkeepVersion.current) role=reader "
                + "max-upload=\(1 << 20)")
        #expect(try client.request("PROJECT LIST") == "OK count=0")
        #expect(try client.request("PROJECT CREATE app") == "ERR FORBIDDEN PROJECT CREATE needs the admin role")
        #expect(try client.request("TOKEN LIST") == "ERR FORBIDDEN TOKEN LIST needs the admin role")
    }

    @Test("HOOK PAUSE: an admin pauses a hook by hand, with its reason; again changes nothing; RESUME undoes it")
    func hookPause() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        #expect(try owner.request("PROJECT CREATE app")?.hasPrefix("*") == true)
        _ = try owner.readLine()
        #expect(try owner.request("HOOK ADD app http://127.0.0.1:9/x")?.hasPrefix("* type=hook id=1 ") == true)
        _ = try owner.readLine()
        func reply(_ line: String) throws -> (Record, String?) {
            let record = try Record(parsing: try #require(try owner.request(line)))
            return (record, try owner.readLine())
        }
        let (paused, final) = try reply("HOOK PAUSE 1")
        #expect(final == "OK count=1")
        let reason = try #require(paused["paused"])
        #expect(paused["state"] == "paused" && reason.hasPrefix("by ") && paused["holder"] == nil)
        let (again, _) = try reply("HOOK PAUSE 1")
        #expect(again["paused"] == reason)
        #expect(try owner.request("HOOK PAUSE x") == "ERR BADARG a hook id is a number")
        #expect(try owner.request("HOOK PAUSE 9") == "ERR NOTFOUND no hook 9")
        #expect(try owner.request("HOOK PAUSE") == "ERR BADARG HOOK PAUSE takes 1 argument, got 0")
        let reader = try #require(try createToken(owner, name: "dana", role: "writer"))
        let writer = try running.tcp(token: reader)
        #expect(try writer.request("HOOK PAUSE 1") == "ERR FORBIDDEN HOOK PAUSE needs the admin role")
        let (resumed, _) = try reply("HOOK RESUME 1")
        #expect(resumed["state"] == "active" && resumed["paused"] == nil)
    }

    @Test("a revoked token is refused at HELLO, and an authenticated connection loses its role at once")
    func revokedToken() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        let writer = try #require(try createToken(owner, name: "ci", role: "writer"))
        let client = try running.tcp(token: writer)
        #expect(try client.request("PROJECT LIST") == "OK count=0")
        // STATUS checks the token in its own first statement, kept reply or not.
        #expect(try owner.request("PROJECT CREATE app")?.hasPrefix("* name=app") == true)
        #expect(try owner.readLine() == "OK count=1")
        let dashboard = try running.tcp(token: writer)
        func finalLine(_ request: String) throws -> String? {
            try dashboard.send(request + "\n")
            while let line = try dashboard.readLine() { if !line.hasPrefix("* ") { return line } }
            return nil
        }
        #expect(try finalLine("STATUS app")?.hasPrefix("OK count=") == true)
        #expect(try finalLine("STATUS app")?.hasPrefix("OK count=") == true)

        #expect(try owner.request("TOKEN REVOKE ci") == "OK revoked=ci")

        #expect(try finalLine("STATUS app") == "ERR NOAUTH the token of this connection was revoked")
        #expect(try finalLine("STATUS app")?.hasPrefix("ERR NOAUTH STATUS needs a token") == true)
        #expect(try client.request("PROJECT LIST") == "ERR NOAUTH the token of this connection was revoked")
        #expect(try client.request("PROJECT LIST")?.hasPrefix("ERR NOAUTH PROJECT LIST needs a token") == true)
        #expect(try running.tcp().request("HELLO token=\(writer)") == "ERR NOAUTH invalid or revoked token")
        // A new token may take the revoked one's name.
        #expect(try createToken(owner, name: "ci", role: "reader") != nil)
    }

    @Test("no token is stored in clear: only its SHA-256")
    func tokensAreHashed() throws {
        let running = try RunningServer.withDatabase()
        let secret = try #require(try createToken(running.owner(), name: "ci", role: "admin"))
        #expect(TokenSecret.isWellFormed(secret))
        let database = try PostgresConnection(configuration: try #require(running.database))
        let rows = try database.query("SELECT t::text AS whole, hash FROM tokens t")
        #expect(rows.count == 1)
        #expect(try rows[0].decode("hash", as: String.self) == SHA256Digest.hex(of: secret.utf8))
        let whole = try rows[0].decode("whole", as: String.self)
        #expect(!whole.contains(secret))
        #expect(!whole.contains(String(secret.dropFirst(3))))
        // Nor in the event log.
        let events = try database.query("SELECT e::text AS whole FROM events e").map {
            try $0.decode("whole", as: String.self)
        }
        #expect(events.allSatisfy { !$0.contains(secret) })
    }

    // MARK: - Uploads

    @Test("an upload is read exactly, and the request after it is intact")
    func upload() throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        let client = try running.owner()
        let payload = [UInt8]("line one\nPING\n\u{0}\u{ff}".utf8) + [0xff, 0xfe]
        try client.send("UPLOAD scan \(payload.count)\n")
        try client.send(payload)
        try client.send("PING\n")
        #expect(try client.readLine() == "OK stored=\(payload.count)")
        #expect(try client.readLine() == "OK PONG")
    }

    @Test("an upload over the limit is refused, its payload read and discarded, and the connection stays in step")
    func oversizedUpload() throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        let client = try running.owner()
        let size = (1 << 20) + 1
        try client.send("UPLOAD big \(size)\n")
        try client.send([UInt8](repeating: UInt8(ascii: "\n"), count: size))
        try client.send("PING\n")
        #expect(try client.readLine() == "ERR TOOLONG payload of \(size) bytes is over the limit of \(1 << 20)")
        #expect(try client.readLine() == "OK PONG")
    }

    @Test("a refused upload's payload is skipped, and a bad size closes the connection")
    func refusedUploads() throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        // TCP without a token: NOAUTH, and the 10 bytes after the line are skipped, not read as requests.
        let anonymous = try running.tcp()
        try anonymous.send("UPLOAD scan 10\nQUIT\nQUIT\nPING\n")
        #expect(try anonymous.readLine()?.hasPrefix("ERR NOAUTH") == true)
        #expect(try anonymous.readLine() == "OK PONG")

        let client = try running.owner()
        #expect(try client.request("UPLOAD scan lots") == "ERR BADARG UPLOAD ends with the payload's size in bytes")
        #expect(client.isClosedByServer())
    }

    @Test("a truncated upload stores nothing and leaves the server healthy")
    func truncatedUpload() throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        let owner = try running.owner()
        try owner.send("UPLOAD whole 3\nabc")
        #expect(try owner.readLine() == "OK stored=3")

        do {
            let client = try running.owner()
            try client.send("UPLOAD partial 1000\n" + String(repeating: "z", count: 400))
        }  // closed here, 600 bytes short
        #expect(eventually(.seconds(10)) { running.server.statistics.connections == 1 })

        let database = try PostgresConnection(configuration: try #require(running.database))
        let names = try database.query("SELECT name FROM uploads ORDER BY name").map {
            try $0.decode("name", as: String.self)
        }
        #expect(names == ["whole"])
        #expect(try running.owner().request("PING") == "OK PONG")
    }

    // MARK: - Pipelining

    @Test("a pipelined burst mixing valid and invalid lines is answered in order, then the connection still works")
    func pipelinedBurst() throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        let client = try running.owner()
        let requests: [(String, String)] = [
            ("PROJECT CREATE app sdk=27.0", "* name=app sdk=27.0"),
            ("", "OK count=1"),
            ("PING now", "ERR BADARG PING takes no arguments, got 1"),
            ("PROJECT SET app sdk=27.1", "* name=app sdk=27.1"),
            ("", "OK count=1"),
            ("\u{1}", "ERR BADLINE"),
            ("PROJECT SHOW app", "* name=app sdk=27.1"),
            ("", "OK count=1"),
            ("NOPE", "ERR UNKNOWN"),
            ("PROJECT CREATE app", "ERR CONFLICT"),
            ("PING", "OK PONG"),
            ("PROJECT DELETE app", "OK deleted=app"),
            ("PROJECT SHOW app", "ERR NOTFOUND"),
        ]
        try client.send(requests.map(\.0).filter { !$0.isEmpty }.joined(separator: "\r\n") + "\r\n")
        for (request, expected) in requests {
            let line = try #require(try client.readLine())
            #expect(line.hasPrefix(expected), "\(request): got \(line)")
        }
        #expect(try client.request("PING") == "OK PONG")
    }

    // MARK: - BUSY and UNAVAILABLE

    @Test("a full database queue answers BUSY, and the connection stays usable")
    func busy() throws {
        let running = try RunningServer.withDatabase(commands: testCommands, poolSize: 1, queueLimit: 0)
        let sleeper = try running.owner()
        let observer = try PostgresConnection(configuration: try #require(running.database))
        // Long enough that a loaded machine still sees it running before it ends.
        try sleeper.send("SLEEP 3\n")
        try waitUntilSleeping(observer)

        let client = try running.owner()
        #expect(try client.request("PROJECT LIST") == "ERR BUSY the server is busy; retry later")
        #expect(try client.request("PING") == "OK PONG")
        #expect(try sleeper.readLine() == "OK SLEPT")
        // The worker frees itself just after the reply goes out: retry briefly, as a client told BUSY would.
        var reply = try client.request("PROJECT LIST")
        let deadline = ContinuousClock.now + .seconds(2)
        while reply?.hasPrefix("ERR BUSY") == true && ContinuousClock.now < deadline {
            usleep(10_000)
            reply = try client.request("PROJECT LIST")
        }
        #expect(reply == "OK count=0")
    }

    @Test("shutdown lets a running command finish and delivers its reply, then closes")
    func gracefulShutdown() throws {
        let running = try RunningServer.withDatabase(commands: testCommands)
        let client = try running.owner()
        let observer = try PostgresConnection(configuration: try #require(running.database))
        // Long enough that a loaded machine still sees it running before it ends, and shuts down before it ends: CI
        // once missed a 0.5 s one, and a run at a load of 10 a 2 s one; the PING behind it then ran before the
        // shutdown.
        try client.send("SLEEP 5\nPING\n")
        try waitUntilSleeping(observer)
        let started = ContinuousClock.now
        running.server.shutdown(grace: .seconds(20))
        // Not the grace: it ended once the command had.
        #expect(ContinuousClock.now - started < .seconds(15))
        // The running command's reply went out; the request behind it was not read any more.
        #expect(try client.readLine() == "OK SLEPT")
        #expect(client.isClosedByServer())
    }

    @Test("an unreachable database answers UNAVAILABLE")
    func unavailable() throws {
        let dead = PostgresConfiguration(conninfo: "host=/nonexistent-barkeep port=1", connectTimeoutSeconds: 1)
        let running = try RunningServer(commands: .standard, database: dead)
        let client = try running.owner()
        #expect(try client.request("PROJECT LIST") == "ERR UNAVAILABLE the database is unavailable; retry later")
        #expect(try client.request("PING") == "OK PONG")
    }

    // MARK: - WATCH

    @Test("WATCH resumed after a disconnect loses and repeats nothing")
    func watchResumes() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        _ = try owner.request("PROJECT CREATE app")
        _ = try owner.readLine()

        var watcher: LineClient? = try running.owner()
        #expect(try watcher?.request("WATCH app since=0") == "OK watching project=app since=0")
        let first = try #require(try watcher?.readLine())
        #expect(first.hasPrefix("* seq=") && first.contains("kind=project.created"))
        for version in ["27.1", "27.2"] {
            _ = try owner.request("PROJECT SET app sdk=\(version)")
            _ = try owner.readLine()
        }
        let second = try #require(try watcher?.readLine())
        #expect(second.contains("to=27.1"))
        let lastSeen = try #require(Record.sequence(of: second))
        // The client goes away with the 27.2 event unread or unsent; more happens while it is gone.
        watcher = nil
        for version in ["27.3", "27.4"] {
            _ = try owner.request("PROJECT SET app sdk=\(version)")
            _ = try owner.readLine()
        }

        let resumed = try running.owner()
        #expect(try resumed.request("WATCH app since=\(lastSeen)") == "OK watching project=app since=\(lastSeen)")
        var seen: [String] = []
        for _ in 0..<3 { seen.append(try #require(try resumed.readLine())) }
        #expect(seen.map { $0.contains("to=27.2") } == [true, false, false])
        #expect(seen[1].contains("to=27.3") && seen[2].contains("to=27.4"))
        let sequences = seen.compactMap(Record.sequence(of:))
        #expect(sequences == sequences.sorted() && Set(sequences).count == 3 && sequences[0] > lastSeen)

        // Live events keep coming after the replay, and PING and QUIT still work.
        _ = try owner.request("PROJECT SET app deployment-target=26.4")
        _ = try owner.readLine()
        #expect(try resumed.readLine()?.contains("to=26.4") == true)
        #expect(try resumed.request("PING") == "OK PONG")
        #expect(try resumed.request("PROJECT LIST") == "ERR BADARG the connection is watching; send PING or QUIT")
        #expect(try resumed.request("QUIT") == "OK BYE")
    }

    @Test("WATCH filters by kind, screen and finding, in the replay and live, and resumes with its filter")
    func watchFilters() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        /// Sends `line`; returns its records, after reading its final line.
        func run(_ line: String) throws -> [Record] {
            try owner.send(line + "\n")
            var records: [Record] = []
            while let reply = try owner.readLine() {
                guard reply.hasPrefix("*") else {
                    #expect(reply.hasPrefix("OK"), "\(line): \(reply)")
                    break
                }
                records.append(try Record(parsing: reply))
            }
            return records
        }
        _ = try run("PROJECT CREATE app")
        _ = try run("SCREEN ADD app Inbox path=Sources/Inbox/**")
        _ = try run("SCREEN ADD app Settings path=Sources/Settings/**")
        let inbox = try #require(try run("ITEM ADD app screen=Inbox step=1 title=A").first?["id"])
        let settings = try #require(try run("ITEM ADD app screen=Settings step=1 title=B").first?["id"])
        _ = try run("FINDING SET app \(inbox) approved")
        _ = try run("FINDING SET app \(settings) approved")
        _ = try run("FINDING SET app \(inbox) applied")
        _ = try run("STEP SET app Inbox 2 done")

        // Status changes of Inbox: replayed, then live; others are passed over.
        let byScreen = try running.owner()
        #expect(
            try byScreen.request("WATCH app since=0 kinds=finding.status screen=Inbox")
                == "OK watching project=app since=0")
        for status in ["approved", "applied"] {
            let record = try Record(parsing: try #require(try byScreen.readLine()))
            #expect(record["kind"] == "finding.status" && record["to"] == status)
            #expect(record["finding"] == inbox && record["screen"] == "Inbox" && record["screens"] == "Inbox")
        }
        _ = try run("FINDING SET app \(settings) applied")
        _ = try run("STEP SET app Inbox 3 done")
        _ = try run("FINDING SET app \(inbox) verified")
        let live = try Record(parsing: try #require(try byScreen.readLine()))
        #expect(live["finding"] == inbox && live["to"] == "verified")

        // A screen's own events pass a screen filter too.
        let steps = try running.owner()
        #expect(try steps.request("WATCH app since=0 screen=Inbox kinds=step.state,screen.added") != nil)
        let own = try (0..<3).map { _ in try Record(parsing: try #require(try steps.readLine())) }
        #expect(own.map { $0["kind"] ?? "" } == ["screen.added", "step.state", "step.state"])
        #expect(own.allSatisfy { $0["screen"] == "Inbox" && $0["finding"] == nil })

        // One finding's events; resumed after the first, it goes on with the second, nothing lost or repeated.
        var byFinding: LineClient? = try running.owner()
        #expect(try byFinding?.request("WATCH app since=0 finding=\(settings)") == "OK watching project=app since=0")
        let first = try Record(parsing: try #require(try byFinding?.readLine()))
        #expect(first["kind"] == "finding.new" && first["finding"] == settings && first["screen"] == "Settings")
        byFinding = nil
        let resumed = try running.owner()
        let since = try #require(first["seq"])
        #expect(
            try resumed.request("WATCH app since=\(since) finding=\(settings)")
                == "OK watching project=app since=\(since)")
        let rest = try (0..<2).map { _ in try Record(parsing: try #require(try resumed.readLine())) }
        #expect(rest.map { $0["to"] ?? "" } == ["approved", "applied"])
        #expect(rest.allSatisfy { $0["finding"] == settings })
        _ = try run("FINDING SET app \(settings) verified")
        #expect(try Record(parsing: try #require(try resumed.readLine()))["to"] == "verified")
    }

    @Test("watchers of a project hear of its deletion")
    func watchSeesDeletion() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        _ = try owner.request("PROJECT CREATE app")
        _ = try owner.readLine()
        let watcher = try running.owner()
        #expect(try watcher.request("WATCH app")?.hasPrefix("OK watching") == true)
        #expect(try owner.request("PROJECT DELETE app") == "OK deleted=app")
        #expect(try watcher.readLine()?.contains("kind=project.deleted subject=app") == true)
        #expect(try watcher.readLine() == "ERR NOTFOUND project 'app' was deleted")
        #expect(watcher.isClosedByServer())
    }

    @Test("revoking a token ends the WATCH streams it opened")
    func revocationEndsWatch() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        _ = try owner.request("PROJECT CREATE app")
        _ = try owner.readLine()
        let secret = try #require(try createToken(owner, name: "dash", role: "reader"))
        let watcher = try running.tcp(token: secret)
        #expect(try watcher.request("WATCH app")?.hasPrefix("OK watching") == true)
        #expect(try owner.request("TOKEN REVOKE dash") == "OK revoked=dash")
        #expect(try watcher.readLine() == "ERR NOAUTH the token of this connection was revoked")
        #expect(watcher.isClosedByServer())
    }

    @Test("a long history is replayed in pages, in order, then live events follow")
    func longReplay() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        _ = try owner.request("PROJECT CREATE app")
        _ = try owner.readLine()
        // 1,200 changes: more than two replay pages.
        var batch = ""
        for index in 0..<600 {
            batch +=
                "PROJECT SET app sdk=\(27 + index % 2).\(index % 10)\nPROJECT SET app deployment-target=26.\(index % 10)\n"
        }
        try owner.send(batch)
        for _ in 0..<1200 {
            while let line = try owner.readLine(), line.hasPrefix("*") {}
        }
        let database = try PostgresConnection(configuration: try #require(running.database))
        let stored = try #require(try database.queryValue("SELECT count(*) FROM events", as: Int.self))

        let watcher = try running.owner()
        #expect(try watcher.request("WATCH app since=0") == "OK watching project=app since=0")
        var sequences: [Int64] = []
        for _ in 0..<stored {
            let line = try #require(try watcher.readLine())
            sequences.append(try #require(Record.sequence(of: line)))
        }
        #expect(sequences == sequences.sorted() && Set(sequences).count == stored)

        _ = try owner.request("PROJECT SET app sdk=30.0")
        _ = try owner.readLine()
        #expect(try watcher.readLine()?.contains("to=30.0") == true)
    }

    @Test("a watcher on one daemon sees events committed through another daemon on the same database")
    func watchAcrossDaemons() throws {
        let first = try RunningServer.withDatabase()
        let second = try RunningServer(
            maximumLineLength: 4096,
            commands: .standard,
            database: first.database
        )
        _ = try first.owner().request("PROJECT CREATE app")

        let watcher = try second.owner()
        #expect(try watcher.request("WATCH app")?.hasPrefix("OK watching project=app since=") == true)
        let owner = try first.owner()
        _ = try owner.request("PROJECT SET app sdk=27.1")
        #expect(try watcher.readLine()?.contains("kind=project.updated subject=sdk from=27.0 to=27.1") == true)
    }

    @Test("a watcher that does not read is disconnected with a reason")
    func slowWatcher() throws {
        let running = try RunningServer.withDatabase(maximumWatcherBacklog: 16 * 1024)
        let owner = try running.owner()
        _ = try owner.request("PROJECT CREATE app")
        _ = try owner.readLine()
        let watcher = try running.owner()
        // A tiny receive buffer, so the kernel cannot absorb the backlog for it.
        watcher.shrinkReceiveBuffer()
        #expect(try watcher.request("WATCH app")?.hasPrefix("OK watching") == true)
        // 100,000 events (about 13 MB of records) in one transaction: more than the kernel's socket buffers can
        // absorb, so the server's own bound must act.
        let database = try PostgresConnection(configuration: try #require(running.database))
        try database.transaction { connection in
            try connection.query(
                """
                INSERT INTO events (project_id, project, kind, subject, from_value, to_value, actor)
                SELECT id, name, 'project.updated', 'sdk', '27.0', '27.1', 'test' FROM projects, generate_series(1, 100000)
                """
            )
            try connection.query("SELECT pg_notify('barkeep_events', '')")
        }
        // The server drops the watcher once its backlog passes the bound (the watcher reads nothing meanwhile).
        #expect(eventually(.seconds(30)) { running.server.statistics.watchers == 0 })

        var last = ""
        while let line = try? watcher.readLine() { last = line }
        #expect(last.hasPrefix("ERR BUSY watcher fell behind; resume with since="), "last line: \(last)")
        #expect(running.server.statistics.watchers == 0)
    }

    // MARK: - Helpers

    /// Waits until `database` (opened before the command was sent) sees a `SLEEP` command running: its `pg_sleep` is
    /// an active statement. The test cannot go on otherwise.
    private func waitUntilSleeping(_ database: PostgresConnection) throws {
        let sleeping = try eventually(.seconds(10)) {
            try database.queryValue(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE state = 'active' AND query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()
                """,
                as: Int.self) == 1
        }
        try #require(sleeping, "the SLEEP command was not seen running")
    }

    @Test("ten failed HELLOs close the connection; their log lines are one a second per peer at most")
    func failedHellosClose() throws {
        let lines = Mutex<[String]>([])
        let running = try RunningServer.withDatabase(
            logger: Logger(level: .warning, clock: { Date() }) { line in lines.withLock { $0.append(line) } })
        let client = try running.tcp()
        let attempts = (0..<20).map { _ in "HELLO token=\(TokenSecret.generate())" }
        try client.send(attempts.joined(separator: "\r\n") + "\r\n")
        for _ in 1..<10 {
            #expect(try client.readLine() == "ERR NOAUTH invalid or revoked token")
        }
        #expect(try client.readLine() == "ERR NOAUTH invalid or revoked token; too many failed HELLOs, closing")
        #expect(try client.readLine() == nil)
        let failures = lines.withLock { $0.filter { $0.contains("authentication failed") } }
        // Ten failures within well under a few seconds: one line, or two should a second boundary fall between.
        #expect(failures.count <= 3, "\(failures)")

        // A good HELLO after a few wrong ones still authenticates, and the count is per connection.
        let owner = try running.owner()
        let reader = try #require(try createToken(owner, name: "reader", role: "reader"))
        let other = try running.tcp()
        #expect(try other.request("HELLO token=bk_nope") == "ERR NOAUTH invalid or revoked token")
        #expect(try other.request("HELLO token=\(reader)")?.contains(" role=reader ") == true)
    }

    @Test("failed HELLOs are limited per peer across connections; the peer's good token waits too, others do not")
    func failedHellosPerPeer() throws {
        let running = try RunningServer.withDatabase()
        let owner = try running.owner()
        let reader = try #require(try createToken(owner, name: "reader", role: "reader"))
        // A guesser reconnecting after every ten: past the burst, its HELLOs are refused without a look at the token.
        let started = ContinuousClock.now
        var checked = 0
        var refusal: String?
        attempts: for _ in 0..<10 {
            let client = try running.tcp()
            for _ in 0..<10 {
                guard let reply = try client.request("HELLO token=\(TokenSecret.generate())") else { break }
                if reply.hasPrefix("ERR NOAUTH too many failed HELLOs from 127.0.0.1; retry in ") {
                    refusal = reply
                    break attempts
                }
                checked += 1
            }
        }
        let seconds = Int((ContinuousClock.now - started).seconds.rounded(.up))
        #expect(refusal != nil, "\(checked) guesses were all looked at")
        #expect(checked >= 20 && checked <= 20 + seconds, "\(checked) in \(seconds) s")
        // Its own good token waits too: a guesser learns nothing from a refusal.
        let waiting = try #require(try running.tcp().request("HELLO token=\(reader)"))
        #expect(waiting.hasPrefix("ERR NOAUTH too many failed HELLOs from 127.0.0.1; retry in "), "\(waiting)")
        // Another peer is served as before: the owner on the Unix socket, with a token or without.
        let greeting = try owner.request("HELLO token=\(reader)")
        #expect(greeting?.contains(" role=admin") == true, "\(greeting ?? "closed")")
        #expect(try running.owner().request("PING") == "OK PONG")
    }

    @Test("HELLOs sent at once on many connections of one peer are held to its allowance")
    func concurrentFailedHellosPerPeer() throws {
        let running = try RunningServer.withDatabase()
        let started = ContinuousClock.now
        let clients = try (0..<50).map { _ in try running.tcp() }
        // Every connection sends its guess before any reply is read: all are in flight together.
        for client in clients { try client.send("HELLO token=\(TokenSecret.generate())\n") }
        var checked = 0
        var refused = 0
        for client in clients {
            let reply = try #require(try client.readLine())
            if reply == "ERR NOAUTH invalid or revoked token" {
                checked += 1
            } else if reply.hasPrefix("ERR NOAUTH too many failed HELLOs from 127.0.0.1; retry in ") {
                refused += 1
            } else {
                Issue.record("unexpected reply: \(reply)")
            }
        }
        let seconds = Int((ContinuousClock.now - started).seconds.rounded(.up))
        #expect(checked + refused == clients.count)
        #expect(
            checked >= FailedHelloLimiter.burst && checked <= FailedHelloLimiter.burst + seconds,
            "\(checked) guesses looked at in \(seconds) s")
    }

    @Test("good HELLOs sent at once on many connections of one peer are all answered: none is refused as a guess")
    func concurrentGoodHellosPerPeer() throws {
        // More at once than the allowance, and more database connections than it too: every lookup may be under
        // way together, and each good token gives its share back.
        let running = try RunningServer.withDatabase(poolSize: FailedHelloLimiter.burst + 4, queueLimit: 256)
        let token = try #require(try createToken(try running.owner(), name: "ci", role: "writer"))
        let clients = try (0..<100).map { _ in try running.tcp() }
        for client in clients { try client.send("HELLO token=\(token)\n") }
        for client in clients {
            let reply = try #require(try client.readLine())
            #expect(reply.hasPrefix("OK protocol=") && reply.contains(" role=writer"), "\(reply)")
        }
    }

    @Test(
        "an over-long name is BADARG before any lookup, quoted by a 40-character excerpt",
        arguments: [
            "PROJECT SHOW {}", "PROJECT DELETE {}", "FINDINGS {}", "SCREEN LIST {}", "STATUS {}", "WATCH {}",
            "SCREEN SHOW app {}", "POSE HISTORY app {}", "TOKEN REVOKE {}",
        ]
    )
    func overLongNames(template: String) throws {
        let running = try RunningServer.withDatabase(maximumLineLength: 1 << 17)
        let client = try running.owner()
        #expect(try client.request("PROJECT CREATE app")?.hasPrefix("* name=app") == true)
        #expect(try client.readLine() == "OK count=1")
        let name = String(repeating: "n", count: 65_523)
        let reply = try #require(try client.request(template.replacingOccurrences(of: "{}", with: name)))
        #expect(reply.hasPrefix("ERR BADARG "), "\(reply.prefix(80))")
        #expect(
            reply.hasSuffix("got 65523: '\(String(repeating: "n", count: 40))…' (65523 bytes)"), "\(reply.prefix(200))")
        #expect(reply.count < 200)
    }

    @Test("a bad value of 256 KiB is quoted as a short prefix with its length in bytes, whatever key refuses it")
    func oversizedValuesAreQuotedShort() throws {
        // The line limit raised, as an operator may (--max-line): the value reaches every check that refuses it.
        let running = try RunningServer.withDatabase(maximumLineLength: 1 << 20)
        let client = try running.owner()
        #expect(try client.request("PROJECT CREATE app")?.hasPrefix("* name=app") == true)
        #expect(try client.readLine() == "OK count=1")
        #expect(try client.request("SCREEN ADD app Inbox title=Inbox path=Inbox/*")?.hasPrefix("* ") == true)
        #expect(try client.readLine() == "OK count=1")
        let value = String(repeating: "a", count: 256 << 10)
        let requests = [
            "FINDINGS app screen=\(value)", "FINDINGS app status=\(value)", "FINDINGS app severity=\(value)",
            "FINDINGS app step=\(value)", "FINDINGS app assignee=\(value)", "FINDINGS app new-in=\(value)",
            "FINDINGS app status=open,\(value)", "FINDING ASSIGN app 1 \(value)", "FINDINGS app \(value)=x",
            "SOURCE ADD app inbox=/\(value)", "SOURCE ADD app repo=/\(value) scanner=x",
            "STEP SET app Inbox \(value) done", "ITEM ADD app screen=Inbox step=\(value) title=x",
            "POSE RECORD app Inbox \(value) passed", "\(value)",
        ]
        for request in requests {
            let reply = try #require(try client.request(request), "\(request.prefix(40))")
            #expect(reply.hasPrefix("ERR "), "\(reply.prefix(200))")
            #expect(reply.utf8.count < 300, "\(request.prefix(40)): \(reply.prefix(300))")
            #expect(reply.contains("…' (26214") && reply.contains(" bytes)"), "\(request.prefix(40)): \(reply)")
        }
        // A glob too long is refused by its form; one within the limit that the screen does not own, quoted short.
        let glob = "Inbox/" + String(repeating: "b", count: 994)
        let refused = try #require(try client.request("SCREEN SET app Inbox remove-path=\(value)"))
        #expect(refused.hasPrefix("ERR BADARG remove-path must be a path glob") && refused.utf8.count < 300)
        let notOwned = try #require(try client.request("SCREEN SET app Inbox remove-path=\(glob)"))
        #expect(
            notOwned
                == "ERR NOTFOUND screen 'Inbox' does not own 'Inbox/\(String(repeating: "b", count: 34))…' (1000 bytes)"
        )
    }

    private func createToken(_ owner: LineClient, name: String, role: String) throws -> String? {
        guard let record = try owner.request("TOKEN CREATE \(name) role=\(role)"), record.hasPrefix("*") else {
            return nil
        }
        _ = try owner.readLine()
        return try Record(parsing: record)["token"]
    }
}

extension Record {
    /// The `seq` of an event record line.
    static func sequence(of line: String) -> Int64? {
        (try? Record(parsing: line))?["seq"].flatMap { Int64($0) }
    }
}
