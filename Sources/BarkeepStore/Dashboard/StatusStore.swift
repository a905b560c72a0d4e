import BarkeepCore
import Foundation

/// Findings needing work, by severity, and blocked items: one row of the dashboard.
public struct WorkCounts: Sendable, Equatable {
    /// By position: findings needing work (proposed, approved, applied, blocked) of each severity in
    /// `Severity.allCases` order, then the untriaged ones (`WorkStage.untriaged`), then those in progress
    /// (`WorkStage.inProgress`); empty while there are none (most screens need no allocation).
    private var counts: [Int] = []
    /// Of those, how many are blocked.
    public private(set) var blocked = 0
    /// Findings needing work in all.
    public private(set) var total = 0

    /// How many severities there are.
    static let severityCount = Severity.allCases.count
    /// The position of each severity's raw value.
    static let severityIndex = Dictionary(
        uniqueKeysWithValues: Severity.allCases.enumerated().map { ($0.element.rawValue, $0.offset) })

    /// Findings needing work of the severity at `index` (in `Severity.allCases`), of `stage` (untriaged or in
    /// progress) or of any stage (nil).
    public func count(severity index: Int, stage: WorkStage? = nil) -> Int {
        guard !counts.isEmpty else { return 0 }
        switch stage {
        case nil: return counts[index]
        case .untriaged: return counts[Self.severityCount + index]
        case .inProgress: return counts[2 * Self.severityCount + index]
        case .blocked: return 0
        }
    }

    /// Counts `count` findings of `status` and `severity`; statuses needing no work are left out.
    mutating func add(_ count: Int, status: FindingStatus, severity: String) {
        guard let stage = WorkStage(status) else { return }
        total += count
        // The store's severities are Core's (a CHECK constraint); another would count in the total only.
        guard let index = Self.severityIndex[severity] else { return }
        if counts.isEmpty { counts = Array(repeating: 0, count: 3 * Self.severityCount) }
        counts[index] += count
        switch stage {
        case .untriaged: counts[Self.severityCount + index] += count
        case .inProgress: counts[2 * Self.severityCount + index] += count
        case .blocked: blocked += count
        }
    }

    /// Adds another row's counts to these.
    mutating func add(_ other: WorkCounts) {
        total += other.total
        blocked += other.blocked
        guard !other.counts.isEmpty else { return }
        if counts.isEmpty {
            counts = other.counts
        } else {
            for index in counts.indices { counts[index] += other.counts[index] }
        }
    }
}

/// One screen on the dashboard.
public struct ScreenStatus: Sendable, Equatable {
    /// The screen's key.
    public var key: String
    /// A screen, or the app area (components are counted in the screens that use them).
    public var kind: ScreenKind
    /// Its title.
    public var title: String?
    /// Its owner.
    public var owner: String?
    /// Its findings needing work.
    public var work: WorkCounts
    /// Whether it is done, its step and pose counts: what the dashboard shows of its readiness.
    public var tally: ReadinessTally
    /// The poses it must pass, in order.
    public var requiredPoses: [String]
    /// The latest result of each of `requiredPoses`, in order (nil: none).
    public var poseResults: [PoseResult?]
    /// The rows whose findings it counts: its own and the components it uses.
    var sources: [Int64] = []
}

/// Blocked items waiting for one SDK.
public struct BlockedGroup: Sendable, Equatable {
    /// The SDK that would bring what they wait for; nil when no known SDK declares it.
    public var sdk: SDKVersion?
    /// How many items.
    public var items: Int
}

/// Everything the dashboard shows about a project.
public struct ProjectStatus: Sendable, Equatable {
    /// The project.
    public var project: Project
    /// Its latest scan of the code (SDK checks left out).
    public var lastScan: ScanRun?
    /// Its findings by status.
    public var byStatus: [FindingStatus: Int]
    /// Blocked items by the SDK they wait for, oldest SDK first, undeclared last.
    public var blocked: [BlockedGroup]
    /// Its screens, by key.
    public var screens: [ScreenStatus]
    /// Findings needing work that no screen owns or uses.
    public var unmapped: WorkCounts
    /// The project's findings needing work, each counted once: a component's finding counts under every screen that
    /// uses it, but once here.
    public var work = WorkCounts()
    /// Findings marked verified that a scan after their verification still reports (counted among `verified`).
    public var verifiedReported = 0
    /// The findings needing work of each row (screen, component, area), each finding once, under its owner.
    var ownWork: [Int64: WorkCounts] = [:]
}

