// barkeep-web-bench: the web dashboard at team scale, against a PING (and the project's STATUS) over the line
// protocol measured in the same run.
//
// Generates the project barkeep-status-bench measures (BenchProject: 1,000 screens, 100,000 findings, 20,000 items,
// 12,000 step states, 16,000 pose results), starts barkeepd with its HTTP listener, makes a reader and a writer
// token, signs in through the form (POST /signin) for a session cookie, and on one kept-alive HTTP connection and
// one line connection sends, in turn, PING, STATUS and the other requests behind the pages (BLOCKED, BURNDOWN,
// SCREEN SHOW), the overview, a screen's page, the findings page and the overview's `<main>` alone (what a live
// page refetches): the median and p99 of each over `--rounds` rounds (none begun after `--seconds`), their ratios to PING and to STATUS, and each
// answer's size. Then, when `--script` names scripts/web_bench.py, runs it (with `--python`) against the same
// daemon: the overview in headless Chromium (DOMContentLoaded and the document's transferSize from Navigation
// Timing), and live updates (SSE clients and one browser page, FINDING SET over the line protocol, the time from
// the write to each client's event and refreshed page). Uses an embedded PostgreSQL cluster in a temporary
// directory unless BARKEEP_BENCH_DATABASE_URL is set.
//
// Usage: barkeep-web-bench [--rounds N] [--seconds S] [--screens N] [--findings N] [--poses N]
//                          [--python PATH --script PATH [--clients N] [--writes N] [--loads N]]
import BarkeepBenchSupport
import BarkeepProtocol
import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Settings {
    var rounds = 200
    var seconds = 60.0
    var size = BenchProject.Size()
    var python: String?
    var script: String?
    var clients = 100
    var writes = 3
    var loads = 5

    init(_ arguments: [String]) {
        var words = arguments[...]
        while let word = words.popFirst() {
            let value = words.first
            switch word {
            case "--rounds": rounds = Int(value ?? "") ?? rounds
            case "--seconds": seconds = Double(value ?? "") ?? seconds
            case "--screens": size.screens = Int(value ?? "") ?? size.screens
            case "--findings": size.findings = Int(value ?? "") ?? size.findings
            case "--poses": size.poses = Int(value ?? "") ?? size.poses
            case "--python": python = value
            case "--script": script = value
            case "--clients": clients = Int(value ?? "") ?? clients
            case "--writes": writes = Int(value ?? "") ?? writes
            case "--loads": loads = Int(value ?? "") ?? loads
            default: continue
            }
            _ = words.popFirst()
        }
    }
}

/// One kind of request of the alternating rounds: what it is called and how it is sent.
struct Probe {
    var label: String
    var send: () throws -> Int
    var times: [Double] = []
    var bytes = 0
}

