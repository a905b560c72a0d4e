import BarkeepCore
import Foundation

/// A finding as listed and shown.
public struct Finding: Sendable, Equatable {
    /// The row's id: what other rows reference. Never shown; users name a finding by its `number`.
    public var id: Int64
    /// A scanner finding's identity: the SHA-256 (hex) of tool, rule, file, normalized snippet and occurrence
    /// (`FindingIdentity`), the same from one scan to the next while the code only moves; nil for an item.
    public var identity: String?
    /// The project's name.
    public var project: String
    /// scanner or manual.
    public var source: String
    /// The rule (scanner findings).
    public var rule: String?
    /// critical … info.
    public var severity: String
    /// The file, relative to the scanned root.
    public var file: String?
    /// The line it was last seen at.
    public var line: Int?
    /// The source line as last reported.
    public var snippet: String?
    /// The scanner's message.
    public var message: String?
    /// The title (manual items; some scanners).
    public var title: String?
    /// The status.
    public var status: FindingStatus
    /// Why, for declined, kept and blocked.
    public var reason: String?
    /// The owning screen's key; nil when unmapped.
    public var screen: String?
    /// The number of the run that first reported it.
    public var firstSeenRun: Int?
    /// The number of the run that last reported it.
    public var lastSeenRun: Int?
    /// The checklist step it belongs to (manual items; scanner findings through their rule).
    public var step: Int?
    /// The SDK symbols its fix needs.
    public var needs: [String]
    /// Its number in the project (findings and items share the numbers), given at creation and never reused: what
    /// every output, command and report names it by.
    public var number: Int
    /// The readiness tier of its rule (0 blocker, 1 correctness, 2 bars); nil when the rule has none, or for items.
    public var tier: Int?
    /// For an item whose symbols the project's SDK has: the iOS version its code must be gated on
    /// (`if #available(iOS 27.1, *)`) because the deployment target is lower.
    public var gate: SDKVersion?
    /// Who works on it (Core's Assignee); nil: no one.
    public var assignee: String?
    /// Whether it is verified and a scan after its verification still reported it (`lastSeenRun` is the latest
    /// such run): the fix did not make the scanner stop reporting it.
    public var isReportedAfterVerified: Bool
    /// Why no screen counts it (UnmappedReason's rule); nil when one does.
    public var unmapped: UnmappedReason?
    /// The excluded path holding its file, when no glob takes it (`UnmappedReason.excluded`).
    public var excludedBy: String?

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        identity = try row.decodeIfPresent("identity")
        project = try row.decode("project")
        source = try row.decode("source")
        rule = try row.decodeIfPresent("rule")
        severity = try row.decode("severity")
        file = try row.decodeIfPresent("file")
        line = try row.decodeIfPresent("line")
        snippet = try row.decodeIfPresent("snippet")
        message = try row.decodeIfPresent("message")
        title = try row.decodeIfPresent("title")
        status = FindingStatus(rawValue: try row.decode("status")) ?? .proposed
        reason = try row.decodeIfPresent("reason")
        screen = try row.decodeIfPresent("screen")
        firstSeenRun = try row.decodeIfPresent("first_seen_run")
        lastSeenRun = try row.decodeIfPresent("last_seen_run")
        step = try row.decodeIfPresent("step")
        needs = try row.decode("needs_symbols")
        number = try row.decode("number")
        tier = try row.decodeIfPresent("tier")
        gate = nil
        assignee = try row.decodeIfPresent("assignee")
        isReportedAfterVerified = try row.decode("reported_after_verified")
        excludedBy = try row.decodeIfPresent("excluded_by")
        unmapped = UnmappedReason.of(
            hasOwner: screen != nil, isUnusedComponent: try row.decode("is_unused_component"), file: file,
            excludedBy: excludedBy)
    }
}

/// Findings: listing, one with its history, and triage.
public enum FindingStore {
    /// `last_seen_run` is stored only when a run changed the row. An open (not fixed, not sticky) scanner finding
    /// was seen by every later run of its tool that covered its file — a run that did not see it would have fixed
    /// it — so its last run is the latest such run. `latest` (below) holds each tool and scope's latest run, so
    /// the derivation costs a few comparisons per finding whatever the number of runs.
    static let lastSeenRun = """
        CASE WHEN f.source = \(FindingSource.scanner.sql) AND f.status NOT IN \(FindingStatus.settledSQL) THEN
            greatest(f.last_seen_run, (SELECT max(l.id) FROM latest l
                                       WHERE l.project_id = f.project_id AND l.tool = f.tool
                                         AND barkeep_covers(l.scope, f.file)))
        ELSE f.last_seen_run END
        """

