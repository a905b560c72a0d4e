import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Synchronization
import Testing

/// Sync of scanner runs against a real database: DESIGN.md's identity and transitions, checked on real scans.
@Suite("Scan sync")
struct ScanSyncTests {
    private let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    private func ingest(
        _ report: ScanReport,
        digest: String? = nil,
        scope: String = "",
        on connection: PostgresConnection? = nil
    ) throws -> IngestResult {
        try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: digest ?? SHA256Digest.hex(of: "\(report)".utf8), format: .duoScan,
                project: "app", scope: scope, actor: "ci"), scan: report, on: connection ?? self.connection)
    }

    private func ingestFixture(_ path: String) throws -> IngestResult {
        let bytes = try Fixtures.bytes(path)
        let report = path.hasSuffix(".sarif") ? try SARIFParser.parse(bytes) : try DuoScanParser.parse(bytes)
        return try ingest(report, digest: SHA256Digest.hex(of: bytes))
    }

    private func report(_ findings: [ScanFinding]) -> ScanReport {
        ScanReport(format: .duoScan, tool: "duo_scan", toolVersion: "1.2.2", findings: findings)
    }

    private func finding(_ file: String, _ line: Int, _ snippet: String, rule: String = "DUO001") -> ScanFinding {
        ScanFinding(rule: rule, severity: "high", file: file, line: line, snippet: snippet)
    }

    private func statuses() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try connection.query("SELECT status, count(*) AS n FROM findings GROUP BY status") {
            counts[try row.decode("status")] = try row.decode("n")
        }
        return counts
    }

    // MARK: - The fixtures

    @Test("the NetNewsWire history gives exactly pass 2's expected counts and open identities, run by run")
    func netNewsWireHistory() throws {
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWirePass2Path, scansIn: ScanHistory.netNewsWireDirectory)
        #expect(history.runs.count == 14)
        #expect(history.runs.map(\.counts.changed).reduce(0, +) == 1)
        for run in history.runs {
            let result = try ingestFixture(run.path)
            #expect(result.run.counts == run.counts && result.counts == run.counts, "\(run.path): \(result.run.counts)")
            #expect(result.open == run.openAfter, "\(run.path)")
            // A changed finding's identity is its new one.
            let open = Set(
                try connection.query("SELECT identity FROM findings WHERE status <> 'fixed'")
                    .map { try $0.decode("identity", as: String.self) }
            )
            #expect(open == run.openIdentities, "\(run.path): the open identities differ")
        }
    }

    @Test("a scan equal to an earlier one but not to the latest is a run of its own (code removed, then restored)")
    func recurringContent() throws {
        let withFinding = report([finding("A.swift", 1, "UIScreen.main")])
        let first = try ingest(withFinding, digest: SHA256Digest.hex(of: "with".utf8))
        _ = try ingest(report([]), digest: SHA256Digest.hex(of: "without".utf8))
        let again = try ingest(withFinding, digest: SHA256Digest.hex(of: "with".utf8))
        #expect(!again.isRepeat && again.run.id != first.run.id && again.run.counts.reopened == 1)
    }

    @Test("every duo_scan fixture ingests, and ingesting it again is the same run and changes nothing")
    func everyFixtureAndRepeats() throws {
        for path in try Fixtures.files(in: "duo_scan", extension: "json") {
            let first = try ingestFixture(path)
            let findings = try connection.queryValue("SELECT count(*) FROM findings", as: Int.self)
            let events = try connection.queryValue("SELECT count(*) FROM events", as: Int.self)
            let again = try ingestFixture(path)
            #expect(again.isRepeat && again.run.id == first.run.id, "\(path)")
            #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == findings)
            #expect(try connection.queryValue("SELECT count(*) FROM events", as: Int.self) == events)
        }
    }

    @Test("SARIF runs ingest with their tool, and findings keep SARIF's fingerprints without using them")
    func sarif() throws {
        let result = try ingestFixture("sarif/small/duo-rules-fixture.sarif")
        #expect(result.run.format == "sarif" && result.run.counts.new > 1)
        let distinct = try connection.queryValue("SELECT count(DISTINCT identity) FROM findings", as: Int.self)
        #expect(distinct == result.run.counts.new)
        for path in try Fixtures.files(in: "sarif/NetNewsWire", extension: "sarif") { _ = try ingestFixture(path) }
    }

    // MARK: - The rules

    @Test("a pure line shift is moved and unchanged, nothing fixed or new")
    func lineShift() throws {
        let before = [finding("A.swift", 10, "UIScreen.main"), finding("B.swift", 3, "x = UIScreen.main.bounds")]
        _ = try ingest(report(before))
        let shifted = before.map { item -> ScanFinding in
            var item = item
            item.line += 7
            item.snippet = "  " + item.snippet.replacingOccurrences(of: " ", with: "   ")
            return item
        }
        let counts = try ingest(report(shifted)).run.counts
        #expect(counts == SyncCounts(new: 0, fixed: 0, reopened: 0, unchanged: 2, moved: 2))
        #expect(
            try connection.queryValue("SELECT string_agg(line::text, ',' ORDER BY file) FROM findings", as: String.self)
                == "17,10")
    }

    @Test("a snippet re-indented in place keeps its finding and is stored as scanned; an unchanged one is not written")
    func reindentedInPlace() throws {
        let before = [finding("A.swift", 10, "let a = UIScreen.main"), finding("B.swift", 3, "x = UIScreen.main")]
        _ = try ingest(report(before))
        let stamps =
            "SELECT string_agg(file || '=' || snippet || '@' || updated_at::text, ',' ORDER BY file) FROM findings"
        let written = try connection.queryValue(stamps, as: String.self)
        var after = before
        after[0].snippet = "let  a =\tUIScreen.main"
        let counts = try ingest(report(after)).run.counts
        #expect(counts == SyncCounts(unchanged: 2))
        #expect(
            try connection.queryValue("SELECT string_agg(snippet, ',' ORDER BY file) FROM findings", as: String.self)
                == "let  a =\tUIScreen.main,x = UIScreen.main")
        let rewritten = try #require(try connection.queryValue(stamps, as: String.self)).split(separator: ",")
        let original = try #require(written).split(separator: ",")
        #expect(rewritten[0] != original[0])
        #expect(rewritten[1] == original[1])
    }

    @Test("three identical snippets in one file are three findings, and losing one fixes exactly one")
    func identicalSnippets() throws {
        let three = [10, 20, 30].map { finding("A.swift", $0, "let s = UIScreen.main") }
        #expect(try ingest(report(three)).run.counts.new == 3)
        let counts = try ingest(report([three[0], three[2]])).run.counts
        #expect(counts.fixed == 1 && counts.unchanged == 2)
        // Occurrence is by rank: the finding that was third is now second, so it is the third that is fixed.
        #expect(try connection.queryValue("SELECT line FROM findings WHERE status = 'fixed'", as: Int.self) == 30)
    }

    @Test("an edited flagged line is the same finding changed: number, status and reason stay; a repeat is zeros")
    func changedFinding() throws {
        let before = report([
            finding("Simplenote/SPAppDelegate.h", 12, "@interface SPAppDelegate : UIResponder", rule: "DUO007"),
            finding("Simplenote/SPAppDelegate.m", 40, "UIScreen.main.bounds"),
        ])
        _ = try ingest(before, digest: SHA256Digest.hex(of: "before".utf8))
        let id = try #require(
            try connection.queryValue("SELECT id FROM findings WHERE rule = 'DUO007'", as: Int64.self))
        let number = try #require(
            try connection.queryValue("SELECT number FROM findings WHERE id = $1", [id], as: Int.self))
        _ = try FindingStore.setStatus(
            project: "app", number: number, to: .approved, reason: nil, role: .writer, actor: "dana", on: connection)
        _ = try FindingStore.setStatus(
            project: "app", number: number, to: .applied, reason: "scene manifest added", role: .writer,
            actor: "dana", on: connection)

        let after = report([
            finding(
                "Simplenote/SPAppDelegate.h", 13, "@interface SPAppDelegate : UIResponder <UIApplicationDelegate>",
                rule: "DUO007"),
            finding("Simplenote/SPAppDelegate.m", 41, "UIScreen.main.bounds"),
        ])
        let changed = try ingest(after, digest: SHA256Digest.hex(of: "after".utf8))
        #expect(
            changed.run.counts == SyncCounts(unchanged: 1, moved: 1, changed: 1) && changed.counts == changed.run.counts
        )
        let row = try #require(
            try connection.query(
                "SELECT id, number, status, reason, line, identity, last_seen_run FROM findings WHERE rule = 'DUO007'"
            ).first)
        #expect(try row.decode("id", as: Int64.self) == id && row.decode("number", as: Int.self) == number)
        #expect(try row.decode("status", as: String.self) == "applied")
        #expect(try row.decode("reason", as: String.self) == "scene manifest added")
        #expect(
            try row.decode("line", as: Int.self) == 13 && row.decode("last_seen_run", as: Int64.self) == changed.run.id)
        let identity = FindingIdentity.identify(after.findings, tool: "duo_scan", hasher: LibcryptoHasher())[0].identity
        #expect(try row.decode("identity", as: String.self) == identity)
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 2)

        // Its history says what the line read before and after.
        let event = try #require(
            try connection.query(
                "SELECT subject, from_value, to_value, finding_number, screen FROM events WHERE kind = 'finding.changed'"
            ).first)
        #expect(try event.decode("finding_number", as: Int.self) == number)
        #expect(try event.decode("screen", as: String.self) == AuditArea.unmapped)
        #expect(try event.decode("subject", as: String.self) == "DUO007:Simplenote/SPAppDelegate.h:13")
        #expect(try event.decode("from_value", as: String.self) == "12: @interface SPAppDelegate : UIResponder")
        #expect(
            try event.decode("to_value", as: String.self)
                == "13: @interface SPAppDelegate : UIResponder <UIApplicationDelegate>")

        // The same bytes again: that run, and this call changed nothing.
        let repeated = try ingest(after, digest: SHA256Digest.hex(of: "after".utf8))
        #expect(repeated.isRepeat && repeated.run.id == changed.run.id && repeated.counts == SyncCounts())
        #expect(repeated.run.counts.changed == 1)
    }

    @Test("a declined finding stays declined when it disappears and when it reappears")
    func stickyVerdict() throws {
        _ = try ingest(report([finding("A.swift", 1, "UIScreen.main")]))
        let id = try #require(try connection.queryValue("SELECT number FROM findings", as: Int.self))
        _ = try FindingStore.setStatus(
            project: "app", number: id, to: .declined, reason: "design wants it", role: .writer, actor: "dana",
            on: connection)

        #expect(try ingest(report([])).run.counts.fixed == 0)
        let back = try ingest(report([finding("A.swift", 5, "UIScreen.main")])).run.counts
        #expect(back.reopened == 0 && back.new == 0 && back.unchanged == 1)
        #expect(try statuses() == ["declined": 1])
    }

    @Test("a fixed finding that comes back is reopened as proposed")
    func reopen() throws {
        _ = try ingest(report([finding("A.swift", 1, "UIScreen.main")]))
        _ = try FindingStore.setStatus(
            project: "app",
            number: try #require(try connection.queryValue("SELECT number FROM findings", as: Int.self)),
            to: .approved,
            reason: nil,
            role: .writer, actor: "dana",
            on: connection
        )
        #expect(try ingest(report([])).run.counts.fixed == 1)
        #expect(try ingest(report([finding("A.swift", 2, "UIScreen.main")])).run.counts.reopened == 1)
        #expect(try statuses() == ["proposed": 1])
    }

    @Test("a scoped scan closes nothing outside its scope")
    func scopedScan() throws {
        _ = try ingest(
            report([
                finding("Sources/Inbox/List.swift", 1, "a"), finding("Sources/InboxView.swift", 1, "b"),
                finding("Sources/Settings/Form.swift", 1, "c"),
            ])
        )
        let counts = try ingest(report([]), scope: "Sources/Inbox").run.counts
        #expect(counts.fixed == 1)
        let fixed = try connection.queryValue("SELECT file FROM findings WHERE status = 'fixed'", as: String.self)
        #expect(fixed == "Sources/Inbox/List.swift")
    }

    @Test("first and last seen runs: unchanged rows are not rewritten, yet report the latest run that saw them")
    func seenRuns() throws {
        let items = [finding("A.swift", 1, "a"), finding("B.swift", 1, "b"), finding("C.swift", 1, "c")]
        let first = try ingest(report(items)).run.number
        let b = try #require(
            try connection.queryValue("SELECT number FROM findings WHERE file = 'B.swift'", as: Int.self))
        _ = try FindingStore.setStatus(
            project: "app", number: b, to: .kept, reason: "on purpose", role: .writer, actor: "dana", on: connection)
        let second = try ingest(report(items)).run.number
        // A scan of another scope does not count as seeing A.
        let third = try ingest(report([finding("C.swift", 1, "c")]), scope: "C.swift").run.number
        let listed = try FindingStore.list(project: "app", query: FindingQuery(), on: connection)
        let runs = Dictionary(uniqueKeysWithValues: listed.map { ($0.file ?? "", [$0.firstSeenRun, $0.lastSeenRun]) })
        #expect(runs["A.swift"] == [first, second])
        #expect(runs["B.swift"] == [first, second])
        #expect(runs["C.swift"] == [first, third])
    }

    @Test("a full scan, a scoped scan, then the full scan's bytes again: a run of its own, not a repeat")
    func repeatNeedsSameScope() throws {
        let full = report([finding("Sources/Inbox/X.swift", 1, "x"), finding("Sources/Y.swift", 1, "y")])
        let first = try ingest(full, digest: SHA256Digest.hex(of: "full".utf8))
        _ = try ingest(report([]), digest: SHA256Digest.hex(of: "scoped".utf8), scope: "Sources/Inbox")
        let again = try ingest(full, digest: SHA256Digest.hex(of: "full".utf8))
        #expect(!again.isRepeat && again.run.id != first.run.id && again.run.counts.reopened == 1)
        #expect(try statuses() == ["proposed": 2])
    }

    @Test("a fixed finding can only get a verdict; the fix records when it was last seen")
    func fixedFindings() throws {
        let first = try ingest(report([finding("A.swift", 1, "a")]), digest: SHA256Digest.hex(of: "1".utf8)).run.number
        let second = try ingest(report([finding("A.swift", 1, "a")]), digest: SHA256Digest.hex(of: "2".utf8)).run.number
        _ = try ingest(report([]), digest: SHA256Digest.hex(of: "3".utf8))
        let id = try #require(try connection.queryValue("SELECT number FROM findings", as: Int.self))
        let listed = try FindingStore.list(project: "app", query: FindingQuery(), on: connection)
        #expect(listed.first?.firstSeenRun == first && listed.first?.lastSeenRun == second)
        #expect(throws: StoreError.self) {
            try FindingStore.setStatus(
                project: "app", number: id, to: .approved, reason: nil, role: .writer, actor: "dana", on: connection)
        }
        _ = try FindingStore.setStatus(
            project: "app", number: id, to: .falsePositive, reason: "a test image", role: .writer, actor: "dana",
            on: connection)
    }

    @Test("after the first import, every new, fixed and reopened finding has its event, appended with the run's")
    func events() throws {
        _ = try ingest(report([finding("A.swift", 1, "a")]))
        _ = try ingest(report([finding("A.swift", 1, "a"), finding("A.swift", 2, "b")]))
        _ = try ingest(report([finding("A.swift", 1, "a")]))
        #expect(try findingEvents() == ["finding.new>proposed", "finding.status>fixed"])
        #expect(
            try connection.queryValue("SELECT count(*) FROM events WHERE kind = 'scan.ingested'", as: Int.self) == 3)
        // Each change a scan made names its run, so a finding's history says which scan did it.
        let reasons = try connection.query("SELECT reason FROM events WHERE kind LIKE 'finding.%' ORDER BY seq")
            .map { try $0.decodeIfPresent("reason", as: String.self) }
        #expect(reasons == ["run 2", "run 3"])
    }

    /// `kind>to` of the finding events, in order.
    private func findingEvents() throws -> [String] {
        try connection.query("SELECT kind, to_value FROM events WHERE kind LIKE 'finding.%' ORDER BY seq")
            .map { "\(try $0.decode("kind", as: String.self))>\(try $0.decode("to_value", as: String.self))" }
    }

    /// `reason to` of the runs' events, in order.
    private func runEvents() throws -> [String] {
        try connection.query("SELECT reason, to_value FROM events WHERE kind = 'scan.ingested' ORDER BY seq").map {
            "\(try $0.decodeIfPresent("reason", as: String.self) ?? "-") \(try $0.decode("to_value", as: String.self))"
        }
    }

    @Test("a first import, of the project or of a scope, is announced by its run's event alone")
    func firstImport() throws {
        let imported = try ingest(report([finding("A.swift", 1, "a"), finding("A.swift", 2, "b")]))
        let announced = try findingEvents()
        #expect(imported.counts.new == 2 && announced.isEmpty)
        // Each finding still records the run that first saw it.
        let firstRuns = try connection.query("SELECT DISTINCT first_seen_run FROM findings").count
        #expect(firstRuns == 1)
        // A later sync announces each new finding.
        _ = try ingest(report([finding("A.swift", 1, "a"), finding("A.swift", 2, "b"), finding("B.swift", 1, "c")]))
        #expect(try findingEvents() == ["finding.new>proposed"])
        // The first scan of a scope holding no finding yet is a first import too; a scope holding one is not.
        _ = try ingest(report([finding("Lib/X.swift", 1, "x")]), scope: "Lib/")
        _ = try ingest(report([finding("B.swift", 1, "c"), finding("B.swift", 2, "d")]), scope: "B.swift")
        #expect(try findingEvents() == ["finding.new>proposed", "finding.new>proposed"])
        // Fixed findings are stored findings: bringing them back is a sync, not a first import.
        _ = try ingest(report([]), scope: "Lib/")
        _ = try ingest(report([finding("Lib/X.swift", 1, "x")]), scope: "Lib/")
        #expect(
            try findingEvents().suffix(2) == ["finding.status>fixed", "finding.status>proposed"])
        let zero = "fixed=0 reopened=0 unchanged=0 moved=0 changed=0 renamed=0"
        #expect(
            try runEvents() == [
                "first import new=2 \(zero)", "- new=1 fixed=0 reopened=0 unchanged=2 moved=0 changed=0 renamed=0",
                "first import new=1 \(zero)", "- new=1 fixed=0 reopened=0 unchanged=1 moved=0 changed=0 renamed=0",
                "- new=0 fixed=1 reopened=0 unchanged=0 moved=0 changed=0 renamed=0",
                "- new=0 fixed=0 reopened=1 unchanged=0 moved=0 changed=0 renamed=0",
            ])
    }

    @Test("new findings are numbered by file bytes, line and identity: first import or sync, in any database collation")
    func newFindingNumbers() throws {
        try expectSameNumbers(on: connection)
        // An operator's database (--database-url) usually sorts text by a locale: `a.swift` before `B.swift`.
        let icu = try PostgresConnection(
            configuration: TestDatabase.makeDatabase(
                options: "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'"))
        defer { icu.close() }
        #expect(
            try icu.queryValue(
                "SELECT string_agg(x, ' ' ORDER BY x) FROM (VALUES ('B.swift'), ('a.swift')) v (x)", as: String.self)
                == "a.swift B.swift")
        try Migrator().migrate(icu)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: icu)
        try expectSameNumbers(on: icu)
    }

    /// Ingests the same findings into `app` as a first import and into a new project `other` as a sync after a
    /// first import of another finding, and expects both numbered alike, from 1.
    private func expectSameNumbers(on connection: PostgresConnection) throws {
        // Files out of order, upper case and non-ASCII (byte order), an escaped name, and findings that share a file
        // and line (identity order).
        let findings = [
            finding("Sources/b.swift", 3, "x()"), finding("Sources/a.swift", 9, "y()"),
            finding("Sources/a.swift", 2, "z()"), finding("Sources/a.swift", 2, "w()", rule: "DUO002"),
            finding("Sources/a.swift", 2, "v()"), finding("Sources/\u{e9}t\u{e9}.swift", 1, "q()"),
            finding("Sources/Z.swift", 1, "r()"), finding("Sources/b.swift", 3, "x()"),
            finding("Sources/a.swift", 2, "z()", rule: "DUO003"), finding("Sources/\"q\".swift", 4, "s()"),
        ]
        // `app`: a first import, written by COPY in Core's order.
        #expect(try ingest(report(findings), on: connection).counts.new == findings.count)
        // `other`: the same findings after a first import of another one, so a sync numbers them in SQL.
        _ = try ProjectStore.create(name: "other", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        for scan in [[finding("Other/Seed.swift", 1, "seed()")], [finding("Other/Seed.swift", 1, "seed()")] + findings]
        {
            _ = try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: "\(scan)".utf8), format: .duoScan, project: "other",
                    actor: "ci"), scan: report(scan), on: connection)
        }
        func identities(in project: String) throws -> [String] {
            try connection.query(
                """
                SELECT f.identity FROM findings f JOIN projects p ON p.id = f.project_id
                WHERE p.name = $1 AND f.file <> 'Other/Seed.swift' ORDER BY f.number
                """, [project]
            ).map { try $0.decode("identity", as: String.self) }
        }
        let copied = try identities(in: "app")
        #expect(copied.count == findings.count)
        #expect(copied == (try identities(in: "other")))
        #expect(
            try connection.queryValue(
                "SELECT min(number) FROM findings f JOIN projects p ON p.id = f.project_id WHERE p.name = 'app'",
                as: Int.self) == 1)
    }

    @Test("the burndown counts a first import's findings from its run's event, and follows their verdicts")
    func firstImportBurndown() throws {
        _ = try ingest(report([finding("A.swift", 1, "a"), finding("A.swift", 2, "b"), finding("A.swift", 3, "c")]))
        let number = try #require(
            try connection.queryValue("SELECT number FROM findings WHERE snippet = 'a'", as: Int.self))
        _ = try FindingStore.setStatus(
            project: "app", number: number, to: .declined, reason: "design", role: .writer, actor: "dana",
            on: connection)
        let synced = try ingest(
            report([finding("A.swift", 2, "b"), finding("A.swift", 3, "c"), finding("B.swift", 40, "d")]))
        let points = try EventLog.burndown(project: "app", by: .run, on: connection)
        #expect(points.map(\.label) == ["run 1", "run 2"])
        #expect(points.map(\.needsWork) == [3, 3])
        let days = try EventLog.burndown(project: "app", by: .day, on: connection)
        #expect(days.map(\.needsWork) == [3])
        #expect(synced.open == 3)
    }

    @Test("the burndown by day and by week dates a run's changes by its commit time, a verdict by the next run's")
    func burndownByCommitTime() throws {
        // Three commits over two years, ingested in one sitting with a verdict given between the first two, and
        // one given after the last.
        let commits: [(sha: String, time: String, findings: [ScanFinding])] = [
            ("c1c1c1c1", "2022-11-24T18:05:40+08:00", [finding("A.swift", 1, "a"), finding("A.swift", 2, "b")]),
            ("c2c2c2c2", "2024-03-19T10:28:16+01:00", [finding("A.swift", 2, "b"), finding("B.swift", 3, "c")]),
            ("c3c3c3c3", "2024-03-20T09:00:00+01:00", [finding("A.swift", 2, "b")]),
        ]
        for (index, commit) in commits.enumerated() {
            let report = report(commit.findings)
            _ = try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: "\(report)".utf8), format: .duoScan, project: "app",
                    commit: commit.sha, commitTime: CommitTime.parse(commit.time), actor: "ci"), scan: report,
                on: connection)
            guard index == 0 else { continue }
            let number = try #require(
                try connection.queryValue("SELECT number FROM findings WHERE snippet = 'b'", as: Int.self))
            _ = try FindingStore.setStatus(
                project: "app", number: number, to: .declined, reason: "design", role: .writer, actor: "dana",
                on: connection)
        }
        let fixed = try #require(
            try connection.queryValue("SELECT number FROM findings WHERE snippet = 'c'", as: Int.self))
        _ = try FindingStore.setStatus(
            project: "app", number: fixed, to: .verified, reason: nil, role: .writer, actor: "dana", on: connection)
        let today = try #require(Burndown.Granularity.day.label(of: Date()))
        let days = try EventLog.burndown(project: "app", by: .day, on: connection)
        #expect(days.map(\.label) == ["2022-11-24", "2024-03-19", "2024-03-20", today])
        #expect(days.map(\.needsWork) == [2, 1, 0, 0])
        let weeks = try EventLog.burndown(project: "app", by: .week, on: connection)
        let thisWeek = try #require(Burndown.Granularity.week.label(of: Date()))
        #expect(weeks.map(\.label) == ["2022-W47", "2024-W12", thisWeek])
        #expect(weeks.map(\.needsWork) == [2, 0, 0])
        // By run, each run's point is at its commit's time.
        let runs = try EventLog.burndown(project: "app", by: .run, on: connection)
        #expect(runs.map(\.label) == ["run 1", "run 2", "run 3", "now"])
        #expect(runs.dropLast().map(\.at) == commits.map { CommitTime.parse($0.time) })
    }

    // MARK: - Concurrency

    @Test("two ingests of one project started together both complete, with no duplicate, as if one after the other")
    func concurrentIngests() async throws {
        let configuration = try #require(Optional(connection.configuration))
        let first = report((0..<300).map { finding("A.swift", $0 + 1, "first \($0 % 40)") })
        let second = report((0..<300).map { finding("A.swift", $0 + 1, "first \($0 % 50)") })
        // Force the overlap: a third session holds the project's sync lock until both ingests wait on it, so both
        // are surely waiting on it at the same time when it is released.
        let holder = try PostgresConnection(configuration: configuration)
        let projectID = try #require(
            try connection.queryValue("SELECT id FROM projects WHERE name = 'app'", as: Int64.self))
        try holder.query("BEGIN")
        try holder.query("SELECT pg_advisory_xact_lock($1, $2)", [Int32(0x7379_6E63), Int32(projectID)])
        // Released from a plain thread: the two ingests block Swift's cooperative threads (2 on 2 cores) in libpq,
        // so a task could never run to release them.
        let released = DispatchSemaphore(value: 0)
        let handover = Handover(connection: holder)
        let releaser = Thread {
            // Both ingests wait on the lock: two sessions other than the holder wait on an advisory lock.
            if let watcher = try? PostgresConnection(configuration: configuration) {
                _ = try? eventually(.seconds(30)) {
                    try watcher.queryValue(
                        """
                        SELECT count(*) FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND datname = current_database()
                        """,
                        as: Int.self) == 2
                }
            }
            _ = try? handover.connection.query("COMMIT")
            released.signal()
        }
        releaser.start()
        async let a = Task.detached {
            try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: "a".utf8), format: .duoScan, project: "app",
                    actor: "ci"), scan: first, on: try PostgresConnection(configuration: configuration))
        }.value
        async let b = Task.detached {
            try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: "b".utf8), format: .duoScan, project: "app",
                    actor: "ci"), scan: second, on: try PostgresConnection(configuration: configuration))
        }.value
        let (resultA, resultB) = try await (a, b)
        released.wait()
        let concurrentState = try connection.query("SELECT identity, status FROM findings ORDER BY identity")
            .map(\.values)
        #expect(
            try connection.queryValue("SELECT count(*) - count(DISTINCT identity) FROM findings", as: Int.self) == 0
        )

        // The same two scans one after the other, in the order the database serialized them, on a fresh project.
        let firstWasA = resultA.run.id < resultB.run.id
        let reference = try TestDatabase.makeConnection()
        try Migrator().migrate(reference)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: reference)
        for (scan, name) in firstWasA ? [(first, "a"), (second, "b")] : [(second, "b"), (first, "a")] {
            _ = try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: name.utf8), format: .duoScan, project: "app",
                    actor: "ci"), scan: scan, on: reference)
        }
        let sequentialState = try reference.query("SELECT identity, status FROM findings ORDER BY identity")
            .map(\.values)
        // One Boolean: a failure would otherwise print every identity.
        let isSameState = concurrentState == sequentialState
        #expect(
            isSameState, "\(concurrentState.count) findings concurrently, \(sequentialState.count) one after the other")
    }

    // MARK: - Old commits

    /// Ingests `report` as a scan of `commit`, committed on `day` (days since 1970), with its description's digest.
    private func ingest(
        _ report: ScanReport,
        commit: String?,
        day: Int?,
        scope: String = "",
        isForced: Bool = false,
        on connection: PostgresConnection? = nil
    ) throws -> IngestResult {
        try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: "\(report)".utf8), format: .duoScan, project: "app",
                commit: commit, commitTime: day.map { Date(timeIntervalSince1970: Double($0) * 86_400) }, scope: scope,
                isForced: isForced, actor: "ci"), scan: report, on: connection ?? self.connection)
    }

    /// The project's runs and events: what a refused scan must leave as they were.
    private func runsAndEvents() throws -> [Int] {
        [
            try connection.queryValue("SELECT count(*) FROM scan_runs", as: Int.self) ?? -1,
            try connection.queryValue("SELECT count(*) FROM events", as: Int.self) ?? -1,
        ]
    }

    /// Expects `body` to be refused with a conflict whose message holds every one of `words`.
    private func expectConflict(_ words: [String], _ body: () throws -> Void) throws {
        let before = try runsAndEvents()
        do {
            try body()
            Issue.record("not refused: \(words)")
        } catch StoreError.conflict(let message) {
            for word in words { #expect(message.contains(word), "\(message)") }
        }
        #expect(try runsAndEvents() == before, "a refused scan stored something")
    }

    @Test("a commit already ingested for the tool and scope is refused, storing nothing; --force applies it")
    func commitIngestedBefore() throws {
        let old = report([finding("A.swift", 1, "UIScreen.main")])
        let new = report([finding("B.swift", 1, "UIScreen.main")])
        #expect(try ingest(old, commit: "aaaaaaaa11", day: 10).run.commitTime == Date(timeIntervalSince1970: 864_000))
        try connection.query("UPDATE findings SET status = 'applied'")
        #expect(try ingest(new, commit: "bbbbbbbb22", day: 20).run.number == 2)
        let before = try statuses()
        try expectConflict(["commit aaaaaaaa was ingested as run 1 (duo_scan, whole project)", "--force"]) {
            _ = try ingest(old, commit: "aaaaaaaa11", day: 10)
        }
        // Without a time, by an abbreviation, in upper case: the same commit.
        try expectConflict(["run 1"]) { _ = try ingest(old, commit: "AAAAAAAA", day: nil) }
        #expect(try statuses() == before)
        // Another scope, another tool: runs of their own.
        #expect(try ingest(old, commit: "aaaaaaaa11", day: 10, scope: "A.swift").run.number == 3)
        let sarif = ScanReport(format: .sarif, tool: "semgrep", toolVersion: "1", findings: old.findings)
        #expect(try ingest(sarif, commit: "aaaaaaaa11", day: 10).run.number == 4)
        // Forced: applied, a new run of the old code; B.swift's finding, not in it, is fixed.
        let forced = try ingest(old, commit: "aaaaaaaa11", day: 10, isForced: true)
        #expect(forced.run.number == 5 && !forced.isRepeat && forced.counts.fixed == 1)
    }

    @Test("a retried upload of the latest run is still a repeat, commit or not")
    func retriedUploadIsRepeat() throws {
        let scan = report([finding("A.swift", 1, "UIScreen.main")])
        let first = try ingest(scan, commit: "aaaaaaaa11", day: 10)
        let again = try ingest(scan, commit: "aaaaaaaa11", day: 10)
        #expect(again.isRepeat && again.run == first.run && again.counts == SyncCounts())
        // After another run, the same bytes of the same commit are refused: they are not the latest run any more.
        _ = try ingest(report([]), commit: "bbbbbbbb22", day: 20)
        try expectConflict(["run 1"]) { _ = try ingest(scan, commit: "aaaaaaaa11", day: 10) }
    }

    @Test("an older commit than the latest timed run's, or one without a time, is refused; newer or forced pass")
    func olderCommit() throws {
        _ = try ingest(report([finding("A.swift", 1, "x")]), commit: "aaaaaaaa11", day: 10)
        _ = try ingest(report([finding("A.swift", 1, "y")]), commit: "bbbbbbbb22", day: 20)
        try expectConflict([
            "commit cccccccc (committed 1970-01-16T00:00:00Z) is older than commit bbbbbbbb (committed "
                + "1970-01-21T00:00:00Z) of run 2", "--force",
        ]) { _ = try ingest(report([finding("A.swift", 1, "z")]), commit: "cccccccc33", day: 15) }
        // No time: it cannot be ordered against run 2, unless forced. No commit: applied as always.
        try expectConflict(["commit dddddddd came without its commit time", "of run 2", "--force"]) {
            _ = try ingest(report([finding("A.swift", 1, "u")]), commit: "dddddddd44", day: nil)
        }
        let untimed = try ingest(report([finding("A.swift", 1, "u")]), commit: "dddddddd44", day: nil, isForced: true)
        #expect(untimed.run.number == 3)
        #expect(try ingest(report([finding("A.swift", 1, "v")]), commit: nil, day: nil).run.number == 4)
        // Runs 3 and 4 have no commit time: they do not turn the check off, run 2's time still counts.
        try expectConflict(["older than commit bbbbbbbb", "of run 2"]) {
            _ = try ingest(report([finding("A.swift", 1, "w")]), commit: "eeeeeeee55", day: 5)
        }
        #expect(try ingest(report([finding("A.swift", 1, "w")]), commit: "eeeeeeee55", day: 25).run.number == 5)
        try expectConflict(["older than commit eeeeeeee", "of run 5"]) {
            _ = try ingest(report([finding("A.swift", 1, "z")]), commit: "ffffffff66", day: 24)
        }
        #expect(try ingest(report([]), commit: "ffffffff66", day: 25).run.number == 6)
        #expect(try ingest(report([]), commit: "ffffffff66", day: 24, isForced: false).isRepeat)
        let forced = try ingest(report([finding("A.swift", 1, "z")]), commit: "abababab77", day: 1, isForced: true)
        #expect(forced.run.number == 7 && forced.counts.new == 1)
    }

    @Test("two uploads of one commit at the same time: one is applied, the other refused")
    func concurrentUploadsOfOneCommit() throws {
        let configuration = connection.configuration
        let holder = try PostgresConnection(configuration: configuration)
        let projectID = try #require(
            try connection.queryValue("SELECT id FROM projects WHERE name = 'app'", as: Int64.self))
        try holder.query("BEGIN")
        try holder.query("SELECT pg_advisory_xact_lock($1, $2)", [Int32(0x7379_6E63), Int32(projectID)])
        // On plain threads: blocked in libpq, they would hold Swift's cooperative threads (2 on 2 cores).
        let outcomes = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        for snippet in ["x", "y"] {
            let scan = report([finding("A.swift", 1, snippet)])
            Thread {
                let outcome: String
                do {
                    _ = try ScanStore.ingest(
                        IngestRequest(
                            ScanUpload([]), digest: SHA256Digest.hex(of: snippet.utf8), format: .duoScan,
                            project: "app", commit: "aaaaaaaa11", actor: "ci"), scan: scan,
                        on: try PostgresConnection(configuration: configuration))
                    outcome = "applied"
                } catch StoreError.conflict {
                    outcome = "refused"
                } catch {
                    outcome = "\(error)"
                }
                outcomes.withLock { $0.append(outcome) }
                finished.signal()
            }.start()
        }
        // Both wait on the project's lock before it is released.
        let deadline = ContinuousClock.now + .seconds(30)
        while try connection.queryValue(
            """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'
            """,
            as: Int.self
        ) != 2, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try holder.query("COMMIT")
        finished.wait()
        finished.wait()
        #expect(outcomes.withLock { $0.sorted() } == ["applied", "refused"])
        #expect(try connection.queryValue("SELECT count(*) FROM scan_runs", as: Int.self) == 1)
    }
}