/// One owner's screens on the dashboard.
public struct OwnerSummary: Sendable, Equatable {
    /// The owner; nil for the screens nobody owns.
    public var owner: String?
    /// How many screens.
    public var screens: Int
    /// How many of them are done.
    public var done: Int
    /// Their findings needing work, by stage and severity.
    public var work: WorkCounts
}

extension ProjectStatus {
    /// The screens (not the app area) per owner, by owner, the screens nobody owns last. An owner's findings are
    /// those of their screens and of the components those use, each counted once however many screens share it.
    public var owners: [OwnerSummary] {
        var summaries: [String?: OwnerSummary] = [:]
        var sources: [String?: Set<Int64>] = [:]
        // By position: a screen's status is a large value, costly to copy.
        for index in screens.indices where screens[index].kind == .screen {
            let owner = screens[index].owner
            summaries[owner, default: OwnerSummary(owner: owner, screens: 0, done: 0, work: WorkCounts())].screens += 1
            summaries[owner]?.done += screens[index].tally.isDone ? 1 : 0
            sources[owner, default: []].formUnion(screens[index].sources)
        }
        for (owner, rows) in sources {
            for row in rows { summaries[owner]?.work.add(ownWork[row] ?? WorkCounts()) }
        }
        return summaries.values.sorted { left, right in
            guard let a = left.owner else { return false }
            guard let b = right.owner else { return true }
            return a < b
        }
    }
}

/// The dashboard's data, read from the summaries that triggers keep in the same transactions that change findings,
/// step states and pose results (Schema/0014): about one row per screen whatever the number of findings.
public enum StatusStore {

    // The statements of `status`, each taking the project's id as $1 (`plans` explains them).
    static let lastScanQuery = """
        SELECT \(ScanStore.runColumns) FROM scan_runs WHERE project_id = $1 AND format <> 'sdk-check'
        ORDER BY id DESC LIMIT 1
        """
    /// Findings counted by screen (0: none), status, severity, the step their rule evidences and the step of an item
    /// (0: none), and the symbols a blocked one waits for.
    static let summaryQuery = """
        SELECT screen_id, status, severity, rule_step, item_step, array_to_string(needs_symbols, ' '), findings
        FROM finding_summaries WHERE project_id = $1
        """
    /// The screens with their required poses, recorded step states (`3=done`) and latest pose results (`P1=passed`),
    /// each list as words: text is decoded much faster than arrays.
    static let screensQuery = """
        SELECT s.id, s.key, s.title, s.owner, s.kind, array_to_string(s.required_poses, ' '),
               array_to_string(p.step_states, ' '), array_to_string(p.latest_poses, ' ')
        FROM screens s LEFT JOIN screen_progress p ON p.screen_id = s.id
        WHERE s.project_id = $1 ORDER BY s.key
        """
    /// The verified findings a later scan still reports (Schema/0022): a lookup in their partial index.
    static let verifiedReportedQuery = """
        SELECT count(*) FROM findings WHERE project_id = $1 AND reported_after_verified
        """

    /// Each statement of `status` with its plan as PostgreSQL runs it (EXPLAIN ANALYZE), for docs/performance.md.
    public static func plans(project name: String, on connection: PostgresConnection) throws -> [(
        statement: String, plan: String
    )] {
        let project = try ProjectStore.require(name, on: connection)
        let statements = [
            lastScanQuery, summaryQuery, screensQuery, ReadinessStore.componentUsersQuery, verifiedReportedQuery,
        ]
        return try statements.map { statement in
            let plan = try connection.query("EXPLAIN (ANALYZE, COSTS OFF, BUFFERS) " + statement, [project.id])
                .map { try $0.decode(at: 0, as: String.self) }
            return (statement, plan.joined(separator: "\n"))
        }
    }

    /// One row of the findings summary.
    private struct SummaryRow {
        var screen: Int64?
        var status: FindingStatus
        var severity: String
        var ruleStep: Int
        var itemStep: Int
        var needsSymbols: [String]
        var count: Int

        init(_ row: PostgresRow) throws {
            let screen = try row.decode(at: 0, as: Int64.self)
            self.screen = screen == 0 ? nil : screen
            status = FindingStatus(rawValue: try row.decode(at: 1)) ?? .proposed
            severity = try row.decode(at: 2)
            ruleStep = try row.decode(at: 3)
            itemStep = try row.decode(at: 4)
            needsSymbols = words(try row.decode(at: 5))
            count = try row.decode(at: 6)
        }
    }

