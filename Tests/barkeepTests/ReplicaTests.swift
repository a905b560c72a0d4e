import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// barkeepd with `--read-database-url` on a real streaming replica: a primary cluster made the way the embedded
/// database is, a standby of it made with the cluster's own `pg_basebackup -R`, and the built daemon between them.
@Suite("Reads from a streaming replica")
struct ReplicaTests {
    /// A scan of one finding.
    private static let scan = Array(
        """
        {"tool": "duo_scan", "version": "1.2.2", "findings": [
          {"rule": "DUO007", "severity": "medium", "file": "Sources/MenuView.swift", "line": 9,
           "snippet": "let bar = UIToolbar()", "message": "A standalone bar."}
        ]}
        """.utf8)

    @Test(
        "reads go to the standby, a client reads its own writes, the primary serves while the standby is down or lags")
    func readsFollowTheReplica() throws {
        let root = try TemporaryDirectory.make(prefix: "barkeep-replica")
        // As root, PostgreSQL runs as postgres and must be able to enter the directory.
        chmod(root, 0o755)
        let binaries = try PostgresBinaries.locate()
        let primary = try PostgresCluster(
            binaries: binaries, options: .init(dataDirectory: root + "/primary", isEphemeral: true))
        try primary.initializeIfNeeded()
        try primary.start()
        defer { try? primary.stop() }
        try primary.createDatabaseIfNeeded("barkeep")

        // The standby: a base backup of the primary over its socket, with the settings to follow it (-R).
        let standbyDirectory = root + "/standby"
        try makeServerDirectory(standbyDirectory)
        let backup = try Subprocess.run(
            asServerUser(binaries.directory + "/pg_basebackup"),
            asServerArguments(
                binaries.directory + "/pg_basebackup",
                [
                    "-D", standbyDirectory, "-R", "-X", "stream", "-c", "fast", "-h", primary.socketDirectory,
                    "-p", String(primary.options.port), "-U", primary.options.superuser,
                ]),
            environment: ProcessInfo.processInfo.environment)
        #expect(backup.status == 0, "pg_basebackup: \(backup.error)")
        // Every commit reaches the standby 400 ms late: longer than the daemon's wait for a client's own write
        // (--replica-wait 100ms), so a read right after a write that went to the standby would miss it.
        let settings = try FileHandle(forWritingTo: URL(fileURLWithPath: standbyDirectory + "/postgresql.auto.conf"))
        try settings.seekToEnd()
        try settings.write(contentsOf: Data("recovery_min_apply_delay = '400ms'\n".utf8))
        try settings.close()
        var standbyOptions = PostgresCluster.Options(dataDirectory: standbyDirectory, isEphemeral: true)
        standbyOptions.port = primary.options.port + 1
        let standby = try PostgresCluster(binaries: binaries, options: standbyOptions)
        try standby.start()
        defer { try? standby.stop() }

        let dataDirectory = try TemporaryDirectory.make(prefix: "barkeep-replica-daemon")
        let (daemon, _) = try Subprocess.startDaemon([
            "--data-dir", dataDirectory, "--database-url", Self.url(primary), "--read-database-url", Self.url(standby),
            "--replica-wait", "100ms", "--no-sources", "--no-hooks", "--http", "127.0.0.1:0",
        ])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.wait(timeout: .seconds(30))
        }
        let socket = dataDirectory + "/barkeep.sock"
        let writer = try LineClient(socketPath: socket)
        #expect(try Self.reply(writer, "PROJECT CREATE app").last?.hasPrefix("OK") == true)
        try writer.send("INGEST app \(Self.scan.count) format=duo-scan\n")
        try writer.send(Self.scan)
        #expect(try Self.reply(writer).last?.hasPrefix("OK") == true)

