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
import BarkeepBenchSupport
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

func run() throws {
    let settings = Settings(Array(CommandLine.arguments.dropFirst()))
    let bench = try BenchDaemon(name: "barkeep-status-bench")
    defer { bench.stop() }
    let connection = bench.connection
    let project = "status-bench-\(getpid())"
    let projectSize = BenchProject.Size(
        screens: settings.screens, findings: settings.findings, poses: settings.poses)
    print(
        "Generating \(settings.screens) screens, \(settings.findings) findings (+\(settings.findings / 5) items), "
            + "\(settings.screens * 12) step states, \(settings.poses) pose results…")
    let generation = try milliseconds { try BenchProject.generate(projectSize, project: project, on: connection) }
    print(String(format: "generated in %.1f s", generation / 1000))
    fflush(nil)

    let client = try bench.start()
    let port = bench.port

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
    if let daemon = bench.pid {
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
