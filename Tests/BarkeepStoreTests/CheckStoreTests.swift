import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// CHECK's planning against a real database: the same answer as the sync it does not make, and nothing written but
/// its one event.
@Suite("Check store")
struct CheckStoreTests {
    private let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    private func ingest(_ bytes: [UInt8]) throws -> IngestResult {
        guard
            case .scan(let result) = try Ingestor.ingest(
                IngestRequest(ScanUpload(bytes), format: .duoScan, project: "app", actor: "ci"), on: connection)
        else { throw TestSupportError("not a scan") }
        return result
    }

    private func check(
        _ bytes: [UInt8], base: CheckBase = .latest, failOn: Severity = CheckGate.defaultFailOn,
        isRecorded: Bool = true, renames: FileRenames = FileRenames()
    ) throws -> CheckOutcome {
        try CheckStore.check(
            CheckRequest(
                ScanUpload(bytes), format: .duoScan, project: "app", commit: "abc123", branch: "feature/bars",
                base: base, failOn: failOn, isRecorded: isRecorded, actor: "token:ci", renames: renames),
            on: connection)
    }

    /// An ingest of `bytes` with `renames`.
    private func ingest(_ bytes: [UInt8], renames: FileRenames) throws -> IngestResult {
        guard
            case .scan(let result) = try Ingestor.ingest(
                IngestRequest(
                    ScanUpload(bytes), format: .duoScan, project: "app", actor: "ci", renames: renames),
                on: connection)
        else { throw TestSupportError("not a scan") }
        return result
    }