    /// The columns a finding is listed with.
    static let columns = """
        f.id, p.name AS project, f.source, f.rule, f.severity, f.file, f.line, f.snippet, f.message, f.title, f.status,
        f.reason, s.key AS screen, fr.number AS first_seen_run,
        (SELECT r.number FROM scan_runs r WHERE r.id = \(lastSeenRun)) AS last_seen_run, f.identity,
        coalesce(f.step, ru.step) AS step, f.needs_symbols, f.number, ru.tier, f.assignee, f.reported_after_verified,
        \(unmappedColumns)
        """

    /// Why a finding is unmapped (UnmappedReason.of decides): whether its owner is a component no screen uses, and,
    /// for a file no glob takes, the excluded path holding it (the longest).
    static let unmappedColumns = """
        (s.kind = \(ScreenKind.component.sql)
         AND NOT EXISTS (SELECT 1 FROM screen_uses u WHERE u.project_id = f.project_id AND u.component_id = f.screen_id))
            IS TRUE AS is_unused_component,
        CASE WHEN f.screen_id IS NULL AND f.file IS NOT NULL THEN
            (SELECT e.path FROM screen_exclusions e
             WHERE e.project_id = f.project_id AND (f.file = e.path OR starts_with(f.file, e.path || '/'))
             ORDER BY length(e.path) DESC LIMIT 1)
        END AS excluded_by
        """

    /// The latest run of each tool and scope of the projects involved (`$1`: one project id, or NULL for all).
    static let latest = """
        WITH latest AS MATERIALIZED (
            SELECT DISTINCT ON (project_id, tool, scope) project_id, tool, scope, id
            FROM scan_runs WHERE $1::bigint IS NULL OR project_id = $1
            ORDER BY project_id, tool, scope, id DESC
        )
        """

    /// The tables `columns` reads: the rule and the first run joined, not looked up row by row (a fifth of a
    /// 100,000-finding listing's time).
    static let from = """
        findings f JOIN projects p ON p.id = f.project_id LEFT JOIN screens s ON s.id = f.screen_id
        LEFT JOIN rules ru ON ru.id = f.rule LEFT JOIN scan_runs fr ON fr.id = f.first_seen_run
        """

    /// The findings of `projectName` that `query` selects, by file and line: the one query behind FINDINGS, bulk
    /// FINDING SET and FINDING ASSIGN. A screen, rule or owner the project does not know is `notFound`, an unknown
    /// step key `invalid`.
    public static func list(
        project projectName: String,
        query: FindingQuery,
        on connection: PostgresConnection
    ) throws -> [Finding] {
        let project = try ProjectStore.require(projectName, on: connection)
        return try list(.query(query), project: project, on: connection)
    }

    /// The findings `selector` picks in `project`, by file and line, with their gates.
    static func list(
        _ selector: FindingSelector,
        project: Project,
        on connection: PostgresConnection
    ) throws -> [Finding] {
        let selection = try FindingSelection(selector, project: project, on: connection)
        let findings = try connection.query(
            """
            \(latest)
            SELECT \(columns) FROM \(from)
            WHERE \(selection.condition)
            ORDER BY f.file, f.line, f.id
            """,
            selection.parameters
        ).map(Finding.init(row:))
        return try SDKStore.withGates(findings, project: project, on: connection)
    }

    /// Finding `number` of `projectName` and its history, oldest first; `notFound` when there is none.
    public static func show(project projectName: String, number: Int, on connection: PostgresConnection) throws
        -> (Finding, [Event])
    {
        let project = try ProjectStore.require(projectName, on: connection)
        guard
            let row = try connection.query(
                "\(latest) SELECT \(columns) FROM \(from) WHERE f.project_id = $1 AND f.number = $2",
                [project.id, number]
            ).first
        else { throw StoreError.notFound("no finding \(number) in project '\(project.name)'") }
        let finding = try Finding(row: row)
        let history = try connection.query(
            """
            SELECT \(EventLog.columns)
            FROM events WHERE finding_id = $1 ORDER BY seq
            """,
            [finding.id]
        ).map(Event.init(row:))
        return (try SDKStore.withGates([finding], project: project, on: connection).first ?? finding, history)
    }

    /// Sets the status of finding `number` as a person holding `role`, with its event; what FindingLifecycle
    /// refuses is `invalid`, `conflict` or `forbidden`. Setting the status and reason a finding already has changes
    /// nothing.
    public static func setStatus(
        project projectName: String,
        number: Int,
        to status: FindingStatus,
        reason: String?,
        role: Role,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Finding {
        let result = try setStatus(
            project: projectName, of: .numbers([number]), to: status, reason: reason, role: role, actor: actor,
            isDryRun: false, on: connection)
        guard let change = result.changes.first else {
            throw StoreError.notFound("no finding \(number) in project '\(projectName)'")
        }
        if let refusal = change.refusal { throw StoreError(refusal) }
        return change.finding
    }
}