        // Reads go to the replica once it has replayed the primary's log as the daemon first saw it, and this
        // principal's writes (the reader is the writer's local user): until then the primary serves them.
        let reader = try LineClient(socketPath: socket)
        #expect(
            eventually(.seconds(10)) {
                (try? Self.showsFinding(reader)) == true
                    && (try? Self.stats(reader)).map { Int($0["replica-reads"] ?? "") ?? 0 > 0 } == true
            })
        let serving = try Self.stats(reader)
        #expect(serving["replica"] == "serving", "\(serving)")
        #expect(Int(serving["replica-reads"] ?? "") ?? 0 > 0, "\(serving)")

        // Read-your-writes: each change is seen by the very next read of the client that made it, from the
        // primary, as the standby replays it only later.
        #expect(try Self.reply(writer, "FINDING SET app 1 approved reason=seen").last?.hasPrefix("OK") == true)
        #expect(try Self.reply(writer, "FINDING SHOW app 1").first?.contains("status=approved") == true)
        for round in 1...20 {
            #expect(try Self.reply(writer, "FINDING ASSIGN app 1 dev\(round)").last?.hasPrefix("OK") == true)
            let shown = try Self.reply(writer, "FINDING SHOW app 1").first ?? ""
            #expect(shown.contains("assignee=dev\(round)"), "round \(round): \(shown)")
        }

        // The CLI sends each command on a connection of its own: a new connection of the same principal (here the
        // local user) reads the write the previous one made.
        #expect(try Self.reply(writer, "FINDING ASSIGN app 1 cli").last?.hasPrefix("OK") == true)
        let fresh = try LineClient(socketPath: socket)
        let shownFresh = try Self.reply(fresh, "FINDING SHOW app 1").first ?? ""
        #expect(shownFresh.contains("assignee=cli"), "a new connection: \(shownFresh)")

        let written = try Self.stats(reader)
        #expect(
            Int(written["replica-fallbacks"] ?? "") ?? 0 >= (Int(serving["replica-fallbacks"] ?? "") ?? 0) + 21,
            "\(written)")

        // The same over HTTP, for a token's requests: each GET after a POST of the same client sees it.
        let http = "http://" + (Subprocess.readyField(daemon, "http") ?? "") + "/api/v1/projects/app/findings"
        var environment = ProcessInfo.processInfo.environment
        environment["BARKEEP_SERVER"] = "unix:" + socket
        let created = try Subprocess.run(
            BuildProducts.path("barkeep"), ["token", "create", "web", "--role", "writer"], environment: environment)
        let token = try #require(created.output.split(separator: "\n").first.map(String.init), "\(created.error)")
        // That token is new to the standby, whose replay is paused: its first read, sent there (the token wrote
        // nothing), is answered from the primary rather than refused as unknown.
        let standbyConnection = try PostgresConnection(configuration: standby.configuration(database: "barkeep"))
        defer { standbyConnection.close() }
        #expect(standbyConnection.isHotStandby)
        _ = try standbyConnection.query("SELECT pg_wal_replay_pause()")
        let unknown = try Subprocess.run(
            BuildProducts.path("barkeep"), ["token", "create", "fresh", "--role", "reader"], environment: environment)
        let freshToken = try #require(unknown.output.split(separator: "\n").first.map(String.init), "\(unknown.error)")
        let beforeFresh = try Self.stats(reader)
        let firstRead = try HTTPAPITests.request("GET", http + "/1", token: freshToken)
        #expect(firstRead.status == 200, "a new token's first read: \(firstRead.status) \(firstRead.text)")
        #expect(
            Int(try Self.stats(reader)["replica-fallbacks"] ?? "") ?? 0
                > Int(beforeFresh["replica-fallbacks"] ?? "") ?? 0)
        _ = try standbyConnection.query("SELECT pg_wal_replay_resume()")
        for round in 1...5 {
            let assigned = try HTTPAPITests.request(
                "POST", http + "/assignee", token: token, json: #"{"number":[1],"name":"web\#(round)"}"#)
            #expect(assigned.status == 200, "\(assigned.text)")
            let shown = try HTTPAPITests.request("GET", http + "/1", token: token)
            #expect(shown.status == 200 && shown.text.contains("\"web\(round)\""), "round \(round): \(shown.text)")
        }
        // A sign-in writes a session on the primary: the very next page, with the new cookie, finds it.
        let base = "http://" + (Subprocess.readyField(daemon, "http") ?? "")
        let jar = try TemporaryDirectory.make(prefix: "barkeep-replica-web") + "/cookies"
        let signIn = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-c", jar, "--data", "token=\(token)&next=/",
                base + "/signin",
            ])
        #expect(signIn.output == "303", "\(signIn.output) \(signIn.error)")
        let page = try Subprocess.run(
            "/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "-b", jar, base + "/"])
        #expect(page.output.hasPrefix("200"), "the first page after signing in: \(page.output) \(page.error)")

        let web = try Self.stats(reader)
        #expect(
            Int(web["replica-fallbacks"] ?? "") ?? 0 >= (Int(written["replica-fallbacks"] ?? "") ?? 0) + 5, "\(web)")

        // The standby stops: reads still answer, from the primary, and the counters say so.
        let before = try Self.stats(reader)
        try standby.stop()
        for _ in 1...5 { #expect(try Self.showsFinding(reader)) }
        #expect(eventually(.seconds(10)) { (try? Self.stats(reader))?["replica"] == "down" })
        let away = try Self.stats(reader)
        #expect(
            Int(away["primary-reads"] ?? "") ?? 0 >= (Int(before["primary-reads"] ?? "") ?? 0) + 5, "\(away)")
        #expect(daemon.errorOutput.contains("read replica down"))

        // It comes back: reads go to it again.
        try standby.start()
        #expect(eventually(.seconds(15)) { (try? Self.stats(reader))?["replica"] == "serving" })
        let back = try Self.stats(reader)
        #expect(
            eventually(.seconds(10)) {
                _ = try? Self.reply(reader, "FINDING SHOW app 1")
                let now = (try? Self.stats(reader)) ?? [:]
                return Int(now["replica-reads"] ?? "") ?? 0 > Int(back["replica-reads"] ?? "") ?? 0
            })
        #expect(daemon.errorOutput.contains("read replica back"))

        // A daemon whose lag limit is below the standby's 400 ms delay reads the primary while writes go on, and the
        // standby again once the primary is idle: an idle primary counts no lag.
        let strictDirectory = try TemporaryDirectory.make(prefix: "barkeep-replica-daemon")
        let (strict, _) = try Subprocess.startDaemon([
            "--data-dir", strictDirectory, "--database-url", Self.url(primary), "--read-database-url",
            Self.url(standby), "--max-replica-lag", "50ms", "--no-sources", "--no-hooks",
        ])
        defer {
            strict.signal(SIGTERM)
            _ = strict.wait(timeout: .seconds(30))
        }
        let busy = try LineClient(socketPath: strictDirectory + "/barkeep.sock")
        var round = 0
        #expect(
            eventually(.seconds(10)) {
                round += 1
                _ = try? Self.reply(busy, "FINDING ASSIGN app 1 busy\(round)")
                return (try? Self.stats(busy))?["replica"] == "lagging"
            })
        #expect(strict.errorOutput.contains("read replica lagging"))
        #expect(eventually(.seconds(10)) { (try? Self.stats(busy))?["replica"] == "serving" })
        #expect(strict.errorOutput.contains("read replica caught up"))
    }

    @Test("a read URL that is not a standby stops the start with a clear error")
    func refusesAPrimary() throws {
        let primary = try TestDatabase.makeDatabase()
        let url = primary.conninfo + " dbname=\(primary.database ?? "")"
        let dataDirectory = try TemporaryDirectory.make(prefix: "barkeep-replica-daemon")
        do {
            _ = try Subprocess.startDaemon([
                "--data-dir", dataDirectory, "--database-url", url, "--read-database-url", url, "--no-sources",
                "--no-hooks",
            ])
            Issue.record("barkeepd started with a read URL that is no standby")
        } catch {
            #expect("\(error)".contains("is not a standby"), "\(error)")
        }
        let wrong = try Subprocess.run(
            BuildProducts.path("barkeepd"),
            ["--data-dir", dataDirectory, "--read-database-url", "bogus=1", "--max-replica-lag", "5s"],
            environment: ProcessInfo.processInfo.environment)
        #expect(wrong.status == 64 && wrong.error.contains("--read-database-url"), "\(wrong.error)")
        let lag = try Subprocess.run(
            BuildProducts.path("barkeepd"), ["--data-dir", dataDirectory, "--max-replica-lag", "soon"],
            environment: ProcessInfo.processInfo.environment)
        #expect(lag.status == 64 && lag.error.contains("--max-replica-lag"), "\(lag.error)")
    }

    // MARK: - Helpers

    /// The daemon's URL of `cluster`'s `barkeep` database.
    private static func url(_ cluster: PostgresCluster) -> String {
        let configuration = cluster.configuration(database: "barkeep")
        return configuration.conninfo + " dbname=barkeep"
    }

    /// Sends `line` (when given) and reads one whole reply: its record lines and its final line.
    private static func reply(_ client: LineClient, _ line: String? = nil) throws -> [String] {
        if let line { try client.send(line + "\n") }
        var lines: [String] = []
        while let next = try client.readLine() {
            lines.append(next)
            if next.hasPrefix("OK") || next.hasPrefix("ERR") { break }
        }
        return lines
    }

    /// Whether `FINDING SHOW app 1` answers with the finding.
    private static func showsFinding(_ client: LineClient) throws -> Bool {
        let shown = try reply(client, "FINDING SHOW app 1")
        return shown.first?.hasPrefix("* id=1 ") == true && shown.last?.hasPrefix("OK count=") == true
    }

    /// STATS' record, as its fields.
    private static func stats(_ client: LineClient) throws -> [String: String] {
        let record = try reply(client, "STATS").first ?? ""
        var fields: [String: String] = [:]
        for word in record.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return fields
    }

    /// A directory for the standby, owned by the user PostgreSQL runs as.
    private func makeServerDirectory(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw TestSupportError("cannot create \(path)") }
        if geteuid() == 0, let user = getpwnam("postgres") {
            guard chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw TestSupportError("cannot hand \(path) to postgres")
            }
        }
    }

    /// The program to run `program` with: itself, or `runuser` as root (PostgreSQL's programs refuse root).
    private func asServerUser(_ program: String) -> String { geteuid() == 0 ? "/usr/sbin/runuser" : program }

    /// The arguments for `asServerUser(program)`.
    private func asServerArguments(_ program: String, _ arguments: [String]) -> [String] {
        geteuid() == 0 ? ["-u", "postgres", "--", program] + arguments : arguments
    }
}