    /// The version of what `status` shows of the project named `name` (an SQL expression; Schema/0017): one
    /// primary-key lookup.
    private static func versionQuery(of name: String) -> String {
        "SELECT v.version::text FROM projects p JOIN status_versions v ON v.project_id = p.id WHERE p.name = \(name)"
    }

    /// Whether the token of id `token` (an SQL expression) is active, not revoked; true when it is NULL.
    private static func isTokenActive(_ token: String) -> String {
        "\(token) IS NULL OR EXISTS (SELECT 1 FROM tokens WHERE id = \(token) AND revoked_at IS NULL)"
    }

    /// The version of project `$1`.
    static let versionQuery = versionQuery(of: "$1")

    /// `versionQuery`, and whether token `$2` is active (not revoked; true when `$2` is NULL), in one statement: the
    /// lookup of `version(project:checkingToken:on:)`.
    static let versionCheckingTokenQuery = "SELECT (\(versionQuery)), \(isTokenActive("$2::bigint"))"

    /// `versionCheckingTokenQuery` of many projects and tokens in one statement, one row for each, in their order:
    /// projects `$1` (a text array) and tokens `$2` (a bigint array, NULL where none is checked), by position. The
    /// lookup of `StatusVersionLookup`.
    static let versionsCheckingTokensQuery = """
        SELECT (\(versionQuery(of: "k.project"))), \(isTokenActive("k.token"))
        FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS k(project, token, position) ORDER BY k.position
        """

    /// The version of what `status` shows of `project` now, nil when there is no such project. Any committed change
    /// to what it shows gives another version (a random one: equal versions mean equal statuses, in any database).
    public static func version(project name: String, on connection: PostgresConnection) throws -> String? {
        try connection.queryValue(versionQuery, [name], as: String.self)
    }

    /// `version` of `project`, and whether token `tokenID` is still active (as `TokenStore.activeRole` decides: not
    /// revoked), read in one statement: a request's token check and its STATUS lookup in one round trip. Without a
    /// token to check, `isTokenActive` is true.
    public static func version(
        project name: String, checkingToken tokenID: Int64?, on connection: PostgresConnection
    ) throws -> (version: String?, isTokenActive: Bool) {
        guard let tokenID else { return (try version(project: name, on: connection), true) }
        // The statement reads from no table: it always answers one row.
        guard let row = try connection.query(versionCheckingTokenQuery, [name, tokenID]).first else {
            throw StoreError.invalid("the status version lookup answered no row")
        }
        return (try row.decodeIfPresent(at: 0, as: String.self), try row.decode(at: 1, as: Bool.self))
    }

    /// The status of a project; `notFound` when there is none. One repeatable-read snapshot, so the figures agree.
    public static func status(project name: String, on connection: PostgresConnection) throws -> ProjectStatus {
        try versionedStatus(project: name, on: connection).status
    }

