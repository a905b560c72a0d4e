import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// The dashboard's summaries (Schema/0014) against a recomputation from scratch: after random ingests, triage,
/// items, steps, poses, screen changes and SDK moves, and after migration 0014 of an existing database; and a status
/// kept by its version (Schema/0017) against the status read afresh.
@Suite("Dashboard summaries")
struct SummaryStoreTests {
    let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
    }

    static let rules = (1...21).map { String(format: "DUO%03d", $0) }
    static let files =
        (1...6).flatMap { screen in (1...3).map { "Sources/Screen\(screen)/File\($0).swift" } }
        + ["Sources/Shared/Chip.swift", "Vendor/Lib.swift", "App/Info.plist", "Other/Loose.swift"]

    /// A scan of `count` findings drawn from `pool` (rule, file, snippet): the previous scan with churn.
    static func scan(_ pool: [(rule: String, file: String, snippet: String)], using random: inout SeededGenerator)
        -> ScanReport
    {
        let findings = pool.map { entry in
            ScanFinding(
                rule: entry.rule, severity: Severity.allCases.randomElement(using: &random)?.rawValue ?? "low",
                file: entry.file, line: Int.random(in: 1...200, using: &random), snippet: entry.snippet)
        }
        return ScanReport(format: .duoScan, tool: "duo_scan", toolVersion: "1.2.2", findings: findings)
    }

    func numbers(_ project: String) throws -> [Int] {
        try FindingStore.list(project: project, query: FindingQuery(), on: connection).map(\.number)
    }

    func screenKeys(_ project: String) throws -> [String] {
        try ScreenStore.list(project: project, on: connection).map(\.screen.key).filter { $0 != AuditArea.app }
    }

    /// One random operation on `project`; refusals (a step blocked by a finding, a transition not allowed) are part
    /// of the game and ignored.
    func randomOperation(
        on project: String, pool: inout [(rule: String, file: String, snippet: String)],
        using random: inout SeededGenerator
    ) throws {
        let statuses: [(FindingStatus, String?)] = [
            (.approved, nil), (.applied, nil), (.verified, nil), (.declined, "not ours"), (.kept, "on purpose"),
            (.falsePositive, nil), (.proposed, nil),
        ]
        switch Int.random(in: 0..<17, using: &random) {
        case 0, 1:
            // Churn: drop a few, add a few, keep the rest (their lines move).
            pool.removeAll { _ in Int.random(in: 0..<8, using: &random) == 0 }
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                pool.append(
                    (
                        Self.rules.randomElement(using: &random) ?? "DUO001",
                        Self.files.randomElement(using: &random) ?? "a.swift",
                        "let x\(Int.random(in: 0..<40, using: &random))"
                    ))
            }
            let report = Self.scan(pool, using: &random)
            _ = try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: Array("\(report)".utf8)), format: .duoScan,
                    project: project, actor: "ci"), scan: report, on: connection)
        case 2:
            guard let number = try numbers(project).randomElement(using: &random),
                let (status, reason) = statuses.randomElement(using: &random)
            else { return }
            _ = try? FindingStore.setStatus(
                project: project, number: number, to: status, reason: reason, role: .admin, actor: "ana",
                on: connection)
        case 3:
            let chosen = try numbers(project).filter { _ in Bool.random(using: &random) }
            guard let (status, reason) = statuses.randomElement(using: &random) else { return }
            _ = try? FindingStore.setStatus(
                project: project, of: .numbers(chosen), to: status, reason: reason, role: .admin, actor: "ana",
                isDryRun: false, on: connection)
        case 4:
            guard let screen = try screenKeys(project).randomElement(using: &random) else { return }
            let needs = Bool.random(using: &random) ? ["axisBehavior"] : []
            _ = try? ItemStore.add(
                NewItem(
                    screen: screen, step: Int.random(in: 1...12, using: &random), title: "Item", needs: needs,
                    severity: Severity.allCases.randomElement(using: &random)?.rawValue ?? "medium"),
                to: project, actor: "ana", on: connection)
        case 5:
            let items = try FindingStore.list(project: project, query: FindingQuery(), on: connection)
                .filter { $0.source == "manual" }
            guard let item = items.randomElement(using: &random) else { return }
            if Bool.random(using: &random) {
                try? ItemStore.remove(project: project, number: item.number, actor: "ana", on: connection)
            } else {
                _ = try? ItemStore.update(
                    project: project, number: item.number,
                    ItemChanges(
                        step: String(Int.random(in: 1...12, using: &random)),
                        severity: Severity.allCases.randomElement(using: &random)?.rawValue,
                        needs: Bool.random(using: &random) ? ["toolbarVerticalEdge"] : []),
                    actor: "ana", on: connection)
            }
        case 6, 7:
            guard let screen = try screenKeys(project).randomElement(using: &random) else { return }
            _ = try? StepStore.set(
                project: project, screen: screen, step: String(Int.random(in: 1...12, using: &random)),
                to: StepState.allCases.randomElement(using: &random) ?? .done, note: nil, actor: "ana",
                on: connection)
        case 8, 9:
            guard let screen = try screenKeys(project).randomElement(using: &random) else { return }
            let pose = ["P1", "P2", "P3", "P4", "P11", "P12"].randomElement(using: &random) ?? "P1"
            let result =
                Bool.random(using: &random)
                ? NewPoseResult(screen: screen, pose: pose, result: .passed)
                : NewPoseResult(screen: screen, pose: pose, result: .notRun, reason: "no device")
            _ = try? PoseStore.record(result, project: project, actor: "ana", on: connection)
        case 10:
            let number = Int.random(in: 1...6, using: &random)
            _ = try? ScreenStore.add(
                project: project, key: "Screen\(number)", title: nil, owner: nil,
                paths: ["Sources/Screen\(number)/**"], actor: "ana", on: connection)
            _ = try? ScreenStore.add(
                project: project, key: "Chip", kind: .component, title: nil, owner: nil,
                paths: ["Sources/Shared/**"], actor: "ana", on: connection)
        case 11:
            guard let screen = try screenKeys(project).randomElement(using: &random) else { return }
            if Bool.random(using: &random) {
                _ = try? ScreenStore.remove(project: project, key: screen, actor: "ana", on: connection)
            } else {
                let file = Int.random(in: 1...3, using: &random)
                _ = try? ScreenStore.update(
                    project: project, key: screen, change: ScreenChange(addPaths: ["Vendor/*", "Other/Loose.swift"]),
                    actor: "ana", on: connection)
                _ = try? ScreenStore.update(
                    project: project, key: screen, change: ScreenChange(removePaths: ["Sources/Screen\(file)/**"]),
                    actor: "ana", on: connection)
            }
        case 12:
            guard let screen = try screenKeys(project).filter({ $0 != "Chip" }).randomElement(using: &random)
            else { return }
            _ = try? ScreenStore.setUses(
                project: project, screen: screen, component: "Chip", isRemoving: Bool.random(using: &random),
                actor: "ana", on: connection)
        case 13:
            let sdk = Bool.random(using: &random) ? "27.1" : "27.0"
            _ = try ProjectStore.update(name: project, sdk: sdk, actor: "lead", on: connection)
        case 14:
            // What only the dashboard's screen rows show: a title, an owner, the poses required.
            guard let screen = try screenKeys(project).randomElement(using: &random) else { return }
            let poses: PoseRequirement? =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: .project
                case 1: .poses(["P1", "P12"])
                default: nil
                }
            _ = try? ScreenStore.update(
                project: project, key: screen,
                change: ScreenChange(
                    title: "Title \(Int.random(in: 0..<3, using: &random))",
                    owner: ["", "ana", "ben"].randomElement(using: &random), poses: poses),
                actor: "ana", on: connection)
        case 15:
            // What only the project row shows: its deployment target and required poses.
            _ = try ProjectStore.update(
                name: project, deploymentTarget: Bool.random(using: &random) ? "26.0" : "27.0",
                requiredPoses: Bool.random(using: &random) ? ["P1", "P2", "P3", "P4", "P11", "P12"] : ["P1", "P11"],
                actor: "lead", on: connection)
        default:
            // An SDK moved by a check: the symbols' facts change what blocked items wait for.
            let found = Bool.random(using: &random)
            let check = SDKCheckReport(
                tool: "sdk_check", toolVersion: "1", sdk: nil,
                symbols: [SDKCheckSymbol(symbol: "axisBehavior", found: found)])
            _ = try? SDKStore.ingestCheck(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: Array("\(check)".utf8)), format: .sdkCheck,
                    project: project, actor: "ci"), report: check, on: connection)
        }
    }

    @Test(
        "summaries equal a recomputation after each batch of random operations, a kept status the status read afresh after each",
        arguments: [1, 2, 3])
    func randomOperations(seed: UInt64) throws {
        try Migrator().migrate(connection)
        // Another daemon's view: its own connection and cache; every write goes through `connection`.
        let reader = try PostgresConnection(configuration: connection.configuration)
        defer { reader.close() }
        let cache = StatusCache<ProjectStatus>(maximumEntries: 8, maximumCost: 8) { _ in 1 }
        func expectCachedIsFresh(_ context: @autoclosure () -> String) throws {
            for name in ["app", "other"] {
                let fresh = try StatusStore.status(project: name, on: reader)
                // Twice: made (or kept) once, then kept.
                for _ in 0..<2 {
                    let kept = try cache.value(project: name, variant: "", on: reader) { $0 }
                    #expect(kept == fresh, "seed \(seed), \(context()): \(name)")
                }
            }
        }
        var random = SeededGenerator(seed: seed)
        var pools: [String: [(rule: String, file: String, snippet: String)]] = [:]
        for name in ["app", "other"] {
            let project = try ProjectStore.create(
                name: name, sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
            pools[name] = []
            _ = project
        }
        for batch in 0..<12 {
            for _ in 0..<15 {
                let name = Bool.random(using: &random) ? "app" : "other"
                try randomOperation(on: name, pool: &pools[name, default: []], using: &random)
                try expectCachedIsFresh("batch \(batch)")
            }
            for project in try ProjectStore.list(on: connection) {
                let differences = try SummaryStore.differences(project: project, on: connection)
                #expect(differences.isEmpty, "seed \(seed), batch \(batch): \(differences.map(\.description))")
            }
        }
        let findings = try connection.queryValue("SELECT count(*) FROM findings", as: Int.self)
        let summed = try connection.queryValue("SELECT sum(findings) FROM finding_summaries", as: Int.self)
        #expect(findings == summed && (findings ?? 0) > 20)
        let statistics = cache.statistics
        #expect(statistics.hits >= 12 * 15 * 2 && statistics.misses > 12 * 15 / 2, "\(statistics)")
        // A project removed takes its summaries along, and its kept status is not used.
        try ProjectStore.delete(name: "other", actor: "test", on: connection)
        #expect(throws: StoreError.self) { try cache.value(project: "other", variant: "", on: reader) { $0 } }
        _ = try ProjectStore.create(name: "other", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        #expect(
            try cache.value(project: "other", variant: "", on: reader) { $0 }
                == StatusStore.status(project: "other", on: reader))
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM finding_summaries s WHERE NOT EXISTS (SELECT 1 FROM projects p "
                    + "WHERE p.id = s.project_id)", as: Int.self) == 0)
    }

    @Test("a difference is reported per project and screen, and repair replaces the summary with the recomputation")
    func differencesAndRepair() throws {
        try Migrator().migrate(connection)
        let project = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        _ = try ScreenStore.add(
            project: "app", key: "Inbox", title: nil, owner: nil, paths: ["Sources/**"], actor: "t", on: connection)
        _ = try ItemStore.add(NewItem(screen: "Inbox", step: 3, title: "Fix"), to: "app", actor: "t", on: connection)
        _ = try StepStore.set(
            project: "app", screen: "Inbox", step: "1", to: .done, note: nil, actor: "t", on: connection)
        #expect(try SummaryStore.differences(project: project, on: connection).isEmpty)

        try connection.query("UPDATE finding_summaries SET findings = findings + 2")
        try connection.query("UPDATE screen_progress SET step_states = '{}'")
        let differences = try SummaryStore.differences(project: project, on: connection).map(\.description)
        #expect(
            differences == [
                "project app screen Inbox: findings proposed medium rule-step=0 item-step=3 symbols=: stored 3, "
                    + "recomputed 1",
                "project app screen Inbox: progress: stored [], recomputed [1=done]",
            ])
        try SummaryStore.repair(project: project, on: connection)
        #expect(try SummaryStore.differences(project: project, on: connection).isEmpty)

        // Without a status version no STATUS reply is kept: reported, and repair gives one (a new one in any case).
        let version = try StatusStore.version(project: "app", on: connection)
        try connection.query("DELETE FROM status_versions")
        #expect(
            try SummaryStore.differences(project: project, on: connection).map(\.description) == [
                "project app: status version: stored none, recomputed any"
            ])
        try SummaryStore.repair(project: project, on: connection)
        #expect(try SummaryStore.differences(project: project, on: connection).isEmpty)
        let repaired = try StatusStore.version(project: "app", on: connection)
        #expect(repaired != nil && repaired != version)
        try SummaryStore.repair(project: project, on: connection)
        #expect(try StatusStore.version(project: "app", on: connection) != repaired)
    }

    @Test("migration 0014 fills the summaries of an existing database")
    func migrationFillsSummaries() throws {
        try Migrator(migrations: Migration.embedded.filter { $0.version < 14 }).migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        // The screen, its item, step state and pose result as that schema's store wrote them: today's store reads
        // tables later migrations add (component_links and screen_exclusions, 0023).
        try connection.query(
            "INSERT INTO screens (project_id, key) SELECT id, 'Inbox' FROM projects WHERE name = 'app'")
        try connection.query(
            """
            INSERT INTO screen_paths (project_id, screen_id, glob)
            SELECT project_id, id, 'Sources/Inbox/**' FROM screens WHERE key = 'Inbox'
            """)
        var random = SeededGenerator(seed: 7)
        let pool = (0..<30).map { index in
            (
                rule: Self.rules[index % 21], file: index % 3 == 0 ? "Vendor/Lib.swift" : "Sources/Inbox/A.swift",
                snippet: "let x\(index)"
            )
        }
        // The scan's findings as an ingest of that schema wrote them (today's ingest reads the summaries it fills).
        let findings = Self.scan(pool, using: &random).findings
        try connection.query(
            "UPDATE projects SET findings_numbered = $1, runs_numbered = 1 WHERE name = 'app'", [findings.count])
        try connection.query(
            """
            WITH run AS (
                INSERT INTO scan_runs (project_id, format, tool, digest, actor, number)
                SELECT id, 'duo-scan', 'duo_scan', repeat('a', 64), 'ci', 1 FROM projects WHERE name = 'app'
                RETURNING id, project_id
            )
            INSERT INTO findings (project_id, source, tool, rule, file, normalized_snippet, occurrence, identity, line,
                                  snippet, severity, screen_id, first_seen_run, last_seen_run, number)
            SELECT r.project_id, 'scanner', 'duo_scan', f.rule, f.file, f.snippet, 0,
                   encode(sha256(convert_to(f.rule || f.file || f.snippet, 'UTF8')), 'hex'), f.line, f.snippet,
                   f.severity,
                   CASE WHEN f.file LIKE 'Sources/Inbox/%'
                        THEN (SELECT s.id FROM screens s WHERE s.project_id = r.project_id AND s.key = 'Inbox') END,
                   r.id, r.id, f.number
            FROM run r, unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[])
                WITH ORDINALITY AS f (rule, file, snippet, line, severity, number)
            """,
            [
                findings.map(\.rule), findings.map(\.file), findings.map(\.snippet), findings.map { String($0.line) },
                findings.map(\.severity),
            ])
        // An item blocked on the SDK, as that schema's ItemStore.add wrote it.
        try connection.query(
            """
            WITH numbered AS (
                UPDATE projects SET findings_numbered = findings_numbered + 1 WHERE name = 'app'
                RETURNING id, findings_numbered
            )
            INSERT INTO findings (project_id, source, title, step, severity, screen_id, status, reason,
                                  status_before_block, needs_symbols, number)
            SELECT n.id, 'manual', 'Blocked', 2, 'medium', s.id, 'blocked', 'needs the iOS 27.1 SDK (axisBehavior)',
                   'proposed', ARRAY['axisBehavior'], n.findings_numbered
            FROM numbered n JOIN screens s ON s.project_id = n.id AND s.key = 'Inbox'
            """)
        try connection.query(
            """
            INSERT INTO step_states (project_id, screen_id, step, state, actor)
            SELECT project_id, id, 12, 'not_applicable', 't' FROM screens WHERE key = 'Inbox'
            """)
        try connection.query(
            """
            INSERT INTO pose_results (project_id, screen_id, pose, result, actor)
            SELECT project_id, id, 'P2', 'passed', 't' FROM screens WHERE key = 'Inbox'
            """)

        try Migrator().migrate(connection)
        let project = try ProjectStore.require("app", on: connection)
        #expect(try SummaryStore.differences(project: project, on: connection).isEmpty)
        // Migration 0017 gave the project a status version.
        #expect(try StatusStore.version(project: "app", on: connection) != nil)
        #expect(try connection.queryValue("SELECT sum(findings) FROM finding_summaries", as: Int.self) == 31)
        #expect(
            try connection.queryValue(
                "SELECT array_to_string(step_states || latest_poses, ' ') FROM screen_progress", as: String.self)
                == "12=not_applicable P2=passed")
        let status = try StatusStore.status(project: "app", on: connection)
        #expect(status.blocked.map(\.items) == [1])
        #expect(status.byStatus.values.reduce(0, +) == 31)
    }
}