func run() throws {
    let settings = Settings(Array(CommandLine.arguments.dropFirst()))
    let bench = try BenchDaemon(name: "barkeep-web-bench")
    defer { bench.stop() }
    let project = "web-bench"
    let size = settings.size
    print(
        "Generating \(size.screens) screens, \(size.findings) findings (+\(size.findings / 5) items), "
            + "\(size.screens * 12) step states, \(size.poses) pose results…")
    let generation = try milliseconds { try BenchProject.generate(size, project: project, on: bench.connection) }
    print(String(format: "generated in %.1f s", generation / 1000))
    fflush(nil)

    let httpPort = try freePort()
    let line = try bench.start(["--http", "127.0.0.1:\(httpPort)"])
    // Tokens made directly in the store, as an admin would with barkeep token create: a reader for the pages and
    // the line protocol's reads, a writer for the live part's FINDING SET.
    let reader = try TokenStore.create(name: "web-reader", role: .reader, actor: "bench", on: bench.connection).secret
    let writer = try TokenStore.create(name: "web-writer", role: .writer, actor: "bench", on: bench.connection).secret
    _ = try line.request("HELLO protocol=\(ProtocolVersion.current) token=\(reader)")

    // Signed in through the form, as a person is: the session cookie the pages are then asked with.
    var http: HTTPConnection?
    for _ in 0..<100 where http == nil {
        http = try? HTTPConnection(port: httpPort)
        if http == nil { usleep(100_000) }
    }
    guard let http else { throw BenchError("the HTTP listener did not answer; see \(bench.root)/barkeepd.err") }
    let signIn = try http.request(
        "POST", "/signin", fields: [("Content-Type", "application/x-www-form-urlencoded")],
        body: Array("token=\(reader)&next=%2F".utf8))
    guard signIn.status == 303, let setCookie = signIn.value("set-cookie"),
        let cookie = setCookie.split(separator: ";").first.map(String.init)
    else { throw BenchError("sign-in failed: \(signIn.status)") }

    let screen = "Screen0001"
    let pages = [
        ("overview", "/projects/\(project)", [("Cookie", cookie)]),
        ("screen page", "/projects/\(project)/screens/\(screen)", [("Cookie", cookie)]),
        ("findings page", "/projects/\(project)/findings", [("Cookie", cookie)]),
        ("overview <main>", "/projects/\(project)", [("Cookie", cookie), ("X-Barkeep-Part", "main")]),
    ]
    func lineProbe(_ label: String, _ request: String) -> Probe {
        Probe(label: label) {
            let reply = try line.request(request)
            guard reply.last?.hasPrefix("OK") == true else { throw BenchError("\(request): \(reply.last ?? "")") }
            return reply.reduce(0) { $0 + $1.utf8.count + 1 }
        }
    }
    // The pages' data over the line protocol: the overview runs STATUS, BLOCKED and BURNDOWN; the screen page
    // SCREEN SHOW and BLOCKED.
    var probes = [
        lineProbe("PING", "PING"), lineProbe("STATUS", "STATUS \(project)"),
        lineProbe("BLOCKED", "BLOCKED \(project)"), lineProbe("BURNDOWN", "BURNDOWN \(project)"),
        lineProbe("SCREEN SHOW", "SCREEN SHOW \(project) \(screen)"),
    ]
    for (label, path, fields) in pages {
        probes.append(
            Probe(label: label) {
                let answer = try http.request("GET", path, fields: fields)
                guard answer.status == 200 else { throw BenchError("GET \(path): \(answer.status)") }
                return answer.body.count
            })
    }
    // Warm: the kept STATUS reply, the daemon's and PostgreSQL's caches. A page that takes over three seconds (the
    // findings page while FINDINGS has no paging: every finding needing work on one page) is timed a few times on
    // its own rather than in every round, to keep the run in minutes.
    var slow: [Probe] = []
    for index in probes.indices.reversed() {
        let send = probes[index].send
        var first = 0.0
        first = try milliseconds { probes[index].bytes = try send() }
        if first > 3000 {
            var probe = probes.remove(at: index)
            probe.times = [first] + (try (0..<2).map { _ in try milliseconds { _ = try send() } })
            slow.append(probe)
            continue
        }
        for _ in 0..<3 { probes[index].bytes = try send() }
    }
    // At most `--rounds` rounds, and none begun after `--seconds`: at this size a round of the pages takes seconds.
    let deadline = ContinuousClock.now + .milliseconds(Int(settings.seconds * 1000))
    var rounds = 0
    while rounds < settings.rounds, rounds < 5 || ContinuousClock.now < deadline {
        rounds += 1
        for index in probes.indices {
            let send = probes[index].send
            probes[index].times.append(try milliseconds { _ = try send() })
        }
    }
    let ping = probes[0].times
    let status = probes[1].times
    print("")
    print("request             median       p99      bytes  ×PING median  ×PING p99  ×STATUS median")
    print("(\(rounds) rounds, each request once a round; one line connection, one kept-alive HTTP one)")
    for probe in probes {
        print(
            probe.label.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(
                    format: " %8.3f ms %8.3f ms %10d %12.0f× %9.0f× %14.1f×",
                    percentile(probe.times, 0.5), percentile(probe.times, 0.99), probe.bytes,
                    percentile(probe.times, 0.5) / percentile(ping, 0.5),
                    percentile(probe.times, 0.99) / percentile(ping, 0.99),
                    percentile(probe.times, 0.5) / percentile(status, 0.5)))
    }
    for probe in slow {
        print(
            probe.label.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(
                    format: " %8.0f ms (median of %d; over 3 s, so not in the rounds) %10d bytes; ×PING %.0f×",
                    percentile(probe.times, 0.5), probe.times.count, probe.bytes,
                    percentile(probe.times, 0.5) / percentile(ping, 0.5)))
    }
    if let daemon = bench.pid, let overview = probes.first(where: { $0.label == "overview" }) {
        let pings = 3000
        let pingCPU = try cpuMilliseconds(of: daemon) { for _ in 0..<pings { _ = try probes[0].send() } }
        let overviewCPU = try cpuMilliseconds(of: daemon) { for _ in 0..<10 { _ = try overview.send() } }
        print(
            String(
                format: "barkeepd CPU per request: PING %.3f ms (%d), overview %.3f ms (%d), ratio %.0f×",
                pingCPU / Double(pings), pings, overviewCPU / 10, 10,
                (overviewCPU / 10) / max(pingCPU / Double(pings), 0.001)))
    }
    fflush(nil)

    guard let script = settings.script, let python = settings.python else { return }
    // Proposed findings (every tenth from 2 on: BenchProject's statuses) for the live part's writes to approve.
    let numbers = (0..<settings.writes).map { String(2 + 10 * $0) }.joined(separator: ",")
    // Foundation's Process: the script writes to this program's own standard output and error.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: python)
    child.arguments = [
        script, "--http-port", String(httpPort), "--line-port", String(bench.port), "--project", project,
        "--reader", reader, "--writer", writer, "--clients", String(settings.clients), "--findings", numbers,
        "--loads", String(settings.loads),
    ]
    try child.run()
    child.waitUntilExit()
    let code = child.terminationStatus
    guard code == 0 else { throw BenchError("\(script) failed (exit \(code))") }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("barkeep-web-bench: \(error)\n".utf8))
    exit(1)
}
