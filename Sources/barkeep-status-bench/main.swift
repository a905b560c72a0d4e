// barkeep-status-bench: the dashboard's STATUS at team scale, against a PING round trip measured in the same run.
//
// Generates a project of 1,000 screens, 100,000 findings (scanner findings over the screens' files and a few hundred
// unmapped; items by hand, some blocked on the SDK), 12,000 step states and 16,000 pose results directly in PostgreSQL,
// starts barkeepd on that database, and sends STATUS and PING alternately on one TCP connection: prints the median and
// p99 of each and their ratio (STATUS answered from the reply the daemon keeps while the project's status version is
// unchanged, Schema/0017), in the CLI's protocol (compact records) and, on a second connection, in protocol 2 (every
// counter), with the byte size of each form; then STATUS with the version changed before each request (uncached: the
// reply built from the summaries), and the first STATUS; then how many kept replies the daemon answered on its event
// loop and through the pool (STATS); then the daemon's CPU time per request of each (from
// /proc/PID/stat, over PINGs alone and STATUS alone), and the plan of each statement STATUS runs (EXPLAIN ANALYZE) and
// whether any reads the findings table sequentially (it must not). Uses an embedded PostgreSQL cluster in a temporary
// directory unless BARKEEP_BENCH_DATABASE_URL is set.
//
// Usage: barkeep-status-bench [--rounds N] [--screens N] [--findings N] [--poses N] [--plans]
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Settings {
    var rounds = 300
    var screens = 1_000
    var findings = 100_000
    var poses = 16_000
    var printsPlans = false

    init(_ arguments: [String]) {
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--plans": printsPlans = true
            case "--rounds": rounds = Int(words.popFirst() ?? "") ?? rounds
            case "--screens": screens = Int(words.popFirst() ?? "") ?? screens
            case "--findings": findings = Int(words.popFirst() ?? "") ?? findings
            case "--poses": poses = Int(words.popFirst() ?? "") ?? poses
            default: break
            }
        }
    }
}

