import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// The plans of the store's busy paths on a seeded database: no statement may scan `findings` or `events`
/// sequentially once per row of something else. That shape made a 100,000-finding sync take two minutes: the events
/// of its new findings looked each one up by identity with a sequential scan of `findings`, once the comparison was
/// made under a collation the index was not built with; and a trigger's plan, kept by a session from when `findings`
/// was empty, checked each appended event with a scan of `findings`. The statements are not copied here: PostgreSQL
/// reports the plan of each statement the store runs, and of every statement its triggers run (`PlanRecorder`), so
/// a change to the store's SQL is checked as it is.
@Suite("Query plans")
struct QueryPlanTests {
    /// The tables that grow with a project's history.
    static let watched: Set<String> = ["findings", "events"]

    static let rules = ["DUO001", "DUO002", "DUO004", "DUO005", "DUO007", "DUO011", "DUO013"]
    static let severities = Severity.allCases.map(\.rawValue)

    /// Finding `index` of a real-shaped scan under `root`: 40 findings a file, 25 files a feature directory, each with
    /// its own snippet and line; `shift` moves it down, `isEdited` edits its line in place.
    /// A connection to a freshly migrated test database holding an empty project `app`; the caller closes it.
    static func connectionWithApp() throws -> PostgresConnection {
        let connection = try TestDatabase.makeConnection()
        do {
            try Migrator().migrate(connection)
            _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    static func finding(_ index: Int, root: String, shift: Int = 0, isEdited: Bool = false) -> ScanFinding {
        let file = index / 40
        let slot = index % 40
        return ScanFinding(
            rule: rules[index % rules.count], title: "Adopt the side bars", severity: severities[index % 5],
            file: "\(root)/Feature\(file / 25)/Screen\(file)ViewController.swift", line: 20 + slot * 7 + shift,
            snippet: "navigationItem.rightBarButtonItems = [item\(slot)]" + (isEdited ? " + [extra]" : ""),
            message: "Let the bar move to the side of the display.")
    }

    /// New finding `index` of a later scan: half in files that had findings before (far below them), half in new
    /// files.
    static func newFinding(_ index: Int, root: String, files: Int) -> ScanFinding {
        let path =
            index % 2 == 0
            ? "\(root)/Feature\((index % files) / 25)/Screen\(index % files)ViewController.swift"
            : "\(root)/New/Screen\(index / 80)View.swift"
        return ScanFinding(
            rule: rules[index % rules.count], severity: severities[index % 5], file: path, line: 1_000 + index,
            snippet: "let toolbar\(index) = UIToolbar()")
    }

    static func report(_ findings: [ScanFinding]) -> ScanReport {
        ScanReport(format: .duoScan, tool: "duo_scan", toolVersion: "1.2.2", findings: findings)
    }

    static func ingest(
        _ findings: [ScanFinding], into project: String, round: Int, renames: FileRenames = FileRenames(),
        on connection: PostgresConnection
    ) throws -> IngestResult {
        try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: "\(project) \(round)".utf8), format: .duoScan,
                project: project, actor: "ci", renames: renames), scan: report(findings), on: connection)
    }

    /// The seeded database, recording on the way what a team may do first with a large project in a database analysed
    /// while empty (as `vacuumdb --analyze` does after a restore or an upgrade): `beta`'s first import of 10,000
    /// findings and at once, before any statistics know of them, a bulk finding set of a rule's (`staleScenario`);
    /// `gamma` (6,000), two more events per finding, and `app` with six screens and a component used by two of them
    /// but no findings yet. Analysed.
    static func seed(on connection: PostgresConnection, recording recorder: PlanRecorder) throws {
        try connection.query("ANALYZE")
        for (name, count) in [("beta", 10_000), ("gamma", 6_000)] {
            _ = try ProjectStore.create(name: name, sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
            _ = try ingest((0..<count).map { finding($0, root: "Lib") }, into: name, round: 0, on: connection)
            if name == "beta" {
                try recorder.record(staleScenario) {
                    let set = try FindingStore.setStatus(
                        project: name, of: .query(FindingQuery(rules: ["DUO007"])), to: .approved, reason: nil,
                        role: .writer, actor: "test", isDryRun: false, on: connection)
                    #expect(set.count(.changed) > 1_000)
                }
            }
        }
        try connection.query(
            """
            INSERT INTO events (project_id, project, finding_id, kind, subject, from_value, to_value, actor,
                                finding_number)
            SELECT f.project_id, p.name, f.id, $1, f.rule || ':' || f.file || ':' || f.line, 'proposed', 'approved',
                   'seed', f.number
            FROM findings f JOIN projects p ON p.id = f.project_id, generate_series(1, 2) AS round
            ORDER BY round, f.id
            """,
            [EventKind.findingStatus.rawValue])
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        for feature in 0..<6 {
            _ = try ScreenStore.add(
                project: "app", key: "Feature\(feature)", title: nil, owner: feature % 2 == 0 ? "ana" : nil,
                paths: ["App/Feature\(feature)/**"], actor: "test", on: connection)
        }
        _ = try ScreenStore.add(
            project: "app", key: "Shared", kind: .component, title: nil, owner: nil, paths: ["App/Feature7/**"],
            actor: "test", on: connection)
        for screen in ["Feature0", "Feature1"] {
            _ = try ScreenStore.setUses(
                project: "app", screen: screen, component: "Shared", isRemoving: false, actor: "test", on: connection)
        }
        try connection.query("ANALYZE")
    }

    static let staleScenario = "a bulk finding set right after a first import, its statistics not gathered yet"

    @Test("sync, check, first import, bulk set, STATUS, FINDINGS, event reads: no scan of findings or events per row")
    func noScanPerRow() throws {
        let connection = try TestDatabase.makeConnection()
        defer { connection.close() }
        try Migrator().migrate(connection)
        // Statistics are gathered where the test says (as autovacuum would have by then), never at a moment of the
        // server's choosing: the plans, and the state the stale scenario needs, do not depend on its timing.
        for table in Self.watched { try connection.query("ALTER TABLE \(table) SET (autovacuum_enabled = off)") }
        let recorder = try PlanRecorder(on: connection)
        try Self.seed(on: connection, recording: recorder)
        let count = 8_000
        let files = count / 40

        // A first import; then a sync that fixes 1% (what the next one reopens). Statistics are gathered after
        // each, as autovacuum would.
        let firstImport = "a first import"
        _ = try recorder.record(firstImport) {
            try Self.ingest((0..<count).map { Self.finding($0, root: "App") }, into: "app", round: 0, on: connection)
        }
        try connection.query("ANALYZE")
        _ = try recorder.record("a sync that fixes 1%") {
            try Self.ingest(
                (0..<count).filter { $0 % 100 != 7 }.map { Self.finding($0, root: "App") }, into: "app", round: 1,
                on: connection)
        }
        try connection.query("ANALYZE")

        // The churn a real history has (the issue's measured mix): 3% new, 3% fixed, 1% reopened, 10% moved, and
        // 1% edited in place (changed).
        let sync = "a sync with churn"
        let churned =
            (0..<count).filter { !(20..<23).contains($0 % 100) }.map { index in
                Self.finding(index, root: "App", shift: index % 10 == 3 ? 3 : 0, isEdited: index % 100 == 50)
            } + (0..<(count * 3 / 100)).map { Self.newFinding($0, root: "App", files: files) }
        // Checked first (CHECK): the same plan, read without a write, and the same answer as the sync's.
        let check = "a check of the churned scan"
        let checked = try recorder.record(check) {
            try CheckStore.check(
                CheckRequest(ScanUpload([]), format: .duoScan, project: "app", actor: "test"),
                table: ScanTable(Self.report(churned)), on: connection)
        }
        #expect(
            checked.counts
                == CheckCounts(
                    new: count * 3 / 100, reopened: count / 100, changed: count / 100,
                    tracked: count - count * 5 / 100, fixes: count * 3 / 100),
            "\(checked.counts)")
        let result = try recorder.record(sync) {
            try Self.ingest(churned, into: "app", round: 2, on: connection)
        }
        #expect(
            result.counts
                == SyncCounts(
                    new: count * 3 / 100, fixed: count * 3 / 100, reopened: count / 100,
                    unchanged: count - count * 5 / 100, moved: count / 10, changed: count / 100),
            "\(result.counts)")
        try connection.query("ANALYZE")

        // Then one file in fifty renamed in its feature directory (pass 3): its findings keep their rows.
        let renaming = "a sync with renamed files"
        var renamedPaths: [String: String] = [:]
        for file in stride(from: 11, to: files, by: 50) {
            let old = "App/Feature\(file / 25)/Screen\(file)ViewController.swift"
            renamedPaths[old] = "App/Feature\(file / 25)/Renamed\(file)ViewController.swift"
        }
        let renamed = churned.map { finding in
            var finding = finding
            finding.file = renamedPaths[finding.file] ?? finding.file
            return finding
        }
        let renamedCount = churned.count { renamedPaths[$0.file] != nil }
        let renamedResult = try recorder.record(renaming) {
            try Self.ingest(
                renamed, into: "app", round: 3, renames: FileRenames(renamedPaths), on: connection)
        }
        #expect(renamedCount > 100)
        #expect(
            renamedResult.counts
                == SyncCounts(unchanged: churned.count, moved: renamedCount, renamed: renamedCount),
            "\(renamedResult.counts)")
        try connection.query("ANALYZE")

        let bulk = "a bulk finding set and assign"
        try recorder.record(bulk) {
            let set = try FindingStore.setStatus(
                project: "app", of: .query(FindingQuery(rules: ["DUO007"])), to: .approved, reason: nil, role: .writer,
                actor: "test", isDryRun: false, on: connection)
            #expect(set.count(.changed) > 1_000)
            let assigned = try FindingStore.assign(
                project: "app", of: .query(FindingQuery(screens: ["Feature3"])), to: "ana", actor: "test",
                isDryRun: false, on: connection)
            #expect(assigned.count(.changed) > 500)
        }

        // A group commit of single verdicts (FindingStore.setStatuses): the findings named, some more than once.
        let verdicts = "a group commit of verdicts"
        try recorder.record(verdicts) {
            let results = try FindingStore.setStatuses(
                project: "app",
                (0..<60).map { index in
                    FindingVerdict(
                        number: 1 + (index * 37) % 40, status: index % 2 == 0 ? .declined : .approved,
                        reason: index % 2 == 0 ? "r\(index)" : nil, role: .writer, actor: "token:t\(index % 3)")
                }, on: connection)
            #expect(results.count { (try? $0.get())?.outcome == .changed } > 40)
        }

        let status = "STATUS"
        try recorder.record(status) {
            let read = try StatusStore.versionedStatus(project: "app", on: connection)
            #expect(read.status.screens.count == 7)
            _ = try StatusStore.version(project: "app", checkingToken: 1, on: connection)
        }

        let findings = "FINDINGS and a finding's history"
        try recorder.record(findings) {
            let listed = try FindingStore.list(
                project: "app", query: FindingQuery(statuses: [.proposed], screens: ["Feature1"]), on: connection)
            #expect(!listed.isEmpty)
            let (_, history) = try FindingStore.show(project: "app", number: 100, on: connection)
            #expect(!history.isEmpty)
        }

        // FINDINGS' keyset page on `beta` (10,000 findings): the first page and one from the middle, of the findings
        // needing work and of every status.
        let page = "a page of FINDINGS by number"
        try recorder.record(page) {
            for after in [nil, 5_000] as [Int?] {
                for query in [FindingQuery(), FindingQuery(statuses: FindingStatus.allCases)] {
                    let read = try FindingStore.page(
                        project: "beta", query: query, after: after, limit: FindingPage.defaultLimit, on: connection)
                    #expect(read.findings.count == FindingPage.defaultLimit && read.next != nil)
                    #expect(read.findings.first?.number ?? 0 > after ?? 0)
                }
            }
        }

        let steps = "a step set done on a selection of screens"
        try recorder.record(steps) {
            // Its blockers: each screen's open findings of the step, its own and its components'.
            let changes = try StepStore.set(
                project: "app", screens: .keys(try #require(KeyGlob("Feature*"))), step: "overflow", to: .done,
                note: nil, actor: "test", on: connection)
            #expect(!changes.isEmpty)
        }

        let reads = "webhook and watch reads"
        try recorder.record(reads) {
            let app = try ProjectStore.require("app", on: connection)
            let hook = try HookStore.add(
                HookSettings(
                    url: try WebhookURL(parsing: "http://127.0.0.1:9/hook"), kinds: [], screen: nil, secret: nil,
                    format: .json),
                to: "app", actor: "test", on: connection)
            _ = try HookStore.claim(holder: "test", lease: .seconds(30), on: connection)
            let head = try EventLog.head(on: connection)
            // A hook's page after its cursor; a WATCH of one project from the start, up to the head; the live read.
            let page = try EventLog.events(
                after: hook.deliveredSeq - 1, projectID: app.id, limit: 100, on: connection)
            let watched = try EventLog.events(after: 0, through: head, projectID: app.id, limit: 1_000, on: connection)
            let live = try EventLog.events(after: head - 2_000, limit: 1_000, on: connection)
            let burndown = try EventLog.burndown(project: "app", by: .day, on: connection)
            #expect(!page.isEmpty && watched.count == 1_000 && live.count == 1_000 && !burndown.isEmpty)
        }

        #expect(recorder.unreadable.isEmpty, "\(recorder.unreadable.first ?? "")")
        // A page reads the project's findings in number order from the (project_id, number) index, from `after` on,
        // and stops after the page: no Sort of the findings (a sort would read every matching row first).
        let pages = recorder.plans(of: page).filter { $0.statement.contains("ORDER BY f.number") }
        #expect(pages.count == 4)
        for plan in pages {
            let keyset = plan.scans(of: "findings").filter { scan in
                scan["Index Name"] as? String == "findings_number_unique"
                    && (scan["Index Cond"] as? String)?.contains("number >") == true
            }
            #expect(!keyset.isEmpty, "not read by the number index from after:\n\(plan.outline)")
            let sorts = plan.sortsOf("findings").count
            #expect(sorts == 0, "findings sorted:\n\(plan.outline)")
        }
        // The group commit's writes reach the findings they name by their ids, never by reading the project's.
        let writes = recorder.plans(of: verdicts).filter {
            $0.statement.contains("UPDATE findings") || $0.statement.contains("INSERT INTO events")
        }
        #expect(writes.count >= 2)
        for plan in writes {
            let sequential = plan.scans(of: "findings").filter { $0["Node Type"] as? String == "Seq Scan" }
            #expect(sequential.isEmpty, "findings read sequentially:\n\(plan.outline)")
        }
        for scenario in [
            Self.staleScenario, firstImport, check, sync, renaming, bulk, verdicts, status, findings, page, steps,
            reads,
        ] {
            #expect(!recorder.plans(of: scenario).isEmpty, "no plan recorded for \(scenario)")
        }
        // The statements the slow sync ran: its events, and the new findings' own rows.
        #expect(recorder.plans(of: sync).contains { $0.statement.contains("INSERT INTO events") })
        #expect(recorder.plans(of: sync).contains { $0.statement.contains("INSERT INTO findings") })
        #expect(recorder.plans(of: renaming).contains { $0.statement.contains("finding.renamed") })
        // A recorded check's retention finds the project's old checks by age, not by reading the event log.
        let retention = recorder.plans(of: check).filter { $0.statement.hasPrefix("DELETE FROM events") }
        #expect(retention.count == 1)
        for plan in retention {
            #expect(
                plan.scans(of: "events").contains { $0["Index Name"] as? String == "events_checks_by_age" },
                "\(plan.outline)")
        }
        // Pass 1 reads the findings not fixed and looks up the fixed ones the scan may reopen by identity, in the
        // unique index: a project keeps every finding it ever fixed, which a sync must not read.
        for scenario in [check, sync] {
            let lookups = recorder.plans(of: scenario).filter { $0.statement.contains("unnest($2::text[]) AS wanted") }
            #expect(lookups.count == 1, "\(scenario): \(lookups.count) lookups of fixed findings")
            for plan in lookups {
                // The outline names the index; its conditions (the identities) are cut for the message.
                let outline = plan.outline.prefix(1_500)
                let scans = plan.scans(of: "findings")
                #expect(
                    !scans.isEmpty && scans.allSatisfy { $0["Index Name"] as? String == "findings_identity" },
                    "\(scenario):\n\(outline)")
            }
        }
        for plan in recorder.plans {
            for scan in plan.scansInLoops(of: Self.watched) {
                Issue.record("\(plan.scenario): \(scan) in\n  \(plan.statementSummary)\n\(plan.outline)")
            }
        }
    }

    @Test("migration 0021: identities in byte order, their statistics gathered again, a new database left alone")
    func identityCollationMigration() throws {
        let connection = try TestDatabase.makeConnection()
        defer { connection.close() }
        func state(of connection: PostgresConnection) throws -> (
            collation: String?, tuples: Double?, statistics: Int?
        ) {
            (
                try connection.queryValue(
                    """
                    SELECT c.collname::text FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation
                    WHERE a.attrelid = 'findings'::regclass AND a.attname = 'identity'
                    """),
                try connection.queryValue("SELECT reltuples::float8 FROM pg_class WHERE oid = 'findings'::regclass"),
                try connection.queryValue(
                    "SELECT count(*)::int FROM pg_stats WHERE tablename = 'findings' AND attname = 'identity'")
            )
        }
        // A new database: never analysed, and left so.
        try Migrator().migrate(connection)
        let new = try state(of: connection)
        #expect(new.collation == "C" && new.tuples == -1 && new.statistics == 0, "\(new)")

        // An existing database, analysed, migrated: its identities keep matching, with statistics again.
        let existing = try TestDatabase.makeConnection()
        defer { existing.close() }
        // Every migration but 0021, which comes last as on a database that had all before it: the later ones add
        // columns that today's ingest writes.
        try Migrator(migrations: Migration.embedded.filter { $0.version != 21 }).migrate(existing)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: existing)
        let findings = (0..<500).map { Self.finding($0, root: "App") }
        _ = try Self.ingest(findings, into: "app", round: 0, on: existing)
        try existing.query("ANALYZE findings")
        try Migrator().migrate(existing)
        let migrated = try state(of: existing)
        #expect(migrated.collation == "C" && migrated.tuples == 500 && migrated.statistics == 1, "\(migrated)")
        let result = try Self.ingest(
            findings + [Self.newFinding(0, root: "App", files: 500 / 40)], into: "app", round: 1, on: existing)
        #expect(result.counts == SyncCounts(new: 1, unchanged: 500), "\(result.counts)")
    }

    @Test(
        "a fixed finding's last sighting is looked up from the newest run down: a run or two, however long the history")
    func lastSightingOfAFix() throws {
        let connection = try TestDatabase.makeConnection()
        defer { connection.close() }
        try Migrator().migrate(connection)
        for name in ["beta", "gamma", "app"] {
            _ = try ProjectStore.create(name: name, sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        }
        for name in ["beta", "gamma"] {
            _ = try Self.ingest((0..<400).map { Self.finding($0, root: "Lib") }, into: name, round: 0, on: connection)
        }
        let findings = (0..<400).map { Self.finding($0, root: "App") }
        _ = try Self.ingest(findings, into: "app", round: 0, on: connection)
        // Two thousand later runs of the tool that found what the first did (a year of commits scanned): as a sync
        // that changes nothing records them, with no finding's row rewritten.
        try connection.query(
            """
            INSERT INTO scan_runs (project_id, format, tool, digest, actor)
            SELECT p.id, 'duo-scan', 'duo_scan', md5(n::text) || md5(n::text), 'ci'
            FROM projects p, generate_series(1, 2000) AS n WHERE p.name = 'app' ORDER BY n
            """)
        try connection.query("ANALYZE")
        let recorder = try PlanRecorder(on: connection, isAnalyzing: true)
        let result = try recorder.record("fix") {
            try Self.ingest(Array(findings.dropFirst(100)), into: "app", round: 1, on: connection)
        }
        #expect(result.counts.fixed == 100)
        let fixing = recorder.plans(of: "fix").filter { $0.statement.contains("SET status = 'fixed'") }
        let lookups = fixing.flatMap { $0.scans(of: "scan_runs") }
        #expect(fixing.count == 1 && !lookups.isEmpty, "\(fixing.map(\.outline))")
        for lookup in lookups {
            let read = (lookup["Actual Rows"] as? Double ?? 0) + (lookup["Rows Removed by Filter"] as? Double ?? 0)
            #expect(read <= 2, "runs read per fixed finding: \(read)\n\(fixing.map(\.outline).joined())")
        }
        let lastSeen = try connection.queryValue(
            """
            SELECT DISTINCT r.number FROM findings f JOIN scan_runs r ON r.id = f.last_seen_run
            WHERE f.status = 'fixed'
            """, as: Int.self)
        #expect(lastSeen == 2_001)
    }

    @Test("deleting a project reads findings and pose results once, not per finding, on statistics that say: empty")
    func projectDeletionReads() throws {
        let connection = try Self.connectionWithApp()
        defer { connection.close() }
        // What ANALYZE records right after a large project was deleted: pages, and no rows in them. On it PostgreSQL
        // planned a lookup by project and id as a walk of all the project's index entries (migrations 0031, 0032).
        _ = try ProjectStore.create(name: "old", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        _ = try ScreenStore.add(
            project: "old", key: "Old", title: nil, owner: nil, paths: ["Lib/**"], actor: "test", on: connection)
        _ = try Self.ingest((0..<2_000).map { Self.finding($0, root: "Lib") }, into: "old", round: 0, on: connection)
        try connection.query(
            """
            INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, finding_id, actor)
            SELECT f.project_id, f.screen_id, 'P3', 'failed', 'shots/p3.png', f.id, 'dana'
            FROM findings f, generate_series(1, 2) WHERE f.screen_id IS NOT NULL
            """)
        try connection.query("DELETE FROM projects WHERE name = 'old'")
        for table in ["findings", "pose_results"] {
            try connection.query("ALTER TABLE \(table) SET (autovacuum_enabled = off)")
            try connection.query("ANALYZE \(table)")
        }
        // 2,000 findings over 50 files, 40 of them a screen's, and two failed poses naming each of their 1,600.
        for file in 0..<40 {
            _ = try ScreenStore.add(
                project: "app", key: "Screen\(file)", title: nil, owner: nil,
                paths: ["App/Feature\(file / 25)/Screen\(file)ViewController.swift"], actor: "test", on: connection)
        }
        _ = try Self.ingest((0..<2_000).map { Self.finding($0, root: "App") }, into: "app", round: 0, on: connection)
        try connection.query(
            """
            INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, finding_id, actor)
            SELECT f.project_id, f.screen_id, 'P3', 'failed', 'shots/p3.png', f.id, 'dana'
            FROM findings f JOIN projects p ON p.id = f.project_id, generate_series(1, 2)
            WHERE p.name = 'app' AND f.screen_id IS NOT NULL
            """)
        #expect(
            try connection.queryValue("SELECT count(*) FROM findings WHERE screen_id IS NOT NULL", as: Int.self)
                == 1_600)
        // What the deletion and every trigger it fired did to each relation: scans started, and rows or index entries
        // read (dead ones included). The backend's counts, kept since its last report of them (which never comes
        // inside a transaction), after the deletion less those before it.
        func counts(on connection: PostgresConnection) throws -> [String: (scans: Int, read: Int)] {
            let rows = try connection.query(
                """
                SELECT c.relname::text AS name, pg_stat_get_xact_numscans(c.oid) AS scans,
                       pg_stat_get_xact_tuples_returned(c.oid) AS read
                FROM pg_class c
                WHERE c.oid IN ('findings'::regclass, 'pose_results'::regclass)
                   OR c.oid IN (SELECT indexrelid FROM pg_index
                                WHERE indrelid IN ('findings'::regclass, 'pose_results'::regclass))
                """)
            return try Dictionary(
                uniqueKeysWithValues: rows.map {
                    (
                        try $0.decode("name", as: String.self),
                        (try $0.decode("scans", as: Int.self), try $0.decode("read", as: Int.self))
                    )
                })
        }
        let done = try connection.transaction { connection in
            let before = try counts(on: connection)
            try connection.query("DELETE FROM projects WHERE name = 'app'")
            return try counts(on: connection).map { name, after in
                let earlier = before[name] ?? (0, 0)
                return (name: name, scans: after.scans - earlier.scans, read: after.read - earlier.read)
            }.sorted { $0.name < $1.name }
        }
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 0)
        #expect(try connection.queryValue("SELECT count(*) FROM pose_results", as: Int.self) == 0)
        let summary = done.filter { $0.scans > 0 || $0.read > 0 }.map { "\($0.name) \($0.scans) scans \($0.read) read" }
            .joined(separator: ", ")
        // No lookup in findings per finding or screen.
        let findingScans = done.filter { $0.name.hasPrefix("findings") }.reduce(0) { $0 + $1.scans }
        #expect(findingScans <= 10, "\(summary)")
        // The pose results: one probe per deleted finding (each reading that finding's entries), and per screen
        // (13,600 entries read); a walk of the project's 3,200 per deleted finding read 6,410,400 (migration 0031).
        let poseReads = done.filter { $0.name.hasPrefix("pose_results") }.reduce(0) { $0 + $1.read }
        #expect(poseReads <= 10 * (2_000 + 3_200), "\(summary)")
    }

    @Test("a sync of an audit whose findings are mostly fixed reads the open ones' rows, not the fixed ones'")
    func agedAuditSync() throws {
        let connection = try Self.connectionWithApp()
        defer { connection.close() }
        // Years of daily scans leave most of a project's findings fixed: 3,600 fixed, 400 reported.
        let findings = (0..<4_000).map { Self.finding($0, root: "App") }
        _ = try Self.ingest(findings, into: "app", round: 0, on: connection)
        let reported = Array(findings.prefix(400))
        _ = try Self.ingest(reported, into: "app", round: 1, on: connection)
        try connection.query("VACUUM ANALYZE findings")
        let recorder = try PlanRecorder(on: connection, isAnalyzing: true)
        let result = try recorder.record("aged") {
            try Self.ingest(
                reported + [Self.newFinding(0, root: "App", files: 10)], into: "app", round: 2, on: connection)
        }
        #expect(result.counts.new == 1 && result.counts.unchanged == 400, "\(result.counts)")
        #expect(recorder.unreadable.isEmpty, "\(recorder.unreadable.first ?? "")")
        for plan in recorder.plans(of: "aged") where !plan.scans(of: "findings").isEmpty {
            let read = plan.rowsRead(of: "findings")
            #expect(read <= 1_000, "findings read: \(read)\n  \(plan.statementSummary)\n\(plan.outline)")
        }
    }

    @Test("SCREEN SHOW, and FINDINGS of a screen or an owner, read that screen's findings, not the project's")
    func oneScreensFindings() throws {
        let connection = try Self.connectionWithApp()
        defer { connection.close() }
        // A screen of one file (40 findings) using a component of another, in a project of 4,000 findings.
        _ = try ScreenStore.add(
            project: "app", key: "Settings", title: nil, owner: "ana",
            paths: ["App/Feature0/Screen3ViewController.swift"], actor: "test", on: connection)
        _ = try ScreenStore.add(
            project: "app", key: "Shared", kind: .component, title: nil, owner: nil,
            paths: ["App/Feature0/Screen4ViewController.swift"], actor: "test", on: connection)
        _ = try ScreenStore.setUses(
            project: "app", screen: "Settings", component: "Shared", isRemoving: false, actor: "test", on: connection)
        _ = try Self.ingest((0..<4_000).map { Self.finding($0, root: "App") }, into: "app", round: 0, on: connection)
        try connection.query("ANALYZE")

        let recorder = try PlanRecorder(on: connection, isAnalyzing: true)
        try recorder.record("one screen") {
            let shown = try ScreenStore.show(project: "app", key: "Settings", on: connection)
            #expect(shown.readiness.openFindingCount == 80)
            let listed = try FindingStore.list(
                project: "app", query: FindingQuery(statuses: FindingQuery.defaultStatuses, screens: ["Settings"]),
                on: connection)
            #expect(listed.count == 80)
            let owned = try FindingStore.list(project: "app", query: FindingQuery(owner: "ana"), on: connection)
            #expect(owned.count == 80)
        }
        #expect(recorder.unreadable.isEmpty, "\(recorder.unreadable.first ?? "")")
        let plans = recorder.plans(of: "one screen").filter { !$0.scans(of: "findings").isEmpty }
        #expect(plans.count >= 3, "\(plans.map(\.statementSummary))")
        for plan in plans {
            // Every row a scan of `findings` read, kept or filtered out, over all its loops.
            let read = plan.rowsRead(of: "findings")
            #expect(read <= 160, "findings read: \(read)\n  \(plan.statementSummary)\n\(plan.outline)")
        }
    }

    @Test(
        "a rule filter's check and a status few findings hold read index entries, not the project's rows")
    func ruleAndStatusLookups() throws {
        let connection = try Self.connectionWithApp()
        defer { connection.close() }
        _ = try ScreenStore.add(
            project: "app", key: "Settings", title: nil, owner: nil, paths: ["App/Feature0/**"], actor: "test",
            on: connection)
        _ = try Self.ingest((0..<4_000).map { Self.finding($0, root: "App") }, into: "app", round: 0, on: connection)
        try connection.query("VACUUM ANALYZE findings")

        let recorder = try PlanRecorder(on: connection, isAnalyzing: true)
        try recorder.record("lookups") {
            // A rule neither known nor the project's (the filter language refuses it), and a status no finding has.
            #expect(throws: StoreError.self) {
                try FindingStore.list(project: "app", query: FindingQuery(rules: ["DUO099"]), on: connection)
            }
            let blocked = try FindingStore.list(
                project: "app", query: FindingQuery(statuses: [.blocked]), on: connection)
            #expect(blocked.isEmpty)
        }
        #expect(recorder.unreadable.isEmpty, "\(recorder.unreadable.first ?? "")")
        let plans = recorder.plans(of: "lookups").filter { !$0.scans(of: "findings").isEmpty }
        #expect(plans.count >= 2, "\(plans.map(\.statementSummary))")
        for plan in plans {
            // None match: a scan that reads the project's rows (or more than the index's entries say) reads some.
            let read = plan.rowsRead(of: "findings")
            #expect(read == 0, "findings read: \(read)\n  \(plan.statementSummary)\n\(plan.outline)")
        }
    }

    @Test("the check finds a scan repeated per row: sequential, or by an index condition that is not the row's")
    func checkFindsLoops() throws {
        let connection = try Self.connectionWithApp()
        defer { connection.close() }
        _ = try Self.ingest((0..<2_000).map { Self.finding($0, root: "App") }, into: "app", round: 0, on: connection)
        try connection.query("ANALYZE")
        let recorder = try PlanRecorder(on: connection)
        // Each statement, and what the check must say of it (nil: nothing).
        let cases: [(sql: String, settings: [String], found: String?)] = [
            (
                """
                SELECT x.id FROM generate_series(1, 3) AS g
                CROSS JOIN LATERAL (SELECT f.id FROM findings f WHERE f.number = g LIMIT 1) AS x
                """,
                ["enable_indexscan = off", "enable_bitmapscan = off"],
                "Seq Scan on findings f under the inner side of a Nested Loop"
            ),
            (
                "SELECT (SELECT count(*) FROM events e WHERE e.seq = g) FROM generate_series(1, 3) AS g",
                ["enable_indexscan = off", "enable_bitmapscan = off"], "Seq Scan on events e in SubPlan 1, run per row"
            ),
            (
                """
                SELECT x.id FROM generate_series(1, 3) AS g
                CROSS JOIN LATERAL (SELECT f.id FROM findings f WHERE f.project_id = 1 AND f.line = g LIMIT 1) AS x
                """,
                ["enable_seqscan = off"], "its index condition the same for every row"
            ),
            (
                """
                SELECT x.id FROM generate_series(1, 3) AS g
                CROSS JOIN LATERAL (SELECT f.id FROM findings f WHERE f.id = g LIMIT 1) AS x
                """,
                ["enable_seqscan = off"], nil
            ),
            ("SELECT count(*) FROM findings f WHERE f.status = 'fixed'", [], nil),
        ]
        for (index, test) in cases.enumerated() {
            for setting in test.settings { try connection.query("SET " + setting) }
            _ = try recorder.record("case \(index)") { try connection.query(test.sql) }
            for setting in test.settings {
                try connection.query("RESET " + (setting.split(separator: " ").first ?? ""))
            }
            let plans = recorder.plans(of: "case \(index)")
            let found = plans.flatMap { $0.scansInLoops(of: Self.watched) }
            let outline = plans.map(\.outline).joined(separator: "\n")
            if let expected = test.found {
                #expect(found.count == 1 && found.allSatisfy { $0.contains(expected) }, "\(found)\n\(outline)")
            } else {
                #expect(plans.count == 1 && found.isEmpty, "\(found)\n\(outline)")
            }
        }
    }
}
