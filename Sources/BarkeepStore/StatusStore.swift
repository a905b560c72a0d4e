import BarkeepCore
import Foundation

/// Findings needing work, by severity, and blocked items: one row of the dashboard.
public struct WorkCounts: Sendable, Equatable {
    /// Findings needing work (proposed, approved, applied, blocked) by severity.
    public var bySeverity: [String: Int] = [:]
    /// Of those, the untriaged ones (`WorkStage.untriaged`) by severity.
    public var untriaged: [String: Int] = [:]
    /// Of those, the ones in progress (`WorkStage.inProgress`) by severity.
    public var inProgress: [String: Int] = [:]
    /// Of those, how many are blocked.
    public var blocked = 0

    /// Findings needing work in all.
    public var total: Int { bySeverity.values.reduce(0, +) }

    /// Counts `count` findings of `status` and `severity`; statuses needing no work are left out.
    mutating func add(_ count: Int, status: FindingStatus, severity: String) {
        guard let stage = WorkStage(status) else { return }
        bySeverity[severity, default: 0] += count
        switch stage {
        case .untriaged: untriaged[severity, default: 0] += count
        case .inProgress: inProgress[severity, default: 0] += count
        case .blocked: blocked += count
        }
    }

    /// Adds another row's counts to these.
    mutating func add(_ other: WorkCounts) {
        for (severity, count) in other.bySeverity { bySeverity[severity, default: 0] += count }
        for (severity, count) in other.untriaged { untriaged[severity, default: 0] += count }
        for (severity, count) in other.inProgress { inProgress[severity, default: 0] += count }
        blocked += other.blocked
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
    /// Whether it is done, its step and pose counts.
    public var readiness: ScreenReadiness
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
        for screen in screens where screen.kind == .screen {
            var summary =
                summaries[screen.owner] ?? OwnerSummary(owner: screen.owner, screens: 0, done: 0, work: WorkCounts())
            summary.screens += 1
            summary.done += screen.readiness.isDone ? 1 : 0
            summaries[screen.owner] = summary
            sources[screen.owner, default: []].formUnion(screen.sources)
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

/// The dashboard's data: a few aggregate statements per project, each answered from an index (docs/performance.md
/// shows their plans), so it costs the same for ten findings or a hundred thousand.
public enum StatusStore {

    // The statements of `status`, each taking the project's id as $1 (`plans` explains them).
    static let lastScanQuery = """
        SELECT \(ScanStore.runColumns) FROM scan_runs WHERE project_id = $1 AND format <> 'sdk-check'
        ORDER BY id DESC LIMIT 1
        """
    static let countsQuery = """
        SELECT screen_id, status, severity, count(*) AS n FROM findings WHERE project_id = $1
        GROUP BY screen_id, status, severity
        """
    static let screensQuery = """
        SELECT id, key, title, owner, kind, required_poses FROM screens WHERE project_id = $1 ORDER BY key
        """
    /// Per screen and step, the least number of an open finding that keeps the step open: findings of the rules that
    /// evidence a step, then items of a step.
    static let stepBlockersQuery = """
        SELECT f.screen_id, r.step, min(f.number) AS number FROM findings f JOIN rules r ON r.id = f.rule
        WHERE f.project_id = $1 AND f.status IN \(FindingStatus.needsWorkSQL) AND f.screen_id IS NOT NULL
          AND f.rule = ANY (ARRAY(SELECT id FROM rules WHERE step IS NOT NULL))
        GROUP BY f.screen_id, r.step
        UNION ALL
        SELECT screen_id, step, min(number) FROM findings
        WHERE project_id = $1 AND source = 'manual' AND step IS NOT NULL AND screen_id IS NOT NULL
          AND status IN \(FindingStatus.needsWorkSQL)
        GROUP BY screen_id, step
        """
    static let blockedQuery = """
        SELECT id, needs_symbols FROM findings WHERE project_id = $1 AND status = 'blocked'
        """

    /// Each statement of `status` with its plan as PostgreSQL runs it (EXPLAIN ANALYZE), for docs/performance.md.
    public static func plans(project name: String, on connection: PostgresConnection) throws -> [(
        statement: String, plan: String
    )] {
        let project = try ProjectStore.require(name, on: connection)
        let statements: [(String, [(any PostgresEncodable)?])] =
            [lastScanQuery, countsQuery, screensQuery, stepBlockersQuery].map { ($0, [project.id]) }
            + [ReadinessStore.stepStatesQuery, ReadinessStore.latestPosesQuery].map { ($0, [project.id, nil]) }
            + [(blockedQuery, [project.id])]
        return try statements.map { statement, parameters in
            let plan = try connection.query("EXPLAIN (ANALYZE, COSTS OFF, BUFFERS) " + statement, parameters)
                .map { try $0.decode(at: 0, as: String.self) }
            return (statement, plan.joined(separator: "\n"))
        }
    }

    /// The status of a project; `notFound` when there is none. One repeatable-read snapshot, so the figures agree.
    public static func status(project name: String, on connection: PostgresConnection) throws -> ProjectStatus {
        try connection.transaction { connection in
            try connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            let project = try ProjectStore.require(name, on: connection)
            let lastScan = try connection.query(lastScanQuery, [project.id]).first.map(ScanRun.init(row:))

            var byStatus: [FindingStatus: Int] = [:]
            var work: [Int64?: WorkCounts] = [:]
            for row in try connection.query(countsQuery, [project.id]) {
                let status = FindingStatus(rawValue: try row.decode("status")) ?? .proposed
                let count: Int = try row.decode("n")
                byStatus[status, default: 0] += count
                let screen: Int64? = try row.decodeIfPresent("screen_id")
                work[screen, default: WorkCounts()].add(count, status: status, severity: try row.decode("severity"))
            }

            let screens = try connection.query(screensQuery, [project.id]).map { row in
                (
                    id: try row.decode("id", as: Int64.self), key: try row.decode("key", as: String.self),
                    title: try row.decodeIfPresent("title", as: String.self),
                    owner: try row.decodeIfPresent("owner", as: String.self),
                    kind: ScreenKind(rawValue: try row.decode("kind")) ?? .screen,
                    poses: try row.decodeIfPresent("required_poses", as: [String].self)
                )
            }
            // A component's findings count for each screen that uses it, and as unmapped when none does.
            var ownWork: [Int64: WorkCounts] = [:]
            for case (let row?, let counts) in work { ownWork[row] = counts }
            let users = try ReadinessStore.componentUsers(projectID: project.id, on: connection)
            var used: [Int64: [Int64]] = [:]
            for (component, screens) in users { for screen in screens { used[screen, default: []].append(component) } }
            var unmapped = work[nil] ?? WorkCounts()
            for screen in screens where screen.kind == .component {
                guard let counts = work[screen.id] else { continue }
                guard let using = users[screen.id], !using.isEmpty else {
                    unmapped.add(counts)
                    continue
                }
                for user in using { work[user, default: WorkCounts()].add(counts) }
            }
            let shown = screens.filter { $0.kind != .component }
            let facts = try readinessFacts(
                project: project,
                screens: shown.map { ($0.id, $0.kind, $0.poses ?? ($0.kind == .screen ? project.requiredPoses : [])) },
                users: users, on: connection)
            let statuses = shown.compactMap { screen -> ScreenStatus? in
                guard var screenFacts = facts[screen.id] else { return nil }
                let counts = work[screen.id] ?? WorkCounts()
                screenFacts.openFindingCount = max(counts.total, screenFacts.openFindings.count)
                return ScreenStatus(
                    key: screen.key, kind: screen.kind, title: screen.title, owner: screen.owner, work: counts,
                    readiness: ScreenReadiness(screenFacts), sources: [screen.id] + (used[screen.id] ?? []))
            }
            return ProjectStatus(
                project: project, lastScan: lastScan, byStatus: byStatus,
                blocked: try blockedGroups(project: project, on: connection), screens: statuses,
                unmapped: unmapped, ownWork: ownWork
            )
        }
    }

    /// The facts of `screens` (id, kind, required poses) but their finding counts: per step, one open finding
    /// that keeps it open (a used component's too); step states and latest poses.
    private static func readinessFacts(
        project: Project,
        screens: [(id: Int64, kind: ScreenKind, poses: [String])],
        users: [Int64: [Int64]],
        on connection: PostgresConnection
    ) throws -> [Int64: ScreenFacts] {
        let checklist = try ReadinessStore.checklist(on: connection)
        var facts = Dictionary(
            uniqueKeysWithValues: screens.map { screen in
                (
                    screen.id,
                    ScreenFacts(
                        openFindings: [], checklist: screen.kind == .screen ? checklist : [], stepStates: [:],
                        requiredPoses: screen.poses, latestPoses: [:])
                )
            })
        for row in try connection.query(stepBlockersQuery, [project.id]) {
            let finding = OpenFinding(
                number: try row.decode("number"), label: "", status: .proposed, step: try row.decode("step"))
            let owner: Int64 = try row.decode("screen_id")
            for screen in [owner] + (users[owner] ?? []) { facts[screen]?.openFindings.append(finding) }
        }
        try ReadinessStore.addStepsAndPoses(to: &facts, projectID: project.id, screenID: nil, on: connection)
        return facts
    }

    /// Blocked items counted once, under the newest SDK they wait for (no SDK at all when one symbol has none).
    private static func blockedGroups(project: Project, on connection: PostgresConnection) throws -> [BlockedGroup] {
        let items = try connection.query(blockedQuery, [project.id]).map { row in
            (id: try row.decode("id", as: Int64.self), needs: try row.decode("needs_symbols", as: [String].self))
        }
        let facts = try SDKStore.facts(Array(Set(items.flatMap(\.needs))), project: project, on: connection)
        let sdk = SDKVersion(project.sdk) ?? SDKVersion(0)
        var waits: [Int64: [SDKVersion?]] = [:]
        for item in items {
            let missing = item.needs.filter { facts[$0]?.isAvailable(in: sdk) != true }
            // An item blocked with nothing missing any more waits for the next re-examination: counted as none.
            waits[item.id] = missing.isEmpty ? [nil] : missing.map { SDKStore.awaitedSDK(facts[$0], sdk: sdk) }
        }
        var counts: [SDKVersion?: Int] = [:]
        for sdks in waits.values { counts[sdks.contains(nil) ? nil : sdks.compactMap { $0 }.max(), default: 0] += 1 }
        return counts.map { BlockedGroup(sdk: $0.key, items: $0.value) }.sorted { left, right in
            guard let a = left.sdk else { return false }
            guard let b = right.sdk else { return true }
            return a < b
        }
    }
}
