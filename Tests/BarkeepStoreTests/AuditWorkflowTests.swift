import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// The audit workflow against a real database: reference data, screens and attribution, checklist steps, audit
/// items blocked on the SDK, SDK checks, pose verification and the one rule for "done".
@Suite("Audit workflow")
struct AuditWorkflowTests {
    let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    // MARK: - all-rules.json, by screen

    /// The findings of all-rules.json, as `RULE file:line`, by the file they are in.
    static let screensFile = [
        "DUO001 Sources/Screens.swift:2", "DUO002 Sources/Screens.swift:3", "DUO003 Sources/Screens.swift:4",
        "DUO004 Sources/Screens.swift:11", "DUO004 Sources/Screens.swift:5", "DUO006 Sources/Screens.swift:6",
        "DUO007 Sources/Screens.swift:7", "DUO009 Sources/Screens.swift:11", "DUO009 Sources/Screens.swift:9",
        "DUO010 Sources/Screens.swift:10",
    ]
    static let barFile = ["DUO002 Sources/Bar.m:2", "DUO007 Sources/Bar.m:1"]
    static let menuFile = ["DUO008 Sources/MenuView.swift:4", "DUO011 Sources/MenuView.swift:7"]
    static let stringsFile = ["DUO013 Sources/Strings.swift:1"]
    static let unlockFile = ["DUO013 Sources/Unlock.swift:2"]
    /// The app-wide files' findings that the app area's default globs own.
    static let areaFiles = [
        "DUO020 App.xcodeproj/project.pbxproj:2", "DUO020 App/Info.plist:1", "DUO021 App.xcodeproj/project.pbxproj:1",
        "DUO021 App/Info.plist:1",
    ]
    /// The app delegate's finding: unmapped until discovery (or the team) adds it to the app area.
    static let appDelegateFile = ["DUO005 App/AppDelegate.swift:2"]
    /// The default required poses, in the project's order.
    static let defaultPoses = ["P1", "P2", "P3", "P4", "P11", "P12"]
    /// The checklist's step keys, step 1 first (Core's checklist, which checklistMatchesCore compares with the
    /// database's).
    static let stepKeys = ChecklistStep.all.map(\.key)

    // MARK: - Helpers

