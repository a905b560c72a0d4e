import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Synchronization
import Testing

/// The group commit of verdicts on single findings (FindingStore.setStatuses, VerdictQueue) against a real
/// database: a batch gives each verdict, the rows and the events what applying them one by one gives, and many
/// threads' verdicts through the queue are each answered with their own change, the events dense and in commit
/// order.
@Suite("Group commit of verdicts")
struct GroupCommitTests {
    let database: PostgresConfiguration
    let connection: PostgresConnection

    init() throws {
        database = try TestDatabase.makeDatabase()
        connection = try PostgresConnection(configuration: database)
        try Migrator().migrate(connection)
    }

    /// A project holding all-rules.json's 21 findings (numbers 1…21), a screen Inbox, and two items whose SDK
    /// symbols the project lacks (22 and 23, blocked).
    private func makeProject(_ name: String) throws {
        _ = try ProjectStore.create(name: name, sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let bytes = try Fixtures.bytes("duo_scan/all-rules.json")
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: bytes), format: .duoScan, project: name, actor: "ci"),
            scan: try DuoScanParser.parse(bytes), on: connection)
        _ = try ScreenStore.add(
            project: name, key: "Inbox", title: nil, owner: nil, paths: ["Sources/Screens.swift"], actor: "ana",
            on: connection)
        for (title, symbol) in [("Keep the chip horizontal", "axisBehavior"), ("Read the edge", "toolbarVerticalEdge")]
        {
            let item = try ItemStore.add(
                NewItem(screen: "Inbox", step: 5, title: title, needs: [symbol], sdkForUnknown: nil), to: name,
                actor: "ana", on: connection)
            #expect(item.status == .blocked)
        }
    }

    /// A verdict's result with what names its project taken out: the change (outcome, from, to, refusal) and the
    /// finding as the reply shows it, or the error.
    private func described(_ result: Result<FindingChange, any Error>, project: String) -> String {
        switch result {
        case .success(let change):
            var finding = change.finding
            finding.id = 0
            finding.project = ""
            let refusal = change.refusal.map { "\($0.kind) \($0.message)" } ?? "-"
            return "\(change.outcome.rawValue) \(change.from ?? "-")→\(change.to ?? "-") [\(refusal)] \(finding)"
        case .failure(let error):
            return "\(error)".replacingOccurrences(of: "'\(project)'", with: "'P'")
        }
    }

    /// The project's findings as stored, the run they were last seen in by its number.
    private func findings(_ project: String) throws -> [[String]] {
        try connection.query(
            """
            SELECT f.number, f.status, f.reason, f.status_before_block, r.number, f.reported_after_verified, f.assignee
            FROM findings f JOIN projects p ON p.id = f.project_id LEFT JOIN scan_runs r ON r.id = f.last_seen_run
            WHERE p.name = $1 ORDER BY f.number
            """, [project]
        ).map { $0.values.map { $0 ?? "NULL" } }
    }

    /// The project's dashboard summaries, the screens by key.
    private func summaries(_ project: String) throws -> [[String]] {
        try connection.query(
            """
            SELECT coalesce(s.key, '-'), fs.status, fs.severity, fs.rule_step, fs.item_step, fs.needs_symbols,
                   fs.findings
            FROM finding_summaries fs JOIN projects p ON p.id = fs.project_id LEFT JOIN screens s ON s.id = fs.screen_id
            WHERE p.name = $1 AND fs.findings <> 0 ORDER BY 1, 2, 3, 4, 5, 6
            """, [project]
        ).map { $0.values.map { $0 ?? "NULL" } }
    }

    /// The project's events after `seq`: sequence number and what each says.
    private func events(_ project: String, after seq: Int64) throws -> [(seq: Int64, text: [String])] {
        try connection.query(
            """
            SELECT seq, kind, subject, from_value, to_value, reason, actor, finding_number, screen, screens
            FROM events WHERE project = $1 AND seq > $2 ORDER BY seq
            """, [project, seq]
        ).map { row in (try row.decode(at: 0), Array(row.values.dropFirst()).map { $0 ?? "NULL" }) }
    }

    /// `count` verdicts on numbers 1…23 and an unknown 99, every person status, a reason or none, by a writer or
    /// now and then a reader, from a fixed seed: repeated findings, refusals, no-change verdicts and blocked items.
    private static func verdicts(_ count: Int, seed: UInt64) -> [FindingVerdict] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let numbers = Array(1...23) + [99]
        let statuses = FindingLifecycle.personStatuses
        return (0..<count).map { index in
            let status = statuses[next(statuses.count)]
            let reasons: [String?] = [nil, "r\(next(3))", "why \(index % 2)"]
            return FindingVerdict(
                number: numbers[next(numbers.count)], status: status, reason: reasons[next(reasons.count)],
                role: next(12) == 0 ? .reader : .writer, actor: "token:p\(next(4))")
        }
    }

    @Test("a batch of verdicts, invalid ones among them, equals the same verdicts applied one by one")
    func batchEqualsSequence() throws {
        try makeProject("batch")
        try makeProject("alone")
        let start = try EventLog.head(on: connection)
        let verdicts = Self.verdicts(300, seed: 29)
        let batch = try FindingStore.setStatuses(project: "batch", verdicts, on: connection)
        let alone = verdicts.map { verdict in
            Result { try FindingStore.apply(verdict, project: "alone", on: connection) }
        }
        #expect(batch.count == verdicts.count)
        // Verdicts of each kind, so that the comparison covers them.
        let outcomes = batch.map { (try? $0.get()).map(\.outcome.rawValue) ?? "error" }
        for outcome in ["changed", "unchanged", "refused", "error"] {
            #expect(outcomes.contains(outcome), "no \(outcome) verdict in the batch")
        }
        #expect(batch.contains { (try? $0.get())?.to == "blocked" && (try? $0.get())?.outcome == .changed })
        for (index, (batched, single)) in zip(batch, alone).enumerated() {
            #expect(
                described(batched.mapError { $0 }, project: "batch") == described(single, project: "alone"),
                "verdict \(index): \(verdicts[index])")
        }
        #expect(try findings("batch") == findings("alone"))
        #expect(try summaries("batch") == summaries("alone"))
        let batchEvents = try events("batch", after: start)
        #expect(batchEvents.map(\.text) == (try events("alone", after: start)).map(\.text))
        #expect(batchEvents.count == outcomes.count { $0 == "changed" })
        // One INSERT under the events lock: the batch's sequence numbers are dense.
        #expect(batchEvents.map(\.seq) == Array((batchEvents.first?.seq ?? 0)...(batchEvents.last?.seq ?? -1)))
    }

    @Test("an unknown project is every verdict's error, and a batch of no-change verdicts writes nothing")
    func unknownProjectAndNoChange() throws {
        try makeProject("app")
        let verdict = FindingVerdict(number: 1, status: .declined, reason: "no", role: .writer, actor: "token:a")
        let alone = #expect(throws: StoreError.self) {
            try FindingStore.apply(verdict, project: "nope", on: connection)
        }
        let batched = #expect(throws: StoreError.self) {
            try FindingStore.setStatuses(project: "nope", [verdict], on: connection)
        }
        #expect(alone != nil && batched == alone)
        _ = try FindingStore.setStatuses(project: "app", [verdict], on: connection)
        let head = try EventLog.head(on: connection)
        let again = try FindingStore.setStatuses(project: "app", [verdict, verdict], on: connection)
        #expect(again.map { (try? $0.get())?.outcome } == [.unchanged, .unchanged])
        #expect(try EventLog.head(on: connection) == head)
    }

    @Test("many threads' verdicts through the queue: each answered with its own change, events dense, in commit order")
    func concurrentVerdicts() throws {
        try makeProject("app")
        let start = try EventLog.head(on: connection)
        let pool = PostgresPool(configuration: database, size: 3, queueLimit: 100)
        defer { pool.shutdown() }
        // A small batch bound, so that the threads' verdicts take many batches, some of them cut short.
        let queue = VerdictQueue(pool: pool, maximumCount: 7, maximumBytes: 200)
        let threads = 12
        let perThread = 20
        let answers = Mutex<[(FindingVerdict, VerdictQueue.Outcome)]>([])
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                for index in 0..<perThread {
                    let status: FindingStatus = [.approved, .declined, .kept, .applied][(thread + index) % 4]
                    let verdict = FindingVerdict(
                        number: 1 + (thread * 7 + index * 3) % 21, status: status,
                        reason: status.requiresReason ? "t\(thread) v\(index)" : nil, role: .writer,
                        actor: "token:t\(thread)")
                    let answered = DispatchSemaphore(value: 0)
                    queue.submit(
                        VerdictQueue.Request(project: "app", verdict: verdict, tokenID: nil, isCancelled: { false })
                    ) { outcome in
                        answers.withLock { $0.append((verdict, outcome)) }
                        answered.signal()
                    }
                    answered.wait()
                }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 120) == .success)
        let all = answers.withLock { $0 }
        #expect(all.count == threads * perThread)
        var changed = 0
        for (verdict, outcome) in all {
            guard case .decided(.success(let change), _) = outcome else {
                Issue.record("verdict \(verdict) answered \(outcome)")
                continue
            }
            // Its own change: the finding as this verdict left it.
            #expect(change.finding.number == verdict.number)
            #expect(change.refusal == nil)
            #expect(change.finding.status == verdict.status && change.finding.reason == verdict.reason)
            if change.outcome == .changed { changed += 1 } else { #expect(change.outcome == .unchanged) }
        }
        let logged = try events("app", after: start)
        #expect(logged.count == changed)
        #expect(logged.map(\.seq) == Array((logged.first?.seq ?? 0)...(logged.last?.seq ?? -1)))
        // In commit order: each finding's events chain, from its first status to the one stored now.
        var status: [String: String] = [:]
        for event in logged {
            let (number, from, to) = (event.text[6], event.text[2], event.text[3])
            #expect(from == status[number] ?? "proposed", "finding \(number) at seq \(event.seq)")
            status[number] = to
        }
        for row in try findings("app") where status[row[0]] != nil {
            #expect(row[1] == status[row[0]], "finding \(row[0])")
        }
    }

    @Test("a verdict whose client left before its batch, or whose token was revoked, is not applied")
    func cancelledAndRevoked() throws {
        try makeProject("app")
        let (token, _) = try TokenStore.create(name: "gone", role: .writer, actor: "test", on: connection)
        try TokenStore.revoke(name: "gone", actor: "test", on: connection)
        let head = try EventLog.head(on: connection)
        let pool = PostgresPool(configuration: database, size: 1, queueLimit: 10)
        defer { pool.shutdown() }
        let queue = VerdictQueue(pool: pool)
        let verdict = FindingVerdict(number: 1, status: .approved, reason: nil, role: .writer, actor: "token:gone")
        let outcomes = Mutex<[String]>([])
        let answered = DispatchSemaphore(value: 0)
        for (tokenID, isCancelled) in [(nil, true), (token.id, false)] as [(Int64?, Bool)] {
            queue.submit(
                VerdictQueue.Request(project: "app", verdict: verdict, tokenID: tokenID, isCancelled: { isCancelled })
            ) { outcome in
                outcomes.withLock { $0.append("\(outcome)") }
                answered.signal()
            }
        }
        for _ in 0..<2 { #expect(answered.wait(timeout: .now() + 30) == .success) }
        #expect(outcomes.withLock { $0 }.sorted() == ["cancelled", "tokenRevoked"])
        #expect(try EventLog.head(on: connection) == head)
        #expect(try findings("app")[0][1] == "proposed")
    }

    @Test("a batch the pool cannot connect for fails its verdicts, and the project's next verdict is tried again")
    func unreachableDatabase() throws {
        let unreachable = PostgresConfiguration(
            conninfo: "host=/nonexistent-barkeep-dir port=5999", connectTimeoutSeconds: 2)
        let pool = PostgresPool(configuration: unreachable, size: 1, queueLimit: 10)
        defer { pool.shutdown() }
        let queue = VerdictQueue(pool: pool)
        let verdict = FindingVerdict(number: 1, status: .approved, reason: nil, role: .writer, actor: "test")
        // Twice: the first batch's failure must leave the project free for the next verdict's batch.
        for _ in 0..<2 {
            let outcome = Mutex<String?>(nil)
            let answered = DispatchSemaphore(value: 0)
            queue.submit(VerdictQueue.Request(project: "app", verdict: verdict, tokenID: nil, isCancelled: { false })) {
                result in
                outcome.withLock { $0 = "\(result)" }
                answered.signal()
            }
            #expect(answered.wait(timeout: .now() + 30) == .success, "the verdict was never answered")
            #expect(
                outcome.withLock { $0 }?.contains("cannot connect to PostgreSQL") == true,
                "\(outcome.withLock { $0 } ?? "")")
        }
    }
}