    @Test("with the NetNewsWire renames, a check of run N+1 counts what its sync with them then counts (v3)")
    func netNewsWireRenames() throws {
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWireV3Path, scansIn: ScanHistory.netNewsWireDirectory,
            renamesPath: ScanHistory.netNewsWireRenamesPath)
        var renamedTracked = 0
        for run in history.runs {
            let bytes = try Fixtures.bytes(run.path)
            let outcome = try check(bytes, isRecorded: false, renames: run.renames)
            let result = try ingest(bytes, renames: run.renames)
            #expect(result.counts == run.counts, "\(run.path): the sync is v3's")
            #expect(
                outcome.counts.new == run.counts.new && outcome.counts.reopened == run.counts.reopened, "\(run.path)")
            #expect(outcome.counts.changed == run.counts.changed && outcome.counts.fixes == run.counts.fixed)
            // Seen again or renamed: tracked.
            #expect(outcome.counts.tracked == run.counts.unchanged, "\(run.path)")
            // Each finding the sync renamed was a tracked row of the check, at the file the sync moved it to.
            let renamed = try connection.query(
                """
                SELECT f.number, f.file FROM events e JOIN findings f ON f.id = e.finding_id
                WHERE e.kind = 'finding.renamed' AND e.reason = $1
                """, ["run \(result.run.number)"]
            ).map { (try $0.decode(at: 0, as: Int.self), try $0.decode(at: 1, as: String.self)) }
            #expect(renamed.count == run.counts.renamed, "\(run.path)")
            for (number, file) in renamed {
                #expect(outcome.rows.contains { $0.kind == .tracked && $0.number == number && $0.file == file })
                renamedTracked += 1
            }
        }
        #expect(renamedTracked == 7)
    }

    @Test("--base RUN after the main branch renamed a file: the branch's old path, with the renames since, is tracked")
    func baseAfterRename() throws {
        let old = scan([("Old/A.swift", 3, "UIScreen.main.bounds", "high")])
        let moved = scan([("New/A.swift", 3, "UIScreen.main.bounds", "high")])
        _ = try ingest(old)
        let second = try ingest(moved, renames: FileRenames(["Old/A.swift": "New/A.swift"]))
        #expect(second.counts.renamed == 1)
        // The branch forked at run 1 still has Old/A.swift; from the latest run's commit to it, git says New → Old.
        let branch = try check(
            old, base: .run(1), isRecorded: false, renames: FileRenames(["New/A.swift": "Old/A.swift"]))
        #expect(branch.counts.new == 0 && branch.counts.fixes == 0 && branch.counts.tracked == 1)
        #expect(branch.result == .pass)
        // Without the renames, the finding would look new (and the tracked one fixed).
        let blind = try check(old, base: .run(1), isRecorded: false)
        #expect(blind.counts.new == 1 && blind.counts.fixes == 1)
    }

    private func scan(_ findings: [(file: String, line: Int, snippet: String, severity: String)]) -> [UInt8] {
        let items = findings.map { finding in
            [
                "rule": "DUO007", "severity": finding.severity, "file": finding.file, "line": finding.line,
                "snippet": finding.snippet, "message": "m",
            ] as [String: Any]
        }
        let document: [String: Any] = ["tool": "duo_scan", "version": "1.2.2", "findings": items]
        return Array((try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data())
    }

    /// Every row of the tables a sync writes, as text, and the row count of every other table but the event log's:
    /// what must not change.
    private func snapshot() throws -> [String] {
        var rows: [String] = []
        for table in ["findings", "scan_runs", "finding_summaries", "projects"] {
            rows += try connection.query("SELECT t::text FROM \(table) t ORDER BY t::text").map {
                "\(table): " + (try $0.decode(at: 0, as: String.self))
            }
        }
        let tables = try connection.query(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'events'
            ORDER BY table_name
            """
        ).map { try $0.decode(at: 0, as: String.self) }
        #expect(tables.count > 10 && tables.contains("findings"))
        for table in tables {
            let count = try connection.queryValue("SELECT count(*) FROM \"\(table)\"", as: Int.self) ?? -1
            rows.append("\(table) rows: \(count)")
        }
        return rows
    }

    private func eventCount(_ kind: EventKind? = nil) throws -> Int {
        try connection.queryValue(
            "SELECT count(*) FROM events WHERE $1::text IS NULL OR kind = $1", [kind?.rawValue], as: Int.self) ?? 0
    }

    private func identities(_ outcome: CheckOutcome, _ kind: CheckClass) -> Set<String> {
        Set(outcome.rows.filter { $0.kind == kind }.map(\.identity))
    }

    @Test("on the NetNewsWire history, a check of run N+1 finds what its sync then finds, and writes only its event")
    func netNewsWireHistory() throws {
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWirePass2Path, scansIn: ScanHistory.netNewsWireDirectory)
        var checked = 0
        for (number, run) in history.runs.enumerated() {
            let bytes = try Fixtures.bytes(run.path)
            let before = try snapshot()
            let events = try eventCount()
            let outcome = try check(bytes)
            #expect(try snapshot() == before, "\(run.path): a check changed a table")
            #expect(try eventCount() == events + 1 && eventCount(.scanChecked) == checked + 1)
            checked += 1
            if number > 0 {
                // At the latest run as base, the state is today's.
                let atBase = try check(bytes, base: .run(number), isRecorded: false)
                #expect(atBase.rows == outcome.rows, "\(run.path): base \(number) differs from latest")
            }
            let result = try ingest(bytes)
            #expect(outcome.counts.new == run.counts.new, "\(run.path)")
            #expect(outcome.counts.reopened == run.counts.reopened && outcome.counts.changed == run.counts.changed)
            #expect(outcome.counts.fixes == run.counts.fixed, "\(run.path)")
            let created = Set(
                try connection.query(
                    "SELECT identity FROM findings WHERE first_seen_run = $1", [result.run.id]
                ).map { try $0.decode(at: 0, as: String.self) })
            let reopened = Set(
                try connection.query(
                    """
                    SELECT f.identity FROM events e JOIN findings f ON f.id = e.finding_id
                    WHERE e.kind = 'finding.status' AND e.from_value = 'fixed' AND e.reason = $1
                    """, ["run \(result.run.number)"]
                ).map { try $0.decode(at: 0, as: String.self) })
            #expect(identities(outcome, .new) == created, "\(run.path): new identities differ")
            #expect(identities(outcome, .reopened) == reopened, "\(run.path): reopened identities differ")
            let fixed = Set(
                try connection.query(
                    """
                    SELECT f.number FROM events e JOIN findings f ON f.id = e.finding_id
                    WHERE e.kind = 'finding.status' AND e.to_value = 'fixed' AND e.reason = $1
                    """, ["run \(result.run.number)"]
                ).map { try $0.decode(at: 0, as: Int.self) })
            #expect(Set(outcome.rows.filter { $0.kind == .fixed }.compactMap(\.number)) == fixed, "\(run.path)")
        }
        #expect(checked == history.runs.count)
    }

    @Test("a declined finding still present is tracked with its verdict, never new, and its absence fixes nothing")
    func stickyVerdict() throws {
        let first = scan([("A.swift", 3, "UIScreen.main", "high"), ("B.swift", 5, "bar.frame", "low")])
        _ = try ingest(first)
        let number = try #require(
            try connection.queryValue("SELECT number FROM findings WHERE file = 'A.swift'", as: Int.self))
        _ = try FindingStore.setStatus(
            project: "app", number: number, to: .declined, reason: "not on Duo", role: .writer, actor: "t",
            on: connection)
        let outcome = try check(first)
        let row = try #require(outcome.rows.first { $0.file == "A.swift" })
        #expect(row.kind == .tracked && row.number == number && row.status == .declined && row.reason == "not on Duo")
        #expect(outcome.counts == CheckCounts(tracked: 2) && outcome.result == .pass)
        let without = try check(scan([("B.swift", 9, "bar.frame", "low")]))
        #expect(without.counts == CheckCounts(tracked: 1))
    }

    @Test("the gate fails at a new or reopened finding at or above fail-on, and new ones get screen, step and tier")
    func gate() throws {
        _ = try ingest(scan([("A.swift", 3, "UIScreen.main", "high")]))
        let next = scan([("A.swift", 3, "UIScreen.main", "high"), ("C.swift", 1, "toolbar.isHidden", "medium")])
        #expect(try check(next).result == .pass)
        #expect(try check(next, failOn: .medium).result == .fail)
        #expect(try check(next, failOn: .low).result == .fail)
        #expect(try check(next, failOn: .critical).result == .pass)
        let added = try #require(try check(next).rows.first { $0.kind == .new })
        #expect(added.file == "C.swift" && added.number == nil && added.screen == nil)
        #expect(added.step == 1 && added.tier == 2 && added.severity == .medium)
    }

    @Test("record=no writes no event; a recorded check's event names base, commit, branch, counts and result")
    func recording() throws {
        _ = try ingest(scan([("A.swift", 3, "UIScreen.main", "high")]))
        let events = try eventCount()
        _ = try check(scan([]), isRecorded: false)
        #expect(try eventCount() == events)
        _ = try check(scan([("D.swift", 2, "x", "critical")]))
        let row = try #require(
            try connection.query(
                "SELECT subject, to_value, reason, actor FROM events WHERE kind = 'scan.checked'"
            ).first)
        #expect(try row.decode(at: 0, as: String.self) == "app")
        #expect(try row.decode(at: 1, as: String.self) == "new=1 reopened=0 changed=0 tracked=0 fixes=1 result=fail")
        #expect(try row.decode(at: 2, as: String.self) == "base=latest commit=abc123 branch=feature/bars")
        #expect(try row.decode(at: 3, as: String.self) == "token:ci")
    }

    @Test(
        "a recorded check deletes at most CheckRetention.deletedPerCheck of the project's checks older than the window")
    func checkRetention() throws {
        _ = try ingest(scan([("A.swift", 3, "UIScreen.main", "high")]))
        _ = try ProjectStore.create(name: "other", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        let old = CheckRetention.deletedPerCheck + 20
        // Old checks of this project and of another, and an old event of this project's history, backdated past
        // the window; then a few recent checks.
        try connection.query(
            """
            INSERT INTO events (project_id, project, kind, subject, to_value, actor, at)
            SELECT p.id, p.name, 'scan.checked', p.name, 'new=0', 'token:ci', now() - make_interval(days => $1 + 1)
            FROM projects p, generate_series(1, $2) WHERE p.name IN ('app', 'other')
            """, [CheckRetention.days, old])
        try connection.query(
            "UPDATE events SET at = now() - make_interval(days => $1 + 1) WHERE kind = 'scan.ingested'",
            [CheckRetention.days])
        for _ in 0..<3 { _ = try check(scan([])) }
        func count(_ kind: String, _ project: String) throws -> Int {
            try connection.queryValue(
                "SELECT count(*)::int FROM events WHERE kind = $1 AND project = $2", [kind, project], as: Int.self)
                ?? -1
        }
        // Three recorded checks deleted the old ones of this project, at most the bound each; nothing else went.
        #expect(try count("scan.checked", "app") == 3)
        #expect(try count("scan.checked", "other") == old)
        #expect(try count("scan.ingested", "app") == 1)
        // One more old batch than a check may delete: the next check deletes the bound, not all.
        try connection.query(
            """
            INSERT INTO events (project_id, project, kind, subject, to_value, actor, at)
            SELECT p.id, p.name, 'scan.checked', p.name, 'new=0', 'token:ci', now() - make_interval(days => $1 + 1)
            FROM projects p, generate_series(1, $2) WHERE p.name = 'app'
            """, [CheckRetention.days, old])
        _ = try check(scan([]))
        #expect(try count("scan.checked", "app") == 4 + old - CheckRetention.deletedPerCheck)
        // A check that is not recorded deletes nothing.
        _ = try check(scan([]), isRecorded: false)
        #expect(try count("scan.checked", "app") == 4 + old - CheckRetention.deletedPerCheck)
    }

    @Test("docs/sync.md, protocol.md, operations.md and cli.md state the checks' retention as Core has it")
    func retentionDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for name in ["docs/sync.md", "docs/protocol.md", "docs/operations.md", "docs/cli.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "\n", with: " ")
            #expect(text.contains("at most \(CheckRetention.deletedPerCheck) of the project's"), "\(name)")
            #expect(text.contains("older than \(CheckRetention.days) days"), "\(name)")
        }
    }

    @Test("a document that does not parse, an unknown project and an unknown base run are refused, and record nothing")
    func refusals() throws {
        _ = try ingest(scan([("A.swift", 3, "UIScreen.main", "high")]))
        let events = try eventCount()
        #expect {
            _ = try check(Array("not json".utf8))
        } throws: { error in
            guard case StoreError.invalid(let message) = error else { return false }
            return message.hasPrefix("the duo-scan upload is not valid: ")
        }
        #expect {
            _ = try check(scan([]), base: .run(9))
        } throws: { error in
            guard case StoreError.notFound(let message) = error else { return false }
            return message == "no run 9 in project 'app'"
        }
        #expect(throws: StoreError.self) {
            _ = try CheckStore.check(
                CheckRequest(ScanUpload(scan([])), format: .duoScan, project: "nope", actor: "t"), on: connection)
        }
        #expect(try eventCount() == events)
    }

    @Test("at an earlier base, findings first seen later are not tracked and ones fixed since count as open")
    func earlierBase() throws {
        _ = try ingest(scan([("A.swift", 3, "UIScreen.main", "high")]))  // run 1
        _ = try ingest(scan([("B.swift", 4, "bar.frame", "high")]))  // run 2: A fixed, B new
        let both = scan([("A.swift", 3, "UIScreen.main", "high"), ("B.swift", 4, "bar.frame", "high")])
        let latest = try check(both, isRecorded: false)
        #expect(identities(latest, .reopened).count == 1 && identities(latest, .tracked).count == 1)
        let atOne = try check(both, base: .run(1), isRecorded: false)
        // At run 1, A was open (tracked) and B did not exist yet (new).
        #expect(atOne.rows.first { $0.file == "A.swift" }?.kind == .tracked)
        #expect(atOne.rows.first { $0.file == "B.swift" }?.kind == .new)
        #expect(atOne.base == .run(1))
    }
}