/// Fills project `name` with the generated audit, set-based.
func generate(_ settings: Settings, project name: String, on connection: PostgresConnection) throws {
    let project = try ProjectStore.create(
        name: name, sdk: "27.0", deploymentTarget: "26.0", actor: "bench", on: connection)
    let id = project.id
    try connection.transaction { connection in
        try connection.query(
            """
            INSERT INTO screens (project_id, key, owner)
            SELECT $1, 'Screen' || lpad(i::text, 4, '0'), 'owner' || (i % 20) FROM generate_series(1, $2::int) AS i
            """,
            [id, settings.screens]
        )
        try connection.query(
            """
            INSERT INTO screen_paths (project_id, screen_id, glob)
            SELECT project_id, id, 'Sources/' || key || '/**' FROM screens WHERE project_id = $1
            """,
            [id]
        )
        guard
            let run = try connection.queryValue(
                """
                INSERT INTO scan_runs (project_id, format, tool, tool_version, digest, files_scanned, new_count, actor,
                                       lifecycle)
                VALUES ($1, 'duo-scan', 'duo_scan', '1.2.2', repeat('0', 64), $2, $2, 'bench', 'scene') RETURNING id
                """,
                [id, settings.findings],
                as: Int64.self
            )
        else { return }
        // 1 in 200 findings is outside every screen; statuses: mostly proposed, some approved, applied, verified,
        // fixed and declined.
        try connection.query(
            """
            INSERT INTO findings (project_id, source, tool, rule, file, normalized_snippet, occurrence, identity, line,
                                  snippet, severity, screen_id, status, reason, first_seen_run, last_seen_run, number)
            SELECT $1, 'scanner', 'duo_scan', (ARRAY['DUO001', 'DUO002', 'DUO004', 'DUO007', 'DUO011'])[i % 5 + 1],
                   CASE WHEN i % 200 = 0 THEN 'Vendor/Lib' || (i % 50) || '.swift'
                        ELSE 'Sources/' || s.key || '/File' || (i % 7) || '.swift' END,
                   'x' || i, 0, encode(sha256(i::text::bytea), 'hex'), i % 500 + 1, 'let x = ' || i,
                   (ARRAY['critical', 'high', 'medium', 'low', 'info'])[i % 5 + 1],
                   CASE WHEN i % 200 = 0 THEN NULL ELSE s.id END,
                   (ARRAY['proposed', 'proposed', 'proposed', 'proposed', 'approved', 'applied', 'verified', 'fixed',
                          'declined', 'proposed'])[i % 10 + 1],
                   CASE WHEN i % 10 = 8 THEN 'kept on purpose' END, $2, $2, i
            FROM generate_series(1, $3::int) AS i
            JOIN screens s ON s.project_id = $1 AND s.key = 'Screen' || lpad((i % $4::int + 1)::text, 4, '0')
            """,
            [id, run, settings.findings, settings.screens]
        )
        // Items by hand: two per ten screens, one in three needing a 27.1 symbol and so blocked.
        try connection.query(
            """
            INSERT INTO findings (project_id, source, title, step, severity, screen_id, status, reason,
                                  status_before_block, needs_symbols, number)
            SELECT $1, 'manual', 'Item ' || i, i % 12 + 1, 'medium', s.id,
                   CASE WHEN i % 3 = 0 THEN 'blocked' ELSE 'proposed' END,
                   CASE WHEN i % 3 = 0 THEN 'needs the iOS 27.1 SDK (axisBehavior)' END,
                   CASE WHEN i % 3 = 0 THEN 'proposed' END,
                   CASE WHEN i % 3 = 0 THEN ARRAY['axisBehavior'] ELSE '{}' END, $2::int + i
            FROM generate_series(1, $2::int / 5) AS i
            JOIN screens s ON s.project_id = $1 AND s.key = 'Screen' || lpad((i * 5 % $3::int + 1)::text, 4, '0')
            """,
            [id, settings.findings, settings.screens]
        )
        try connection.query(
            "UPDATE projects SET findings_numbered = (SELECT max(number) FROM findings WHERE project_id = $1) WHERE id = $1",
            [id]
        )
        try connection.query(
            """
            INSERT INTO step_states (project_id, screen_id, step, state, actor)
            SELECT $1, s.id, step, (ARRAY['todo', 'done', 'done', 'not_applicable'])[(s.id + step) % 4 + 1], 'bench'
            FROM screens s CROSS JOIN generate_series(1, 12) AS step WHERE s.project_id = $1
            """,
            [id]
        )
        // Each screen's share of the pose results: its required poses in turn, later results superseding earlier.
        try connection.query(
            """
            INSERT INTO pose_results (project_id, screen_id, pose, result, reason, actor)
            SELECT $1, s.id, (ARRAY['P1', 'P2', 'P3', 'P4', 'P11', 'P12'])[k % 6 + 1],
                   CASE WHEN (s.id + k) % 9 = 0 THEN 'not_run' ELSE 'passed' END,
                   CASE WHEN (s.id + k) % 9 = 0 THEN 'no device' END, 'bench'
            FROM screens s CROSS JOIN generate_series(0, $2::int / $3::int - 1) AS k WHERE s.project_id = $1
            """,
            [id, settings.poses, settings.screens]
        )
    }
    // As autovacuum would after a load: statistics, and a visibility map for index-only scans.
    for table in ["findings", "screens", "screen_paths", "step_states", "pose_results", "scan_runs"] {
        try connection.query("VACUUM ANALYZE \(table)")
    }
}

/// One TCP connection sending a line and reading its whole reply.
final class LineConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw BenchError("cannot connect to 127.0.0.1:\(port)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `line` and returns the reply's lines, the final one last.
    func request(_ line: String) throws -> [String] {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw BenchError("send failed") }
            sent += count
        }
        var lines: [String] = []
        // Lines are read from `start` on and the buffer compacted once per chunk: removing each line from the
        // front would move the rest of a 64 KiB chunk for every line of a large reply.
        var start = 0
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let text = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                lines.append(text)
                if text.hasPrefix("OK") || text.hasPrefix("ERR") {
                    buffer.removeSubrange(..<start)
                    return lines
                }
                continue
            }
            buffer.removeSubrange(..<start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw BenchError("the daemon closed the connection") }
            buffer += chunk[..<count]
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