@Suite("Screen attribution")
struct ScreenAttributionTests {
    @Test("findings go to the most specific screen, the rest unmapped, and follow glob changes")
    func reattribution() throws {
        let connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        let project = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        func screen(_ key: String, _ globs: [String]) throws -> Int64 {
            guard
                let id = try connection.queryValue(
                    "INSERT INTO screens (project_id, key) VALUES ($1, $2) RETURNING id",
                    [project.id, key],
                    as: Int64.self
                )
            else { throw TestSupportError("screen not created") }
            for glob in globs {
                try connection.query(
                    "INSERT INTO screen_paths (project_id, screen_id, glob) VALUES ($1, $2, $3)",
                    [project.id, id, glob]
                )
            }
            return id
        }
        let inbox = try screen("Inbox", ["Sources/Inbox/**"])
        let compose = try screen("Compose", ["Sources/Inbox/Compose*.swift"])
        let scan = ScanReport(
            format: .duoScan,
            tool: "duo_scan",
            findings: ["Sources/Inbox/List.swift", "Sources/Inbox/ComposeView.swift", "Sources/Other.swift"].map {
                ScanFinding(rule: "DUO001", severity: "high", file: $0, line: 1, snippet: "x")
            }
        )
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: "s".utf8), format: .duoScan, project: "app", actor: "t"),
            scan: scan, on: connection)
        func screens() throws -> [String: String] {
            var result: [String: String] = [:]
            for finding in try FindingStore.list(project: "app", query: FindingQuery(), on: connection) {
                result[finding.file ?? ""] = finding.screen ?? "unmapped"
            }
            return result
        }
        #expect(
            try screens() == [
                "Sources/Inbox/List.swift": "Inbox", "Sources/Inbox/ComposeView.swift": "Compose",
                "Sources/Other.swift": "unmapped",
            ]
        )
        // The Compose screen gives up its glob; Other.swift gets one.
        try connection.query("DELETE FROM screen_paths WHERE screen_id = $1", [compose])
        try connection.query(
            "INSERT INTO screen_paths (project_id, screen_id, glob) VALUES ($1, $2, 'Sources/Other.swift')",
            [project.id, inbox]
        )
        #expect(try ScreenAttributionStore.reattribute(projectID: project.id, on: connection) == 2)
        #expect(try screens().values.allSatisfy { $0 == "Inbox" })
    }
}

/// Hands a connection to one other thread. `@unchecked Sendable`: the test thread stops using the connection
/// before the receiving thread starts.
private struct Handover: @unchecked Sendable {
    let connection: PostgresConnection
}