    /// Ingests all-rules.json (21 findings) into `app`; returns the report.
    @discardableResult
    func ingestAllRules(announcingEach: Bool = false) throws -> ScanReport {
        let bytes = try Fixtures.bytes("duo_scan/all-rules.json")
        let report = try DuoScanParser.parse(bytes)
        if announcingEach {
            // A first import writes no finding.new per finding: a finding stored first makes the scan a later sync.
            var seed = report
            seed.findings = [
                ScanFinding(rule: "DUO001", severity: "high", file: "Seed/Seed.swift", line: 1, snippet: "x")
            ]
            _ = try ScanStore.ingest(
                IngestRequest(
                    ScanUpload([]), digest: SHA256Digest.hex(of: "seed".utf8), format: .duoScan, project: "app",
                    scope: "Seed/", actor: "ci"), scan: seed, on: connection)
        }
        let result = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: bytes), format: .duoScan, project: "app", actor: "ci"),
            scan: report, on: connection)
        #expect(result.run.counts.new == 21)
        return report
    }

    @discardableResult
    func addScreen(_ key: String, _ paths: [String], project: String = "app") throws -> (
        Screen, reattributed: Int
    ) {
        try ScreenStore.add(
            project: project, key: key, title: nil, owner: nil, paths: paths, actor: "ana", on: connection)
    }

    @discardableResult
    func updateScreen(_ key: String, _ change: ScreenChange) throws -> (Screen, reattributed: Int) {
        try ScreenStore.update(project: "app", key: key, change: change, actor: "ana", on: connection)
    }

    @discardableResult
    func setStep(
        _ step: String,
        of screen: String,
        to state: StepState,
        note: String? = nil
    ) throws -> StepStatus {
        try StepStore.set(
            project: "app", screen: screen, step: step, to: state, note: note, actor: "ana", on: connection)
    }

    @discardableResult
    func addItem(
        _ title: String,
        step: Int? = 5,
        needs: [String],
        screen: String = "Inbox",
        sdkForUnknown: SDKVersion? = nil,
        project: String = "app"
    ) throws -> Finding {
        try ItemStore.add(
            NewItem(screen: screen, step: step, title: title, needs: needs, sdkForUnknown: sdkForUnknown),
            to: project, actor: "ana", on: connection)
    }

    @discardableResult
    func setStatus(_ id: Int64, _ status: FindingStatus, reason: String? = nil) throws -> Finding {
        try FindingStore.setStatus(
            project: "app", number: try number(id), to: status, reason: reason, role: .writer, actor: "lead",
            on: connection)
    }

    /// The number in its project of the finding with row id `id`.
    func number(_ id: Int64) throws -> Int {
        try #require(try connection.queryValue("SELECT number FROM findings WHERE id = $1", [id], as: Int.self))
    }

    /// The finding with row id `id`, as shown.
    func show(_ id: Int64) throws -> Finding {
        let project = try #require(
            try connection.queryValue(
                "SELECT p.name FROM findings f JOIN projects p ON p.id = f.project_id WHERE f.id = $1", [id],
                as: String.self))
        return try FindingStore.show(project: project, number: try number(id), on: connection).0
    }

    @discardableResult
    func record(_ result: NewPoseResult, project: String = "app") throws -> PoseRecord {
        try PoseStore.record(result, project: project, actor: "qa", on: connection)
    }

    /// A passed result on the device.
    func passed(_ screen: String, _ pose: String) -> NewPoseResult {
        NewPoseResult(screen: screen, pose: pose, result: .passed, build: "1.4 (210)", device: "iPhone Duo")
    }

    /// The id of the scanner finding of `rule` at `file:line`.
    func findingID(_ rule: String, _ file: String, _ line: Int) throws -> Int64 {
        try #require(
            try connection.queryValue(
                "SELECT id FROM findings WHERE rule = $1 AND file = $2 AND line = $3", [rule, file, line],
                as: Int64.self))
    }

    /// The findings FindingStore lists for a screen (or `unmapped`): `RULE file:line`, or an item's title; sorted.
    func listed(on screen: String) throws -> [String] {
        try FindingStore.list(project: "app", query: FindingQuery(screens: [screen]), on: connection).map { finding in
            finding.rule.map { "\($0) \(finding.file ?? ""):\(finding.line ?? 0)" } ?? finding.title ?? ""
        }.sorted()
    }

    /// Each scanner finding's screen key (or `unmapped`), by `RULE file:line`.
    func attribution() throws -> [String: String] {
        var screens: [String: String] = [:]
        for row in try connection.query(
            """
            SELECT f.rule || ' ' || f.file || ':' || f.line AS label, coalesce(s.key, 'unmapped') AS screen
            FROM findings f LEFT JOIN screens s ON s.id = f.screen_id WHERE f.source = 'scanner'
            """
        ) {
            screens[try row.decode("label", as: String.self)] = try row.decode("screen", as: String.self)
        }
        return screens
    }

    /// `labels` all attributed to `screen`.
    func owned(_ labels: [String], by screen: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: labels.map { ($0, screen) })
    }

    func count(_ table: String) throws -> Int {
        try connection.queryValue("SELECT count(*) FROM \(table)", as: Int.self) ?? -1
    }

    /// How many rows each table a workflow writes holds: what "nothing is stored" compares.
    func snapshot() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in [
            "screens", "screen_paths", "findings", "events", "step_states", "pose_results", "project_symbols",
            "sdk_checks", "scan_runs",
        ] {
            counts[table] = try count(table)
        }
        return counts
    }

    /// A query's rows, every column as PostgreSQL prints it (`NULL` for null).
    func rows(_ sql: String, _ parameters: [(any PostgresEncodable)?] = []) throws -> [[String]] {
        try connection.query(sql, parameters).map { row in row.values.map { $0 ?? "NULL" } }
    }

    /// status, status_before_block and reason of a finding as stored.
    func stored(_ id: Int64) throws -> [String] {
        try #require(
            try rows("SELECT status, status_before_block, reason FROM findings WHERE id = $1", [id]).first)
    }

    /// One row of the events table, without its sequence number and time.
    struct EventRow: Equatable, CustomStringConvertible {
        var kind: String
        var subject: String
        var from: String? = nil
        var to: String? = nil
        var reason: String? = nil
        var findingID: Int64? = nil
        var actor: String

        var description: String {
            let finding = findingID.map(String.init) ?? "-"
            return "\(kind) \(subject): \(from ?? "-") → \(to ?? "-") (\(reason ?? "-")) finding \(finding) by \(actor)"
        }
    }

    /// The events of `kinds` after `seq`, oldest first.
    func events(_ kinds: [String], after seq: Int64 = 0) throws -> [EventRow] {
        try connection.query(
            """
            SELECT kind, subject, from_value, to_value, reason, finding_id, actor FROM events
            WHERE seq > $1 AND kind = ANY($2::text[]) ORDER BY seq
            """,
            [seq, kinds]
        ).map { row in
            EventRow(
                kind: try row.decode("kind"), subject: try row.decode("subject"),
                from: try row.decodeIfPresent("from_value"),
                to: try row.decodeIfPresent("to_value"), reason: try row.decodeIfPresent("reason"),
                findingID: try row.decodeIfPresent("finding_id"), actor: try row.decode("actor"))
        }
    }

    /// An item change as one comparable line: `ID title on SCREEN: from → to (reason) gate G`.
    func describe(_ change: ItemChange) -> String {
        "\(change.id) \(change.title) on \(change.screen ?? "unmapped"): "
            + "\(change.from.rawValue) → \(change.to.rawValue)" + (change.reason.map { " (\($0))" } ?? "")
            + (change.gate.map { " gate \($0)" } ?? "")
    }

    func readiness(of screen: String) throws -> ScreenReadiness {
        try ScreenStore.show(project: "app", key: screen, on: connection).readiness
    }

    /// Why a screen is not done, as the dashboard words it.
    func reasons(of screen: String) throws -> [String] {
        try ScreenStore.show(project: "app", key: screen, on: connection).readiness.reasons.map(\.description)
    }

    /// An SDK check document: `{"tool":"sdk_check","sdk":…,"symbols":[…]}`.
    func sdkCheck(sdk: String, _ symbols: [(symbol: String, found: Bool, availability: String?)]) -> [UInt8] {
        let entries = symbols.map { entry in
            let declaration = entry.availability.map { #","declaration":{"availability":"\#($0)"}"# } ?? ""
            return #"{"symbol":"\#(entry.symbol)","found":\#(entry.found)\#(declaration)}"#
        }
        return Array(#"{"tool":"sdk_check","sdk":"\#(sdk)","symbols":[\#(entries.joined(separator: ","))]}"#.utf8)
    }

    func ingestCheck(_ bytes: [UInt8]) throws -> SDKCheckResult {
        try SDKStore.ingestCheck(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: bytes), format: .sdkCheck, project: "app", actor: "ci"),
            report: try SDKCheckParser.parse(bytes), on: connection)
    }
}