/// The CPU time (user and system, milliseconds) process `pid` spends while `body` runs, from /proc/PID/stat.
func cpuMilliseconds(of pid: pid_t, _ body: () throws -> Void) throws -> Double {
    func ticks() throws -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { throw BenchError("cannot read /proc/\(pid)/stat") }
        // After the command's closing parenthesis: state is field 3, utime field 14, stime field 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("cannot parse /proc/\(pid)/stat")
        }
        return user + system
    }
    let before = try ticks()
    try body()
    return (try ticks() - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The times of `rounds` PINGs and as many `line` requests, alternately on `client`; `before` runs (untimed)
/// before each `line`.
func alternating(
    _ rounds: Int, _ client: LineConnection, _ line: String, before: () throws -> Void = {}
) throws -> (ping: [Double], other: [Double]) {
    var ping: [Double] = []
    var other: [Double] = []
    for _ in 0..<rounds {
        try before()
        ping.append(try milliseconds { _ = try client.request("PING") })
        other.append(try milliseconds { _ = try client.request(line) })
    }
    return (ping, other)
}

/// Prints the median and p99 of `times` and the ratio of the median to that of the `ping` times taken beside them.
func printAlternating(_ label: String, _ times: [Double], ping: [Double]) {
    print(
        label
            + String(
                format: ": median %.3f ms, p99 %.3f ms; PING median %.3f ms; ratio median %.0f×",
                percentile(times, 0.5), percentile(times, 0.99), percentile(ping, 0.5),
                percentile(times, 0.5) / percentile(ping, 0.5)))
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

func freePort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw BenchError("no free port") }
    return UInt16(bigEndian: address.sin_port)
}