    /// The status of a project with the version it is of (nil when the project has none yet), read in one snapshot:
    /// while `version` returns the same, `status` returns the same.
    public static func versionedStatus(project name: String, on connection: PostgresConnection) throws -> (
        status: ProjectStatus, version: String?
    ) {
        try connection.transaction { connection in
            try connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            // First: the snapshot is taken by the first statement, and the version is read in it.
            let version = try connection.queryValue(versionQuery, [name], as: String.self)
            let project = try ProjectStore.require(name, on: connection)
            let lastScan = try connection.query(lastScanQuery, [project.id]).first.map(ScanRun.init(row:))

            var byStatus: [FindingStatus: Int] = [:]
            var work: [Int64?: WorkCounts] = [:]
            var projectWork = WorkCounts()
            // Per screen, the steps that an open finding of an evidencing rule keeps open, and those an open item
            // keeps open; blocked items by the symbols they wait for.
            var ruleSteps: [Int64: Set<Int>] = [:]
            var itemSteps: [Int64: Set<Int>] = [:]
            var blockedItems: [[String]: Int] = [:]
            for row in try connection.query(summaryQuery, [project.id]) {
                let summary = try SummaryRow(row)
                byStatus[summary.status, default: 0] += summary.count
                work[summary.screen, default: WorkCounts()].add(
                    summary.count, status: summary.status, severity: summary.severity)
                projectWork.add(summary.count, status: summary.status, severity: summary.severity)
                if summary.status == .blocked { blockedItems[summary.needsSymbols, default: 0] += summary.count }
                guard summary.status.needsWork, let screen = summary.screen else { continue }
                if summary.ruleStep != 0 { ruleSteps[screen, default: []].insert(summary.ruleStep) }
                if summary.itemStep != 0 { itemSteps[screen, default: []].insert(summary.itemStep) }
            }

            let screens = try connection.query(screensQuery, [project.id]).map { row in
                (
                    id: try row.decode(at: 0, as: Int64.self), key: try row.decode(at: 1, as: String.self),
                    title: try row.decodeIfPresent(at: 2, as: String.self),
                    owner: try row.decodeIfPresent(at: 3, as: String.self),
                    kind: ScreenKind(rawValue: try row.decode(at: 4)) ?? .screen,
                    poses: try row.decodeIfPresent(at: 5, as: String.self).map(words),
                    stepStates: try row.decodeIfPresent(at: 6, as: String.self),
                    latestPoses: try row.decodeIfPresent(at: 7, as: String.self)
                )
            }
            // A component's findings count for each screen that uses it, and as unmapped when none does.
            var ownWork: [Int64: WorkCounts] = [:]
            for case (let row?, let counts) in work { ownWork[row] = counts }
            let users = try ReadinessStore.componentUsers(projectID: project.id, on: connection)
            var used: [Int64: [Int64]] = [:]
            for (component, screens) in users { for screen in screens { used[screen, default: []].append(component) } }
            var unmapped = work[nil] ?? WorkCounts()
            // By position, like the screens below: `for screen in screens` would copy every screen's row.
            for index in screens.indices where screens[index].kind == .component {
                guard let counts = work[screens[index].id] else { continue }
                guard let using = users[screens[index].id], !using.isEmpty else {
                    unmapped.add(counts)
                    continue
                }
                for user in using { work[user, default: WorkCounts()].add(counts) }
            }
            let checklist = ChecklistStep.all
            var blockers: [Int64: [OpenFinding]] = [:]
            for (owner, steps) in [ruleSteps, itemSteps].joined() {
                for step in steps.sorted() {
                    // The summary keeps no finding numbers: the dashboard shows whether a step is open, not by what.
                    let finding = OpenFinding(number: 0, label: "", status: .proposed, step: step)
                    for screen in [owner] + (users[owner] ?? []) { blockers[screen, default: []].append(finding) }
                }
            }
            // Decoded by position (checklist step, required pose), not into dictionaries: a thousand screens.
            var stepPosition = [Int](repeating: -1, count: max(0, checklist.map(\.number).max() ?? 0) + 1)
            for (position, step) in checklist.enumerated() where step.number >= 0 {
                stepPosition[step.number] = position
            }
            let noStates = [StepState](repeating: .todo, count: checklist.count)
            let projectPoses = PoseSpellings(project.requiredPoses)
            // By position: `filter` would copy every screen's row first.
            let statuses = screens.indices.filter { screens[$0].kind != .component }.map { index in
                let screen = screens[index]
                let steps = screen.kind == .screen ? checklist : []
                let requiredPoses = screen.poses ?? (screen.kind == .screen ? project.requiredPoses : [])
                let openFindings = blockers[screen.id] ?? []
                var recorded = steps.isEmpty ? [] : noStates
                if !steps.isEmpty {
                    forEachPair(in: screen.stepStates) { step, state in
                        guard let number = number(step), number < stepPosition.count, stepPosition[number] >= 0,
                            let state = value(state, in: stepStateSpellings)
                        else { return }
                        recorded[stepPosition[number]] = state
                    }
                }
                let blocked = openFindings.isEmpty ? [] : steps.map { openFindings.contains(where: $0.isKeptOpen) }
                let poses = screen.poses == nil && screen.kind == .screen ? projectPoses : PoseSpellings(requiredPoses)
                var poseResults = [PoseResult?](repeating: nil, count: requiredPoses.count)
                var next = 0
                forEachPair(in: screen.latestPoses) { pose, result in
                    poses.forEachPosition(of: pose, from: next) { position in
                        poseResults[position] = value(result, in: poseResultSpellings)
                        next = position + 1
                    }
                }
                let counts = work[screen.id] ?? WorkCounts()
                return ScreenStatus(
                    key: screen.key, kind: screen.kind, title: screen.title, owner: screen.owner, work: counts,
                    tally: ReadinessTally(
                        openFindingCount: max(counts.total, openFindings.count), recorded: recorded, blocked: blocked,
                        poseResults: poseResults),
                    requiredPoses: requiredPoses, poseResults: poseResults,
                    sources: [screen.id] + (used[screen.id] ?? []))
            }
            var status = ProjectStatus(
                project: project, lastScan: lastScan, byStatus: byStatus,
                blocked: try blockedGroups(blockedItems, project: project, on: connection), screens: statuses,
                unmapped: unmapped, work: projectWork, ownWork: ownWork
            )
            // Only a scan marks one, so a project without a scan has none.
            if lastScan != nil {
                status.verifiedReported =
                    try connection.queryValue(verifiedReportedQuery, [project.id], as: Int.self) ?? 0
            }
            return (status, version)
        }
    }

