import BarkeepStore
import BarkeepTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faults injected into running binaries: the daemon killed during an ingest, PostgreSQL restarted under load,
/// the embedded postmaster killed, two daemons on one database. docs/reliability.md lists each with its result.
@Suite("faults and two daemons", .serialized)
struct FaultTests {
    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// A duo_scan document of `count` findings over count/50 files.
    private func largeScan(_ count: Int) throws -> String {
        var text = #"{"tool":"duo_scan","version":"1.2.2","source_files_scanned":1,"findings":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"rule":"DUO001","severity":"high","file":"Sources/F\#(index / 50).swift","#
            text += #""line":\#(index % 50 + 1),"snippet":"let s\#(index) = UIScreen.main.bounds"}"#
        }
        text += "]}"
        let path = try TemporaryDirectory.make(prefix: "barkeep-fault") + "/scan.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A connection to the database a daemon uses.
    private func connection(to daemon: TestDaemon) throws -> PostgresConnection {
        try PostgresConnection(configuration: PostgresConfiguration(conninfo: daemon.url))
    }

    private func count(_ sql: String, _ connection: PostgresConnection) throws -> Int {
        try connection.queryValue(sql, as: Int.self) ?? -1
    }

    @Test("kill -9 of barkeepd during a large ingest: the run is wholly there or absent; ingesting again completes it")
    func killDuringIngest() throws {
        let findings = 60_000
        let scan = try largeScan(findings)
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let database = try connection(to: daemon)
        let uploader = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["ingest", "app", scan], environment: daemon.environment())
        defer {
            uploader.signal(SIGKILL)
            _ = uploader.wait(timeout: .seconds(5))
        }
        // Kill it in the middle of the sync: once its transaction is writing findings.
        let writing = try eventually(.seconds(60)) {
            try count(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
                  AND (query ILIKE '%sync_rows%' OR query ILIKE 'COPY%')
                """, database) > 0
        }
        #expect(writing, "the ingest never reached the database")
        daemon.process.signal(SIGKILL)
        _ = daemon.process.wait(timeout: .seconds(10))
        // Its sessions end once PostgreSQL notices the client is gone; what they were doing is rolled back.
        #expect(
            try eventually(.seconds(60)) {
                try count(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                    database) == 0
            })
        let runs = try count("SELECT count(*) FROM scan_runs", database)
        let stored = try count("SELECT count(*) FROM findings", database)
        let events = try count("SELECT count(*) FROM events WHERE kind = 'scan.ingested'", database)
        #expect(runs == 0 || runs == 1)
        #expect(stored == (runs == 0 ? 0 : findings))
        #expect(events == runs)

        // Restarted, the same upload completes the project: exactly one run and every finding once.
        let again = try TestDaemon(url: daemon.url)
        let (status, _, error) = try again.barkeep(["ingest", "app", scan])
        #expect(status == 0, "\(error)")
        #expect(try count("SELECT count(*) FROM scan_runs", database) == 1)
        #expect(try count("SELECT count(*) FROM findings", database) == findings)
        #expect(try count("SELECT count(DISTINCT identity) FROM findings", database) == findings)
        // A first import: its run's one event announces every finding.
        #expect(
            try count(
                "SELECT count(*) FROM events WHERE kind = 'scan.ingested' AND to_value LIKE 'new=\(findings) %'",
                database) == 1)
        #expect(try count("SELECT count(*) FROM events WHERE kind = 'finding.new'", database) == 0)
    }

    @Test(
        "PostgreSQL restarted under load: clients get UNAVAILABLE, barkeepd recovers by itself, nothing acknowledged is lost"
    )
    func postgresRestartUnderLoad() throws {
        let root = try TemporaryDirectory.make(prefix: "barkeep-restart")
        chmod(root, 0o755)
        let cluster = try PostgresCluster(
            binaries: try PostgresBinaries.locate(), options: .init(dataDirectory: root + "/pg", isEphemeral: true))
        try cluster.initializeIfNeeded()
        try cluster.start()
        defer { try? cluster.stop() }
        try cluster.createDatabaseIfNeeded("barkeep")
        let configuration = cluster.configuration(database: "barkeep")
        let daemon = try TestDaemon(url: configuration.conninfo + " dbname=barkeep")
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/**"]).0 == 0)

        // Four writers adding items as fast as they can; each remembers what was acknowledged.
        let acknowledged = Mutex<[String]>([])
        let refusals = Mutex<[String: Int]>([:])
        let running = Atomic<Bool>(true)
        let done = DispatchGroup()
        for writer in 0..<4 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                var sequence = 0
                var client = try? LineClient(socketPath: daemon.socket)
                while running.load(ordering: .relaxed) {
                    sequence += 1
                    let title = "w\(writer)-\(sequence)"
                    guard let connection = client,
                        let reply = try? connection.request("ITEM ADD app screen=Inbox step=1 title=\(title)")
                    else {
                        client = try? LineClient(socketPath: daemon.socket)
                        usleep(20_000)
                        continue
                    }
                    if reply.hasPrefix("* ") {
                        _ = try? connection.readLine()
                        acknowledged.withLock { $0.append(title) }
                    } else {
                        let code = reply.split(separator: " ").dropFirst().first.map(String.init) ?? reply
                        refusals.withLock { $0[code, default: 0] += 1 }
                        usleep(20_000)
                    }
                }
            }
        }
        func acknowledgedCount() -> Int { acknowledged.withLock { $0.count } }
        #expect(eventually(.seconds(30)) { acknowledgedCount() >= 100 })
        try cluster.stop()
        // Down until the clients have seen it: a write refused as UNAVAILABLE.
        #expect(eventually(.seconds(30)) { refusals.withLock { $0["UNAVAILABLE", default: 0] } > 0 })
        try cluster.start()
        let atRestart = acknowledgedCount()
        // barkeepd recovers by itself: writes are acknowledged again, with no restart of the daemon.
        #expect(eventually(.seconds(60)) { acknowledgedCount() >= atRestart + 100 })
        running.store(false, ordering: .relaxed)
        done.wait()

        let codes = refusals.withLock { $0 }
        #expect(codes["UNAVAILABLE", default: 0] > 0, "no client saw the database go: \(codes)")
        #expect(Set(codes.keys).isSubset(of: ["UNAVAILABLE", "BUSY"]), "\(codes)")
        let database = try PostgresConnection(configuration: configuration)
        let stored = Set(
            try database.query("SELECT title FROM findings WHERE source = 'manual'").map {
                try $0.decode("title", as: String.self)
            })
        let lost = acknowledged.withLock { $0 }.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.prefix(5))")
    }

    @Test("the embedded cluster survives kill -9 of its postmaster: barkeepd restarts it and the data is there")
    func embeddedPostmasterKilled() throws {
        let daemon = try EmbeddedDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        #expect(kill(try daemon.postmasterPID(), SIGKILL) == 0)
        let recovered = try eventually(.seconds(60)) {
            let (status, output) = try daemon.barkeep(["project", "list"])
            return status == 0 && output.contains("app")
        }
        #expect(recovered)
        #expect(daemon.process.waitForError(containing: "embedded PostgreSQL restarted", timeout: .seconds(5)))
        #expect(try daemon.barkeep(["project", "create", "after"]).0 == 0)
    }

    @Test(
        "two daemons on one database: concurrent ingests of one project stay consistent; each sees the other's events")
    func twoDaemons() throws {
        let first = try TestDaemon()
        let second = try TestDaemon(url: first.url)
        #expect(try first.barkeep(["project", "create", "app"]).0 == 0)
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["--json", "watch", "app", "--since", "0"], environment: first.environment())
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        let directory = try #require(Fixtures.directory) + "/duo_scan/history/NetNewsWire/"
        let files = ["09-95a8f6d7.json", "11-4cd1a8f9.json"].map { directory + $0 }
        // Both at once, one through each daemon.
        let results = Mutex<[Int32]>([])
        let group = DispatchGroup()
        for (daemon, file) in zip([first, second], files) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let status = (try? daemon.barkeep(["ingest", "app", file]).0) ?? -1
                results.withLock { $0.append(status) }
            }
        }
        group.wait()
        #expect(results.withLock { $0 } == [0, 0])
        let runs = try #require(try json(try second.barkeep(["--json", "runs", "app"]).1) as? [[String: Any]])
        #expect(runs.count == 2)
        // Whatever the order, the later run is a full scan of the same tool: the open findings are its findings.
        let later = try #require(runs.first)
        let laterFile =
            (later["new"] as? Int ?? 0) + (later["unchanged"] as? Int ?? 0)
            + (later["reopened"] as? Int ?? 0)
        let open = try #require(
            try json(try first.barkeep(["--json", "findings", "app", "--status", "proposed"]).1) as? [[String: Any]])
        #expect(open.count == laterFile)
        // The watcher on the first daemon saw the second daemon's run too.
        #expect(
            eventually(.seconds(20)) {
                watcher.output.split(separator: "\n").filter { $0.contains("\"scan.ingested\"") }.count == 2
            })
    }

    @Test("backup and restore as docs/operations.md says: pg_dump of a live daemon, pg_restore into a new one")
    func backupAndRestore() throws {
        let binaries = try PostgresBinaries.locate()
        let pgBin = URL(fileURLWithPath: binaries.pgCtl).deletingLastPathComponent().path
        func daemon(_ root: String, _ options: [String] = []) throws -> (Subprocess, [String: String]) {
            chmod(root, 0o755)
            let (process, _) = try Subprocess.startDaemon(["--data-dir", root] + options)
            var environment = ProcessInfo.processInfo.environment
            environment["BARKEEP_SERVER"] = "unix:\(root)/barkeep.sock"
            return (process, environment)
        }
        func stop(_ process: Subprocess) {
            process.signal(SIGTERM)
            _ = process.wait(timeout: .seconds(60))
        }
        func barkeep(_ arguments: [String], _ environment: [String: String]) throws -> String {
            let result = try Subprocess.run(BuildProducts.path("barkeep"), arguments, environment: environment)
            #expect(result.status == 0, "barkeep \(arguments.joined(separator: " ")): \(result.error)")
            return result.output
        }

        let old = try TemporaryDirectory.make(prefix: "barkeep-backup")
        let (first, firstEnvironment) = try daemon(old)
        _ = try barkeep(["project", "create", "app"], firstEnvironment)
        _ = try barkeep(
            ["ingest", "app", try #require(Fixtures.directory) + "/duo_scan/all-rules.json"], firstEnvironment)
        _ = try barkeep(["screen", "add", "app", "Main", "--path", "**"], firstEnvironment)
        _ = try barkeep(
            ["item", "add", "app", "--screen", "Main", "--step", "5", "--title", "Axis", "--needs", "axisBehavior"],
            firstEnvironment)
        let token = try #require(
            try barkeep(["token", "create", "ci", "--role", "writer"], firstEnvironment).split(separator: "\n").first)
        let findings = try barkeep(["--json", "findings", "app"], firstEnvironment)
        let dump = old + "/barkeep.dump"
        let dumped = try Subprocess.run(
            pgBin + "/pg_dump", ["-h", old + "/pg", "-p", "5432", "-U", "barkeep", "-d", "barkeep", "-Fc", "-f", dump])
        #expect(dumped.status == 0, "\(dumped.error)")
        stop(first)

        let new = try TemporaryDirectory.make(prefix: "barkeep-restore")
        // As the restore section says: a daemon that reads no table of its own accord while pg_restore runs.
        var (second, secondEnvironment) = try daemon(new, ["--no-hooks", "--no-sources"])
        let restored = try Subprocess.run(
            pgBin + "/pg_restore",
            [
                "-h", new + "/pg", "-p", "5432", "-U", "barkeep", "-d", "barkeep", "--clean", "--if-exists",
                "--single-transaction", dump,
            ])
        #expect(restored.status == 0, "\(restored.error)")
        stop(second)
        (second, secondEnvironment) = try daemon(new)
        defer { stop(second) }
        #expect(try barkeep(["--json", "findings", "app"], secondEnvironment) == findings)
        #expect(try barkeep(["screen", "list", "app"], secondEnvironment).contains("Main"))
        // The token's hash came back with the data: it still opens a session over TCP.
        var tcp = secondEnvironment
        tcp["BARKEEP_SERVER"] = nil
        let port = try #require(
            second.errorOutput.split(separator: " ").first { $0.hasPrefix("tcp=") }?.split(separator: ":").last)
        let listed = try Subprocess.run(
            BuildProducts.path("barkeep"),
            ["--server", "127.0.0.1:\(port)", "--token", String(token), "project", "list"],
            environment: tcp)
        #expect(listed.status == 0 && listed.output.contains("app"), "\(listed.error)")
    }
}