func run() throws {
    let settings = Settings(Array(CommandLine.arguments.dropFirst()))
    let root = FileManager.default.temporaryDirectory.path + "/barkeep-status-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    chmod(root, 0o755)
    var cluster: PostgresCluster?
    var daemon: pid_t?
    defer {
        if let daemon {
            kill(daemon, SIGTERM)
            _ = try? ProcessSpawner.wait(for: daemon)
        }
        try? cluster?.stop()
        try? FileManager.default.removeItem(atPath: root)
    }
    let configuration: PostgresConfiguration
    if let url = ProcessInfo.processInfo.environment["BARKEEP_BENCH_DATABASE_URL"], !url.isEmpty {
        configuration = PostgresConfiguration(conninfo: url)
    } else {
        let embedded = try PostgresCluster.startPrivate(in: root, database: "bench")
        cluster = embedded
        configuration = embedded.configuration(database: "bench")
    }
    let connection = try PostgresConnection(configuration: configuration)
    try Migrator().migrate(connection)
    let project = "status-bench-\(getpid())"
    print(
        "Generating \(settings.screens) screens, \(settings.findings) findings (+\(settings.findings / 5) items), "
            + "\(settings.screens * 12) step states, \(settings.poses) pose results…")
    let generation = try milliseconds { try generate(settings, project: project, on: connection) }
    print(String(format: "generated in %.1f s", generation / 1000))
    fflush(nil)

    let port = try freePort()
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("barkeepd").path
    var conninfo = configuration.conninfo
    if let database = configuration.database { conninfo += " dbname=\(database)" }
    daemon = try ProcessSpawner.spawn(
        [
            executable, "--data-dir", root + "/daemon", "--database-url", conninfo, "--listen", "127.0.0.1:\(port)",
            "--log-level", "warning",
        ],
        standardOutput: root + "/barkeepd.out", standardError: root + "/barkeepd.err")
    var client: LineConnection?
    for _ in 0..<200 where client == nil {
        client = try? LineConnection(port: port)
        if client == nil { usleep(100_000) }
    }
    guard let client else { throw BenchError("barkeepd did not start; see its log") }

    // Over TCP a token is needed: made directly in the store, as an admin would with barkeep token create.
    let token = try TokenStore.create(name: "bench", role: .reader, actor: "bench", on: connection).secret
    // The CLI's protocol (compact STATUS records, CompactRecords); a second connection speaks protocol 2, whose
    // records hold every counter, to compare the two forms.
    _ = try client.request("HELLO protocol=\(ProtocolVersion.current) token=\(token)")
    let fullClient = try LineConnection(port: port)
    _ = try fullClient.request("HELLO protocol=\(ProtocolVersion.assumed) token=\(token)")
    var reply: [String] = []
    let first = try milliseconds { reply = try client.request("STATUS \(project)") }
    guard reply.last?.hasPrefix("OK") == true else { throw BenchError("STATUS failed: \(reply.last ?? "")") }
    let fullReply = try fullClient.request("STATUS \(project)")
    func size(_ lines: [String]) -> Int { lines.reduce(0) { $0 + $1.utf8.count + 1 } }
    print(
        "STATUS returns \(reply.count - 1) records, \(size(reply)) bytes in protocol \(ProtocolVersion.current), "
            + "\(size(fullReply)) bytes in protocol \(ProtocolVersion.assumed); "
            + String(format: "the first took %.3f ms", first))
    for _ in 0..<20 {
        _ = try client.request("STATUS \(project)")
        _ = try fullClient.request("STATUS \(project)")
    }

    let (ping, status) = try alternating(settings.rounds, client, "STATUS \(project)")
    print("")
    print("request   median      p99  (\(settings.rounds) each, alternating, one connection)")
    print(String(format: "PING    %8.3f ms %8.3f ms", percentile(ping, 0.5), percentile(ping, 0.99)))
    print(String(format: "STATUS  %8.3f ms %8.3f ms", percentile(status, 0.5), percentile(status, 0.99)))
    print(
        String(
            format: "ratio STATUS / PING: median %.0f×, p99 %.0f×",
            percentile(status, 0.5) / percentile(ping, 0.5), percentile(status, 0.99) / percentile(ping, 0.99)))
    let (fullPing, full) = try alternating(settings.rounds, fullClient, "STATUS \(project)")
    printAlternating("protocol \(ProtocolVersion.assumed) (every counter) STATUS", full, ping: fullPing)
    // Which way the kept replies went: answered on the event loop after its own version lookup, or the pool's way.
    if let line = try client.request("STATS").first, let stats = try? Record(parsing: line) {
        print(
            "kept STATUS so far: \(stats["status-kept-loop"] ?? "?") on the event loop, "
                + "\(stats["status-kept-pool"] ?? "?") through the pool")
    }

    // What the daemon itself spends, from its CPU time in /proc: wall times on a shared machine also hold the time
    // spent waiting for a core.
    if let daemon {
        let pings = settings.rounds * 10
        let pingCPU = try cpuMilliseconds(of: daemon) { for _ in 0..<pings { _ = try client.request("PING") } }
        let statusCPU = try cpuMilliseconds(of: daemon) {
            for _ in 0..<settings.rounds { _ = try client.request("STATUS \(project)") }
        }
        print(
            String(
                format: "barkeepd CPU per request: PING %.3f ms (%d), STATUS %.3f ms (%d), ratio %.0f×",
                pingCPU / Double(pings), pings, statusCPU / Double(settings.rounds), settings.rounds,
                (statusCPU / Double(settings.rounds)) / max(pingCPU / Double(pings), 0.001)))
    }

    // Uncached: before each STATUS (not timed) the project's status version changes, as a write of anything STATUS
    // shows would change it, so each STATUS reads the summaries and builds its reply.
    guard let projectID = try ProjectStore.find(project, on: connection)?.id else { throw BenchError("no project") }
    let (uncachedPing, uncached) = try alternating(max(1, settings.rounds / 5), client, "STATUS \(project)") {
        try connection.query("SELECT barkeep_status_changed(ARRAY[$1::bigint])", [projectID])
    }
    printAlternating(
        "uncached STATUS (status version changed before each, \(uncached.count))", uncached, ping: uncachedPing)

    // Where a kept reply's time goes: the version lookup alone, in process; and a kept STATUS of one screen row
    // (the reply's size apart), beside PING.
    var lookups: [Double] = []
    for _ in 0..<settings.rounds {
        lookups.append(try milliseconds { _ = try StatusStore.version(project: project, on: connection) })
    }
    let (smallPing, small) = try alternating(settings.rounds, client, "STATUS \(project) limit=1")
    print(
        String(
            format: "status version lookup in process: median %.3f ms; STATUS limit=1 (kept, %d): median %.3f ms, "
                + "PING %.3f ms, ratio %.0f×",
            percentile(lookups, 0.5), small.count, percentile(small, 0.5), percentile(smallPing, 0.5),
            percentile(small, 0.5) / percentile(smallPing, 0.5)))

    var direct: [Double] = []
    for _ in 0..<10 { direct.append(try milliseconds { _ = try StatusStore.status(project: project, on: connection) }) }
    print(String(format: "StatusStore.status in process, no protocol: median %.3f ms", percentile(direct, 0.5)))

    let plans = try StatusStore.plans(project: project, on: connection)
    let sequential = plans.filter { $0.plan.contains("Seq Scan on findings") }
    print("")
    print(
        sequential.isEmpty
            ? "No statement of STATUS reads findings sequentially (\(plans.count) statements explained)."
            : "\(sequential.count) statement(s) of STATUS read findings sequentially!")
    if settings.printsPlans || !sequential.isEmpty {
        for (statement, plan) in plans {
            print("\n" + statement.split(separator: "\n").map { "-- " + $0 }.joined(separator: "\n"))
            print(plan)
        }
    }
    fflush(nil)
    if !sequential.isEmpty { throw BenchError("a sequential scan of findings on the STATUS path") }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("barkeep-status-bench: \(error)\n".utf8))
    exit(1)
}
