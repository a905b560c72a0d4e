// barkeep-sync-bench: the cost of a full scanner sync against a baseline measured in the same run.
//
// For each size (10,000, 100,000 and 1,000,000 findings by default) it generates a duo_scan file, then:
// - baseline: the same decoder parses a churned file, and its rows go by raw COPY into an unindexed table;
// - sync: the file is ingested into a fresh project (the initial import), then a churned scan that gives the history
//   its first fix (not timed), then three more with the churn of a real history (3% new, 3% fixed, 1% reopened, a
//   tenth moved, 1% changed), then three scans of a commit that changed no finding (the same findings, other
//   bytes); each a full parse, identify, plan and apply.
// It prints each time, the ratios churned sync / baseline and no-change sync / baseline, and the cost per finding.
// Then the parse alone: the streaming DuoScanParser against JSONSerialization building its object tree of the same
// file (what the parser did before it read any field), median of three each. Then attribution: the same initial
// import into a fresh project that already has 1,000 screens (one glob each: literal files, `*`, `**/` and whole
// feature directories), against the initial import above (no screens); and 100 more screens added one at a time to
// that full project (each re-attributes the findings under its glob), against one full re-attribution of the
// project; then the time to delete that project. Uses an embedded PostgreSQL cluster in a temporary directory (fsync
// on, as barkeepd runs it) unless BARKEEP_BENCH_DATABASE_URL is set.
//
// With --check, only a check (CHECK) of each churned scan against the sync of the same scan (100,000 findings by
// default), as a ratio of medians.
//
// With --history, an audit that ages instead (History.swift): 1,000 daily syncs of a 10,000-finding project with the
// churn of a real history, its sync and STATUS times and the database's size at syncs 10, 100 and 1,000, and the
// curve as an SVG with --svg FILE. A mode of this benchmark rather than one of its own: it ingests as this one does,
// on the same embedded cluster, and prints the same counters (SyncWrites).
//
// Usage: barkeep-sync-bench [--check] [SIZE …]
//        barkeep-sync-bench --history [--findings N] [--syncs N] [--svg FILE]
import BarkeepBenchSupport
import BarkeepCore
import BarkeepHashing
import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A synthetic scan: `count` findings over count/40 files; `round` shifts what is present.
struct Workload {
    let count: Int
    private let rules = ["DUO001", "DUO002", "DUO004", "DUO007", "DUO011"]

    /// A finding's place among 100 keys, spread over files (37 is prime to 100): who is fixed, reopened or edited.
    private func key(_ index: Int) -> Int { index * 37 % 100 }

    /// The keys round `round` fixes: 3 of 100.
    private func fixedKeys(_ round: Int) -> Range<Int> { (10 + 3 * (round - 1))..<(10 + 3 * round) }

    /// Whether original finding `index` is in round `round`: not fixed by then, or fixed and reopened since.
    private func isPresent(_ index: Int, round: Int) -> Bool {
        guard round > 0 else { return true }
        return (1...round).allSatisfy { earlier in
            !fixedKeys(earlier).contains(key(index))
                || (key(index) == fixedKeys(earlier).lowerBound && earlier < round)
        }
    }

    /// The findings present in round `round` (0 = initial), with the churn the issue measured on a real history:
    /// per round 3% of the original findings fixed, a third of those the round before fixed reopened (1%), every
    /// finding of a tenth of the files moved down 3 lines, 1% edited in place (changed), 3% new (half in files that
    /// had findings, far below them; half in new files). What a round did stays so after it.
    func findings(round: Int) -> [(rule: String, file: String, line: Int, snippet: String)] {
        var result: [(String, String, Int, String)] = []
        result.reserveCapacity(count + count / 8)
        for index in 0..<count where isPresent(index, round: round) {
            let screen = index / 40
            let file = "Sources/Feature\(screen / 25)/Screen\(screen).swift"
            let moved = 3 * (0..<round).count { ($0 + 1) % 10 == screen % 10 }
            let edited = 50 < key(index) && key(index) <= 50 + round ? " // reviewed" : ""
            result.append(
                (
                    rules[index % rules.count], file, 10 + (index % 40) * 5 + moved,
                    "let v\(index % 40) = UIScreen.main.bounds\(edited)"
                ))
        }
        let perRound = count * 3 / 100
        for earlier in stride(from: 1, through: round, by: 1) {
            for number in 0..<perRound {
                let screen = (number * 7 + earlier) % (count / 40)
                let file =
                    number % 2 == 0
                    ? "Sources/Feature\(screen / 25)/Screen\(screen).swift"
                    : "Sources/New/Round\(earlier)/Screen\(number / 80).swift"
                let line = number % 2 == 0 ? 2_000 + earlier * perRound + number : 10 + (number / 2 % 40) * 5
                result.append(("DUO007", file, line, "UIToolbar() \(earlier) \(number)"))
            }
        }
        return result
    }