    /// The words of `text`, separated by single spaces.
    private static func words(_ text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The key and value bytes of each `key=value` word of `text` (nil: none), passed to `body`: a thousand screens'
    /// step states and poses are read without making a string of each.
    private static func forEachPair(
        in text: String?, _ body: (Slice<UnsafeBufferPointer<UInt8>>, Slice<UnsafeBufferPointer<UInt8>>) -> Void
    ) {
        guard var text else { return }
        text.withUTF8 { bytes in
            var start = 0
            var equals: Int?
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: " ")
                if byte == UInt8(ascii: "=") && equals == nil {
                    equals = index
                } else if byte == UInt8(ascii: " ") {
                    if let equals { body(bytes[start..<equals], bytes[(equals + 1)..<index]) }
                    start = index + 1
                    equals = nil
                }
            }
        }
    }

    /// Each step state and pose result with the bytes of its raw value, made once (`allCases` builds an array on
    /// every call).
    private static let stepStateSpellings = StepState.allCases.map { (Array($0.rawValue.utf8), $0) }
    private static let poseResultSpellings = PoseResult.allCases.map { (Array($0.rawValue.utf8), $0) }

    /// The value of `spellings` spelled by `bytes`.
    private static func value<T>(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, in spellings: [([UInt8], T)]) -> T? {
        spellings.first { $0.0.elementsEqual(bytes) }?.1
    }

    /// The number spelled by `bytes` (one to four digits), or nil.
    private static func number(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The bytes of each required pose, to find a recorded pose among them without making a string of it.
    private struct PoseSpellings {
        let names: [[UInt8]]
        /// Whether no pose is required twice: the first match is then the only one.
        let isUnique: Bool

        init(_ poses: [String]) {
            names = poses.map { Array($0.utf8) }
            isUnique = Set(poses).count == poses.count
        }

        /// Calls `body` with each position of `pose`, looking from `start` first: results are recorded in the
        /// required order, so the next pose is usually where the last one left off.
        func forEachPosition(of pose: Slice<UnsafeBufferPointer<UInt8>>, from start: Int, _ body: (Int) -> Void) {
            guard isUnique else {
                for position in names.indices where names[position].elementsEqual(pose) { body(position) }
                return
            }
            for offset in names.indices {
                let position = (start + offset) % names.count
                if names[position].count == pose.count && names[position].elementsEqual(pose) {
                    body(position)
                    return
                }
            }
        }
    }

    /// Blocked items counted once, under the newest SDK they wait for (no SDK at all when one symbol has none).
    /// `items`: how many blocked items wait for each set of symbols.
    private static func blockedGroups(
        _ items: [[String]: Int], project: Project, on connection: PostgresConnection
    ) throws -> [BlockedGroup] {
        guard !items.isEmpty else { return [] }
        let facts = try SDKStore.facts(Array(Set(items.keys.joined())), project: project, on: connection)
        let sdk = SDKVersion(project.sdk) ?? SDKVersion(0)
        var counts: [SDKVersion?: Int] = [:]
        for (needs, count) in items {
            let missing = needs.filter { facts[$0]?.isAvailable(in: sdk) != true }
            // An item blocked with nothing missing any more waits for the next re-examination: counted as none.
            let sdks = missing.isEmpty ? [nil] : missing.map { SDKStore.awaitedSDK(facts[$0], sdk: sdk) }
            counts[sdks.contains(nil) ? nil : sdks.compactMap { $0 }.max(), default: 0] += count
        }
        return counts.map { BlockedGroup(sdk: $0.key, items: $0.value) }.sorted { left, right in
            guard let a = left.sdk else { return false }
            guard let b = right.sdk else { return true }
            return a < b
        }
    }
}
