import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end: the built `barkeepd` and `barkeep` binaries, run as a user would run them.
@Suite("barkeepd end to end")
struct DaemonTests {
    private let barkeepd = BuildProducts.path("barkeepd")
    private let barkeep = BuildProducts.path("barkeep")

    /// Starts barkeepd and waits for its `msg=ready` line; returns the process and its TCP port.
    private func startDaemon(_ arguments: [String]) throws -> (Subprocess, UInt16) {
        try Subprocess.startDaemon(arguments)
    }

    private func ping(_ arguments: [String], in directory: String? = nil) throws -> (Int32, String, String) {
        let result = try Subprocess.run(barkeep, arguments + ["ping"], directory: directory)
        return (result.status, result.output, result.error)
    }

    /// Process ids of postmasters serving `dataDirectory`, read from /proc.
    private func postmasters(of dataDirectory: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let dash = words.firstIndex(of: "-D"), dash + 1 < words.count else { return false }
            return words[0].hasSuffix("postgres") && words[dash + 1] == dataDirectory
        }
    }

    /// Runs a server program as the user the embedded cluster runs as (postgres when the tests run as root).
    private func runAsServerUser(_ program: String, _ arguments: [String]) throws {
        let result =
            geteuid() == 0
            ? try Subprocess.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
            : try Subprocess.run(program, arguments)
        guard result.status == 0 else { throw TestSupportError("\(program) failed: \(result.error)") }
    }

    /// Starts the cluster in `dataDirectory` as an older daemon left it: no `barkeep.owner` mark, its socket in
    /// `socketDirectory`, and one connection slot in all. Returns its postmaster's pid.
    private func startUnmarkedCluster(_ dataDirectory: String, socketDirectory: String) throws -> pid_t {
        try runAsServerUser("/bin/mkdir", ["-m", "0700", "-p", socketDirectory])
        let settings =
            "-c unix_socket_directories='\(socketDirectory)' -c max_connections=1 "
            + "-c superuser_reserved_connections=0"
        try runAsServerUser(
            try PostgresBinaries.locate().pgCtl,
            ["start", "-D", dataDirectory, "-w", "-s", "-l", dataDirectory + "/server.log", "-o", settings])
        let text = try String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        return try #require(text.split(separator: "\n").first.flatMap { pid_t($0) })
    }

    @Test("embedded database: ping over both listeners, stop, reuse, recover from kill -9")
    func embeddedLifecycle() throws {
        let root = try TemporaryDirectory.make(prefix: "barkeep-e2e")
        // As root the embedded server runs as postgres, which must be able to enter the directory.
        chmod(root, 0o755)
        let dataDirectory = root + "/.barkeep"
        let pgData = dataDirectory + "/pg"

        // First start: creates the cluster and the schema.
        var (daemon, port) = try startDaemon(["--data-dir", dataDirectory])
        #expect(daemon.errorOutput.contains("creating embedded PostgreSQL cluster"))
        #expect(daemon.errorOutput.contains("msg=\"migration applied\""))
        #expect(daemon.errorOutput.contains("database=embedded"))

        #expect(try ping(["--server", "unix:\(dataDirectory)/barkeep.sock"]) == (0, "PONG\n", ""))
        #expect(try ping(["--server", "127.0.0.1:\(port)"]) == (0, "PONG\n", ""))
        // Without --server, barkeep finds the socket of the daemon started in its directory.
        #expect(try ping([], in: root) == (0, "PONG\n", ""))
        #expect(postmasters(of: pgData).count == 1)

        // A second daemon on the same data directory is refused and leaves the first untouched.
        let second = try Subprocess.run(
            barkeepd, ["--data-dir", dataDirectory, "--listen", "127.0.0.1:0", "--no-http"])
        #expect(second.status == 1)
        #expect(second.error.contains("another barkeepd"))
        #expect(try ping(["--server", "127.0.0.1:\(port)"]).0 == 0)

        // SIGTERM stops the daemon and its PostgreSQL.
        daemon.signal(SIGTERM)
        #expect(daemon.wait(timeout: .seconds(60)) == 0)
        #expect(daemon.errorOutput.contains("msg=stopped"))
        #expect(postmasters(of: pgData).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: pgData + "/postmaster.pid"))
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/barkeep.sock"))

        // Second start reuses the cluster and the schema.
        (daemon, port) = try startDaemon(["--data-dir", dataDirectory])
        #expect(!daemon.errorOutput.contains("creating embedded PostgreSQL cluster"))
        #expect(!daemon.errorOutput.contains("migration applied"))
        #expect(try ping(["--server", "127.0.0.1:\(port)"]) == (0, "PONG\n", ""))

        // kill -9 leaves an orphaned postmaster and a socket file behind; the next start recovers from both.
        daemon.signal(SIGKILL)
        #expect(daemon.wait(timeout: .seconds(10)) == 128 + SIGKILL)
        #expect(postmasters(of: pgData).count == 1)
        (daemon, port) = try startDaemon(["--data-dir", dataDirectory])
        #expect(daemon.errorOutput.contains("orphaned PostgreSQL"))
        #expect(try ping(["--server", "unix:\(dataDirectory)/barkeep.sock"]) == (0, "PONG\n", ""))
        #expect(try ping(["--server", "127.0.0.1:\(port)"]) == (0, "PONG\n", ""))

        daemon.signal(SIGINT)
        #expect(daemon.wait(timeout: .seconds(60)) == 0)
        #expect(postmasters(of: pgData).isEmpty)
        try? FileManager.default.removeItem(atPath: root)
    }

    @Test("a daemon never stops a PostgreSQL another holds: a moved lock, a live starter, a lock held inside")
    func doesNotStopAnotherCluster() throws {
        let first = try EmbeddedDaemon()
        let root = first.root
        let postmaster = try first.postmasterPID()
        // The incident: an inbox on the data directory moved the running daemon's lock to failed/.
        #expect(mkdir(root + "/failed", 0o755) == 0)
        #expect(rename(root + "/barkeepd.lock", root + "/failed/barkeepd.lock") == 0)
        let second = try Subprocess.run(barkeepd, ["--data-dir", root, "--listen", "127.0.0.1:0", "--no-http"])
        #expect(second.status == 1)
        #expect(second.error.contains("start failed: another barkeepd (pid \(first.process.pid)) is using \(root)"))
        #expect(!second.error.contains("orphaned"))
        // The first daemon's cluster still serves it, the same postmaster.
        #expect(try first.barkeep(["ping"]) == (0, "PONG\n"))
        #expect(try first.postmasterPID() == postmaster && kill(postmaster, 0) == 0)
        first.process.signal(SIGTERM)
        #expect(first.process.wait(timeout: .seconds(60)) == 0)

        // A cluster another live process started (this test) is not an orphan, whoever holds the directory lock.
        let cluster = try PostgresCluster(
            binaries: try PostgresBinaries.locate(), options: .init(dataDirectory: root + "/pg"))
        try cluster.start()
        defer { try? cluster.stop() }
        let refused = try Subprocess.run(barkeepd, ["--data-dir", root, "--listen", "127.0.0.1:0", "--no-http"])
        #expect(refused.status == 1)
        #expect(
            refused.error.contains(
                "is not an orphan: it was started by \(try #require(ProcessRecord.current)), which still runs; not "
                    + "stopping it"), "\(refused.error)")
        let connection = try PostgresConnection(configuration: cluster.configuration(database: "barkeep"))
        #expect(try connection.queryValue("SELECT 1", as: Int.self) == 1)
        connection.close()
        try cluster.stop()

        // A cluster no live process marks (an older daemon's) whose socket is not where this daemon would put it and
        // which has no connection slot to spare: its connections cannot be counted, so nothing proves it an orphan.
        let unmarked = try startUnmarkedCluster(root + "/pg", socketDirectory: root + "/pg/elsewhere")
        let holder = try PostgresConnection(
            configuration: PostgresConfiguration(
                conninfo: "host='\(root)/pg/elsewhere' port=5432 user=barkeep", database: "postgres",
                applicationName: "barkeepd-older"))
        let full = try Subprocess.run(barkeepd, ["--data-dir", root, "--listen", "127.0.0.1:0", "--no-http"])
        #expect(full.status == 1)
        #expect(
            full.error.contains(
                "the PostgreSQL serving \(root)/pg (postmaster pid \(unmarked)) is not an orphan: its connections "
                    + "cannot be counted"), "\(full.error)")
        #expect(!full.error.contains("orphaned"))
        #expect(try holder.queryValue("SELECT 1", as: Int.self) == 1)
        holder.close()
        try runAsServerUser(
            try PostgresBinaries.locate().pgCtl, ["stop", "-D", root + "/pg", "-m", "fast", "-w", "-s"])

        // A live process holding a lock on a file inside the directory (a daemon that locked only its lock file,
        // since moved) keeps any other daemon out.
        let held = open(root + "/failed/barkeepd.lock", O_RDWR | O_CLOEXEC)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }
        let locked = try Subprocess.run(barkeepd, ["--data-dir", root, "--listen", "127.0.0.1:0", "--no-http"])
        #expect(locked.status == 1)
        #expect(
            locked.error.contains(
                "another barkeepd is using \(root): \(try #require(ProcessRecord.current)) holds a lock on "
                    + "\(root)/failed/barkeepd.lock"), "\(locked.error)")
        #expect(!cluster.isRunning())
    }

    @Test("external database: --database-url is used as is, and the schema is migrated there")
    func externalDatabase() throws {
        let configuration = try TestDatabase.makeDatabase()
        let database = try #require(configuration.database)
        let url = configuration.conninfo + " dbname=\(database)"
        let root = try TemporaryDirectory.make(prefix: "barkeep-e2e")

        let (daemon, port) = try startDaemon(["--data-dir", root, "--database-url", url])
        #expect(daemon.errorOutput.contains("database=external"))
        #expect(try ping(["--server", "127.0.0.1:\(port)"]) == (0, "PONG\n", ""))
        // SIGHUP (a closed terminal) stops the daemon gracefully too.
        daemon.signal(SIGHUP)
        #expect(daemon.wait(timeout: .seconds(30)) == 0)
        #expect(daemon.errorOutput.contains("signal=SIGHUP"))

        let connection = try PostgresConnection(configuration: configuration)
        #expect(try Migrator().currentVersion(connection) == Migrator().latestVersion)
        #expect(!FileManager.default.fileExists(atPath: root + "/pg"))
    }

    /// One HTTP/1.0 GET to 127.0.0.1:`port`: the whole response.
    private func httpGet(_ path: String, port: UInt16) throws -> String {
        let client = try LineClient(port: port)
        try client.send("GET \(path) HTTP/1.0\r\nHost: localhost\r\n\r\n")
        var response = ""
        while let line = try client.readLine() { response += line + "\n" }
        return response
    }

    @Test("--metrics-listen serves the counters as Prometheus text; other paths are 404; off by default")
    func metrics() throws {
        let configuration = try TestDatabase.makeDatabase()
        let url = configuration.conninfo + " dbname=\(configuration.database ?? "")"
        let root = try TemporaryDirectory.make(prefix: "barkeep-metrics")
        let (daemon, port) = try startDaemon([
            "--data-dir", root, "--database-url", url, "--metrics-listen", "127.0.0.1:0",
        ])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.wait(timeout: .seconds(30))
        }
        let ready = daemon.errorOutput.split(separator: "\n").first { $0.contains("msg=ready") } ?? ""
        let field = ready.split(separator: " ").first { $0.hasPrefix("metrics=") } ?? ""
        let metricsPort = try #require(UInt16(field.split(separator: ":").last ?? ""), "\(ready)")
        #expect(try ping(["--server", "127.0.0.1:\(port)"]) == (0, "PONG\n", ""))

        let response = try httpGet("/metrics", port: metricsPort)
        #expect(response.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(response.contains("Content-Type: text/plain; version=0.0.4"))
        #expect(response.contains("# TYPE barkeep_commands_total counter\n"))
        let accepted = response.split(separator: "\n").first { $0.hasPrefix("barkeep_connections_accepted_total ") }
        #expect(Int(accepted?.split(separator: " ").last ?? "") ?? 0 >= 1)
        #expect(response.contains("barkeep_pool_size 4\n"))
        #expect(response.contains("barkeep_build_info{version="))
        #expect(try httpGet("/", port: metricsPort).hasPrefix("HTTP/1.0 404 Not Found"))

        // Clients are served at once: three idle connections (each allowed 5 s) do not hold up a scrape.
        let idle = try (0..<3).map { _ in try LineClient(port: metricsPort) }
        let started = ContinuousClock.now
        #expect(try httpGet("/metrics", port: metricsPort).hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(ContinuousClock.now - started < .seconds(3))
        withExtendedLifetime(idle) {}

        // Sixteen clients trickling a request head, a header every quarter second: a scrape meanwhile ends the one
        // that has been sending the longest and is answered at once, and each of the others has 5 s for its whole
        // request, then 408.
        let tricklers = try (0..<16).map { _ in try LineClient(port: metricsPort) }
        for client in tricklers { try client.send("GET /metrics HTTP/1.0\r\n") }
        let connected = ContinuousClock.now
        let stop = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while stop.wait(timeout: .now() + 0.25) == .timedOut {
                for client in tricklers { try? client.send("X-Slow: 1\r\n") }
            }
            stopped.signal()
        }
        defer {
            stop.signal()
            stopped.wait()
        }
        #expect(
            eventually(.seconds(5)) {
                (try? httpGet("/metrics", port: metricsPort).hasPrefix("HTTP/1.0 200 OK")) == true
            })
        // The scrape got in before any trickler's 5 s could free a slot: by ending one (closed unanswered). The
        // others, trickling all along, are answered 408 (a deadline per read would never end them); one whose 408
        // meets its next header may read a reset instead.
        #expect(ContinuousClock.now - connected < .seconds(5))
        let firstLines = tricklers.map { (try? $0.readLine()) ?? nil }
        #expect(ContinuousClock.now - connected < .seconds(20))
        #expect(firstLines.filter { $0 == "HTTP/1.0 408 Request Timeout\r" }.count >= 12, "\(firstLines)")
        #expect(firstLines.allSatisfy { $0 == nil || $0 == "HTTP/1.0 408 Request Timeout\r" }, "\(firstLines)")

        // Without the option nothing else listens: the ready line names no metrics address.
        let plain = try TemporaryDirectory.make(prefix: "barkeep-metrics")
        let (other, _) = try startDaemon(["--data-dir", plain, "--database-url", url])
        defer {
            other.signal(SIGTERM)
            _ = other.wait(timeout: .seconds(30))
        }
        #expect(!other.errorOutput.contains("metrics="))
    }

    @Test("start-up failures say what is wrong and exit 1 or 64")
    func startupFailures() throws {
        let root = try TemporaryDirectory.make(prefix: "barkeep-e2e")
        let missing = try Subprocess.run(barkeepd, ["--data-dir", root, "--pg-bin", "/nonexistent/bin"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("--pg-bin /nonexistent/bin does not hold the PostgreSQL server programs"))

        let unreachable = try Subprocess.run(
            barkeepd,
            ["--data-dir", root, "--database-url", "host=/nonexistent port=1", "--database-wait", "1"]
        )
        #expect(unreachable.status == 1)
        #expect(unreachable.error.contains("cannot connect to PostgreSQL"))

        // A database that does not exist will not appear by waiting: no retries, whatever --database-wait says.
        let admin = try TestDatabase.makeDatabase()
        let started = ContinuousClock.now
        let noDatabase = try Subprocess.run(
            barkeepd,
            ["--data-dir", root, "--database-url", admin.conninfo + " dbname=no_such_db", "--database-wait", "60"]
        )
        #expect(noDatabase.status == 1)
        #expect(noDatabase.error.contains("no_such_db"))
        #expect(ContinuousClock.now - started < .seconds(20))

        // A malformed URL is a usage error, and its text (a password, maybe) is not repeated anywhere.
        let badURL = try Subprocess.run(
            barkeepd, ["--data-dir", root, "--database-url", "postgresql://app:S3cr%zz@db/x"])
        #expect(badURL.status == 64)
        #expect(badURL.error.contains("not a valid PostgreSQL URL"))
        #expect(!badURL.error.contains("S3cr"))

        let usage = try Subprocess.run(barkeepd, ["--listen", "nowhere"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("--listen"))
        let shortLease = try Subprocess.run(barkeepd, ["--source-lease", "1"])
        #expect(shortLease.status == 64)
        #expect(shortLease.error.contains("--source-lease must be a number of seconds from 3 to 3600"))
        let smallTotal = try Subprocess.run(barkeepd, ["--max-upload", "4096", "--max-upload-total", "4095"])
        #expect(smallTotal.status == 64)
        #expect(smallTotal.error.contains("--max-upload-total must be a number of bytes from 4096 to 1099511627776"))
        let noTimeout = try Subprocess.run(barkeepd, ["--upload-timeout", "0"])
        #expect(noTimeout.status == 64)
        #expect(noTimeout.error.contains("--upload-timeout must be a number of seconds from 1 to 3600"))
        let shortSession = try Subprocess.run(barkeepd, ["--session-lifetime", "59"])
        #expect(shortSession.status == 64)
        let lifetimes = SessionLimit.lifetimeSeconds
        #expect(
            shortSession.error.contains(
                "--session-lifetime must be a number of seconds from \(lifetimes.lowerBound) to \(lifetimes.upperBound)"
            ))
        for url in ["ftp://barkeep.example.com", "https://", "barkeep.example.com", "https://x.example/?a=1"] {
            let badPublicURL = try Subprocess.run(barkeepd, ["--public-url", url])
            #expect(badPublicURL.status == 64, "\(url)")
            #expect(badPublicURL.error.contains("--public-url must be an http:// or https:// URL"), "\(url)")
        }
        let badRescan = try Subprocess.run(barkeepd, ["--source-rescan", "10m"])
        #expect(badRescan.status == 64)
        #expect(badRescan.error.contains("--source-rescan"))
        let unknown = try Subprocess.run(barkeepd, ["--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("unknown option '--frobnicate'"))
    }
}