    /// The duo_scan file of round `round`; `extra` changes nothing but its bytes (`source_files_scanned`): a scan of
    /// a commit that changed no finding.
    func document(round: Int, extra: Int = 0) -> [UInt8] {
        AgingAudit.duoScanDocument(findings(round: round), filesScanned: count / 40 + extra)
    }
}

/// Screen `index`'s glob over the workload's files (`Sources/FeatureF/ScreenS.swift`, 25 files a feature): a
/// feature directory, a file, a file prefix, a file at any depth, a file under `**/`.
/// The request a benchmark ingests `document` with (parsed by the caller): digested as an upload is.
func benchRequest(_ document: [UInt8], project: String) -> IngestRequest {
    IngestRequest(
        ScanUpload(document), digest: SHA256Digest.hex(of: document), format: .duoScan, project: project,
        actor: "bench")
}

func screenGlob(_ index: Int) -> String {
    let feature = index / 10
    let file = feature * 25 + index % 10
    if index % 10 == 0 { return "Sources/Feature\(feature)/**" }
    switch index % 4 {
    case 0: return "Sources/Feature\(feature)/Screen\(file)*.swift"
    case 1: return "Sources/Feature\(feature)/Screen\(file).swift"
    case 2: return "Sources/Feature\(feature)/**/Screen\(file).swift"
    default: return "**/Screen\(file).swift"
    }
}

/// The initial import into a project with 1,000 screens against `plain` (the same import without screens), then
/// 100 screen adds against a full re-attribution; prints the figures, then drops the project, timed.
func attribution(count: Int, document: [UInt8], plain: Double, on connection: PostgresConnection) throws {
    let project = "screens\(count)"
    let created = try ProjectStore.create(
        name: project, sdk: nil, deploymentTarget: nil, actor: "bench", on: connection)
    for index in 0..<1_000 {
        _ = try ScreenStore.add(
            project: project, key: "S\(index)", title: nil, owner: nil, paths: [screenGlob(index)], actor: "bench",
            on: connection)
    }
    let imported = try seconds {
        _ = try ScanStore.ingest(
            benchRequest(document, project: project), parsing: { try DuoScanParser.parseTable(document) },
            on: connection)
    }
    let mapped =
        try connection.queryValue(
            "SELECT count(*) FROM findings WHERE project_id = $1 AND screen_id IS NOT NULL", [created.id],
            as: Int.self) ?? 0
    var adds: [Double] = []
    for index in 0..<100 {
        let feature = index % 100
        adds.append(
            try seconds {
                _ = try ScreenStore.add(
                    project: project, key: "Extra\(index)", title: nil, owner: nil,
                    paths: ["Sources/Feature\(feature)/Screen\(feature * 25 + 20)*.swift"], actor: "bench",
                    on: connection)
            })
    }
    let full = try seconds {
        try ScreenAttributionStore.reattribute(projectID: created.id, on: connection)
    }
    let add = adds.sorted()[adds.count / 2]
    print(
        String(
            format: "%-10d %8.2fs %8.2fs %6.2f  %7d  %8.1f ms %8.1f ms %6.3f",
            count, plain, imported, imported / plain, mapped, add * 1e3, full * 1e3, add / full
        ))
    fflush(nil)
    // A deletion that did work per finding or screen (migration 0031) shows here.
    let deletion = try seconds { try connection.query("DELETE FROM projects WHERE name = $1", [project]) }
    print(String(format: "           deleting the project (its findings and 1,000 screens): %.2fs", deletion))
    fflush(nil)
}

