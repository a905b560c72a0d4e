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
        // By position: a screen's status is a large value, costly to copy.
        for index in screens.indices where screens[index].kind == .screen {
            let owner = screens[index].owner
            summaries[owner, default: OwnerSummary(owner: owner, screens: 0, done: 0, work: WorkCounts())].screens += 1
            summaries[owner]?.done += screens[index].readiness.isDone ? 1 : 0
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

    /// Each statement of `status` with its plan as PostgreSQL runs it (EXPLAIN ANALYZE), for docs/performance.md.
    public static func plans(project name: String, on connection: PostgresConnection) throws -> [(
        statement: String, plan: String
    )] {
        let project = try ProjectStore.require(name, on: connection)
        return try [lastScanQuery, summaryQuery, screensQuery, ReadinessStore.componentUsersQuery].map { statement in
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

    /// The status of a project; `notFound` when there is none. One repeatable-read snapshot, so the figures agree.
    public static func status(project name: String, on connection: PostgresConnection) throws -> ProjectStatus {
        try connection.transaction { connection in
            try connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            let project = try ProjectStore.require(name, on: connection)
            let lastScan = try connection.query(lastScanQuery, [project.id]).first.map(ScanRun.init(row:))

            var byStatus: [FindingStatus: Int] = [:]
            var work: [Int64?: WorkCounts] = [:]
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
            for screen in screens where screen.kind == .component {
                guard let counts = work[screen.id] else { continue }
                guard let using = users[screen.id], !using.isEmpty else {
                    unmapped.add(counts)
                    continue
                }
                for user in using { work[user, default: WorkCounts()].add(counts) }
            }
            let checklist = try ReadinessStore.checklist(on: connection)
            var blockers: [Int64: [OpenFinding]] = [:]
            for (owner, steps) in [ruleSteps, itemSteps].joined() {
                for step in steps.sorted() {
                    // The summary keeps no finding numbers: the dashboard shows whether a step is open, not by what.
                    let finding = OpenFinding(number: 0, label: "", status: .proposed, step: step)
                    for screen in [owner] + (users[owner] ?? []) { blockers[screen, default: []].append(finding) }
                }
            }
            let statuses = screens.filter { $0.kind != .component }.map { screen in
                var facts = ScreenFacts(
                    openFindings: blockers[screen.id] ?? [], checklist: screen.kind == .screen ? checklist : [],
                    stepStates: stepStates(screen.stepStates),
                    requiredPoses: screen.poses ?? (screen.kind == .screen ? project.requiredPoses : []),
                    latestPoses: latestPoses(screen.latestPoses))
                let counts = work[screen.id] ?? WorkCounts()
                facts.openFindingCount = max(counts.total, facts.openFindings.count)
                return ScreenStatus(
                    key: screen.key, kind: screen.kind, title: screen.title, owner: screen.owner, work: counts,
                    readiness: ScreenReadiness(facts), sources: [screen.id] + (used[screen.id] ?? []))
            }
            return ProjectStatus(
                project: project, lastScan: lastScan, byStatus: byStatus,
                blocked: try blockedGroups(blockedItems, project: project, on: connection), screens: statuses,
                unmapped: unmapped, ownWork: ownWork
            )
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

    /// Step states from the summary's `3=done` words.
    private static func stepStates(_ text: String?) -> [Int: StepState] {
        var states: [Int: StepState] = [:]
        states.reserveCapacity(12)  // the checklist's steps
        forEachPair(in: text) { step, state in
            guard (1...4).contains(step.count), step.allSatisfy({ (0x30...0x39).contains($0) }),
                let state = value(state, in: stepStateSpellings)
            else { return }
            states[step.reduce(0) { $0 * 10 + Int($1 - 0x30) }] = state
        }
        return states
    }

    /// Latest pose results from the summary's `P1=passed` words.
    private static func latestPoses(_ text: String?) -> [String: PoseResult] {
        var results: [String: PoseResult] = [:]
        results.reserveCapacity(16)  // the poses P1…P16
        forEachPair(in: text) { pose, result in
            results[String(decoding: pose, as: UTF8.self)] = value(result, in: poseResultSpellings)
        }
        return results
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