/// `--check`: a check (CHECK) of each churned scan against a sync of the same scan, each with its parse: the
/// project's initial import and its first churned sync are not timed; then, for rounds 2 to 4, a check of the
/// round's scan (recording its event), then the sync of it. Prints the medians and their ratio.
func checkAgainstSync(count: Int, on connection: PostgresConnection) throws {
    let workload = Workload(count: count)
    let documents = (0...4).map { workload.document(round: $0) }
    let project = "check\(count)"
    _ = try ProjectStore.create(name: project, sdk: nil, deploymentTarget: nil, actor: "bench", on: connection)
    for document in documents[0...1] {
        _ = try ScanStore.ingest(
            benchRequest(document, project: project), parsing: { try DuoScanParser.parseTable(document) },
            on: connection)
    }
    var checks: [Double] = []
    var syncs: [Double] = []
    var answers: [CheckCounts] = []
    for document in documents[2...4] {
        var outcome: CheckOutcome?
        checks.append(
            try seconds {
                outcome = try CheckStore.check(
                    CheckRequest(ScanUpload(document), format: .duoScan, project: project, actor: "bench"),
                    on: connection)
            })
        if let outcome { answers.append(outcome.counts) }
        syncs.append(
            try seconds {
                _ = try ScanStore.ingest(
                    benchRequest(document, project: project), parsing: { try DuoScanParser.parseTable(document) },
                    on: connection)
            })
    }
    let (check, sync) = (checks.sorted()[1], syncs.sorted()[1])
    print(
        String(
            format: "%-10d %8.2fs %8.2fs %8.2fs %8.2fs %8.2fs %8.2fs %6.2f", count, checks[0], checks[1], checks[2],
            syncs[0], syncs[1], syncs[2], check / sync))
    for (round, counts) in answers.enumerated() {
        print(
            "           round \(round + 2): new \(counts.new), reopened \(counts.reopened), changed \(counts.changed), "
                + "tracked \(counts.tracked), fixes \(counts.fixes)")
    }
    fflush(nil)
    try connection.query("DELETE FROM projects WHERE name = $1", [project])
}

/// The value after option `name`, if given.
func option(_ name: String, in arguments: ArraySlice<String>) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex else { return nil }
    return arguments[index + 1]
}

func run() throws {
    let arguments = CommandLine.arguments.dropFirst()
    let isCheck = arguments.contains("--check")
    let isHistory = arguments.contains("--history")
    let sizes = arguments.compactMap { Int($0) }
    let counts = sizes.isEmpty ? (isCheck ? [100_000] : [10_000, 100_000, 1_000_000]) : sizes

    var cluster: PostgresCluster?
    let configuration: PostgresConfiguration
    if let url = ProcessInfo.processInfo.environment["BARKEEP_BENCH_DATABASE_URL"], !url.isEmpty {
        configuration = PostgresConfiguration(conninfo: url)
    } else {
        let root = FileManager.default.temporaryDirectory.path + "/barkeep-sync-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chmod(root, 0o755)
        let embedded = try PostgresCluster.startPrivate(in: root, database: "bench")
        cluster = embedded
        configuration = embedded.configuration(database: "bench")
    }
    defer {
        if let cluster {
            try? cluster.stop()
            try? FileManager.default.removeItem(
                atPath: URL(fileURLWithPath: cluster.options.dataDirectory).deletingLastPathComponent().path)
        }
    }
    let connection = try PostgresConnection(configuration: configuration)
    try Migrator().migrate(connection)
    if isHistory {
        try history(
            findings: option("--findings", in: arguments).flatMap { Int($0) } ?? 10_000,
            syncs: option("--syncs", in: arguments).flatMap { Int($0) } ?? 1_000,
            svg: option("--svg", in: arguments), on: connection)
        return
    }
    if isCheck {
        print("size       check 2   check 3   check 4   sync 2    sync 3    sync 4    ratio (medians)")
        for count in counts { try checkAgainstSync(count: count, on: connection) }
        return
    }

    var initialImports: [(count: Int, document: [UInt8], time: Double)] = []
    print(
        "size       baseline  initial   sync 1    sync 2    sync 3    ratio  no change  ratio  per finding (sync, median)"
    )
    for count in counts {
        let workload = Workload(count: count)
        // Round 1 gives the history its first fix (what round 2 reopens) and is not timed; rounds 2-4 are.
        let documents = (0...4).map { workload.document(round: $0) }
        let unchanged = (1...3).map { workload.document(round: 4, extra: $0) }

        // Baseline: decode a churned file, COPY its rows into a table without indexes.
        try connection.query("DROP TABLE IF EXISTS baseline_rows")
        try connection.query(
            "CREATE UNLOGGED TABLE baseline_rows (rule text, file text, line int, snippet text, severity text, message text)"
        )
        var baselineTimes: [Double] = []
        for round in 2...4 {
            try connection.query("TRUNCATE baseline_rows")
            baselineTimes.append(
                try seconds {
                    let report = try DuoScanParser.parse(documents[round])
                    try connection.copyIn(
                        "COPY baseline_rows (rule, file, line, snippet, severity, message) FROM STDIN",
                        rows: report.findings.lazy.map {
                            [$0.rule, $0.file, String($0.line), $0.snippet, $0.severity, $0.message]
                        }
                    )
                }
            )
        }
        let baseline = baselineTimes.sorted()[1]

        let project = "bench\(count)"
        _ = try ProjectStore.create(name: project, sdk: nil, deploymentTarget: nil, actor: "bench", on: connection)
        var times: [Double] = []
        var counts: [SyncCounts] = []
        var writes: [SyncWrites] = []
        for document in documents + unchanged {
            var result: IngestResult?
            let before = try SyncWrites.reading(connection)
            let time = try seconds {
                result = try ScanStore.ingest(
                    benchRequest(document, project: project), parsing: { try DuoScanParser.parseTable(document) },
                    on: connection)
            }
            writes.append(try SyncWrites.reading(connection).since(before))
            times.append(time)
            if let result { counts.append(result.run.counts) }
        }
        initialImports.append((count, documents[0], times[0]))
        let median = times[2...4].sorted()[1]
        let still = times[5...7].sorted()[1]
        let line = String(
            format: "%-10d %8.2fs %8.2fs %8.2fs %8.2fs %8.2fs %6.2f  %8.2fs %6.2f  %.1f µs",
            count, baseline, times[0], times[2], times[3], times[4], median / baseline, still, still / baseline,
            median / Double(count) * 1e6
        )
        print(line)
        for (run, counts) in counts.enumerated().dropFirst() {
            print(
                "           run \(run + 1)\(run == 1 ? " (not timed)" : run > 4 ? " (no change)" : ""): "
                    + "new \(counts.new), "
                    + "fixed \(counts.fixed), reopened \(counts.reopened), changed \(counts.changed), "
                    + "unchanged \(counts.unchanged), moved \(counts.moved); " + writes[run].text
            )
        }
        // What a sync writes should follow what changed, not the project's size: PostgreSQL's own counters.
        let churnedWrites = writes[2...4].sorted { $0.walBytes < $1.walBytes }[1]
        let stillWrites = writes[5...7].sorted { $0.walBytes < $1.walBytes }[1]
        print(
            "           writes (median by WAL): first import \(writes[0].text); churned sync \(churnedWrites.text); "
                + "no-change sync \(stillWrites.text)")
        var streaming: [Double] = []
        var tree: [Double] = []
        for _ in 1...3 {
            streaming.append(try seconds { _ = try DuoScanParser.parseTable(documents[1]) })
            tree.append(try seconds { _ = try JSONSerialization.jsonObject(with: Data(documents[1])) })
        }
        let (parse, objects) = (streaming.sorted()[1], tree.sorted()[1])
        print(
            String(
                format: "           parse: streaming %.2fs, JSONSerialization tree %.2fs, ratio %.2f", parse, objects,
                parse / objects))
        fflush(nil)
        try connection.query("DELETE FROM projects WHERE name = $1", [project])
    }

    print()
    print("size       initial  1,000 screens ratio  mapped    screen add  full reattr  ratio")
    for (count, document, time) in initialImports {
        try attribution(count: count, document: document, plain: time, on: connection)
    }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("barkeep-sync-bench: \(error)\n".utf8))
    exit(1)
}
