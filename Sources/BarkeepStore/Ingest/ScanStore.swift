import BarkeepCore
import BarkeepHashing
import Foundation

/// A scan run as stored.
public struct ScanRun: Sendable, Equatable {
    /// The row's id: what other rows reference. Never shown; users name a run by its `number`.
    public var id: Int64
    /// The run's number in its project (1 for its first run): the one every output and command uses.
    public var number: Int
    /// The upload's format.
    public var format: String
    /// The scanner and its version.
    public var tool: String
    /// The scanner's version.
    public var toolVersion: String?
    /// The commit scanned, when given.
    public var commit: String?
    /// The scanned commit's committer time, when given.
    public var commitTime: Date?
    /// The path prefix scanned; empty for the whole project.
    public var scope: String
    /// Source files the scanner read, when it said.
    public var filesScanned: Int?
    /// What the run changed.
    public var counts: SyncCounts
    /// Who uploaded it.
    public var actor: String
    /// When.
    public var ingestedAt: Date
    /// The app lifecycle the scanner detected (`scene`, `swiftui-app`, …), when it said.
    public var lifecycle: String?

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        number = try row.decode("number")
        format = try row.decode("format")
        tool = try row.decode("tool")
        toolVersion = try row.decodeIfPresent("tool_version")
        commit = try row.decodeIfPresent("commit_sha")
        commitTime = try row.decodeIfPresent("commit_time")
        scope = try row.decode("scope")
        filesScanned = try row.decodeIfPresent("files_scanned")
        counts = SyncCounts(
            new: try row.decode("new_count"),
            fixed: try row.decode("fixed_count"),
            reopened: try row.decode("reopened_count"),
            unchanged: try row.decode("unchanged_count"),
            moved: try row.decode("moved_count"),
            changed: try row.decode("changed_count"),
            renamed: try row.decode("renamed_count")
        )
        actor = try row.decode("actor")
        ingestedAt = try row.decode("ingested_at")
        lifecycle = try row.decodeIfPresent("lifecycle")
    }
}

/// What an ingest did.
public struct IngestResult: Sendable, Equatable {
    /// The run (an earlier one when the same content was ingested before).
    public var run: ScanRun
    /// True when the content had been ingested before: nothing changed.
    public var isRepeat: Bool
    /// What this ingest changed: the run's counts, or all zero for a repeat (the earlier run's stay on `run`).
    public var counts: SyncCounts
    /// The project's findings still needing work after the run (proposed, approved, applied, blocked).
    public var open: Int
}

/// Work done in an ingest's own transaction by its caller, for a write that must commit or roll back with the
/// run (a source recording what it ingested). Lock order: the project's sync lock, then `before`'s locks, then
/// the event log's.
public struct IngestHook {
    /// Runs once the project's sync lock is taken and the scan parsed, before anything is written.
    public var before: (PostgresConnection) throws -> Void
    /// Runs once the run is recorded (or found again: `true` for a repeat), last in the transaction.
    public var after: (PostgresConnection, ScanRun, Bool) throws -> Void

    /// Creates a hook.
    public init(
        before: @escaping (PostgresConnection) throws -> Void,
        after: @escaping (PostgresConnection, ScanRun, Bool) throws -> Void
    ) {
        self.before = before
        self.after = after
    }
}

/// Scan runs: applying a scan's sync plan, and reading runs back.
public enum ScanStore {
    static let runColumns = """
        id, number, format, tool, tool_version, commit_sha, scope, files_scanned, new_count, fixed_count,
        reopened_count, unchanged_count, moved_count, changed_count, actor, ingested_at, lifecycle, commit_time,
        renamed_count
        """
    /// The advisory lock namespace of per-project sync ("sync" in ASCII), with the project id as the second key.
    static let syncLockNamespace: Int32 = 0x7379_6E63

    /// Takes the project's sync lock for the rest of the transaction: ingests, triage and re-attribution of one
    /// project take turns, so none overwrites what another decided meanwhile.
    static func lockProject(_ projectID: Int64, on connection: PostgresConnection) throws {
        try connection.query(
            "SELECT pg_advisory_xact_lock($1, $2)",
            [syncLockNamespace, Int32(truncatingIfNeeded: projectID)]
        )
    }

    /// Runs `body` in one transaction holding the sync lock of the project `name` (`notFound` when there is none):
    /// how every change that must not interleave with an ingest of that project starts.
    static func withLockedProject<T>(
        _ name: String,
        on connection: PostgresConnection,
        _ body: (Project, PostgresConnection) throws -> T
    ) throws -> T {
        try connection.transaction { connection in
            let project = try ProjectStore.require(name, on: connection)
            try lockProject(project.id, on: connection)
            return try body(project, connection)
        }
    }

    /// The run that an upload of `digest` over `scope` by `tool` repeats, among `latestRuns` (each tool's latest run,
    /// read with `runColumns` and `digest`); nil when it is a run of its own. The one home of "the same content
    /// and scope as the tool's latest run is that run again": scans and SDK checks alike ask it.
    static func repeatedRun(
        among latestRuns: PostgresRows, tool: String, digest: String, scope: String
    ) throws -> ScanRun? {
        guard let latest = try latestRuns.first(where: { try $0.decode("tool", as: String.self) == tool }),
            try latest.decode("digest", as: String.self) == digest, try latest.decode("scope", as: String.self) == scope
        else { return nil }
        return try ScanRun(row: latest)
    }

    /// Ingests a parsed scan into the request's project: one transaction under the project's sync lock, so
    /// concurrent ingests of one project take turns and each sees the other's result. The same content (digest) as
    /// the latest run of the same tool and scope is that run again and changes nothing (a retried upload); the same
    /// content after a different run is a run of its own, since the code may really have come back. The request's
    /// upload and format are not read: the scan is given.
    ///
    /// A scan of a `commit` already ingested for the tool and scope, or committed (`commitTime`) before the commit
    /// of the latest such run, is refused with `conflict` and stores nothing, unless `isForced`
    /// (`ScanStaleness`): an old commit's scan would undo what newer scans and people decided.
    public static func ingest(
        _ request: IngestRequest,
        scan report: ScanReport,
        hook: IngestHook? = nil,
        on connection: PostgresConnection
    ) throws -> IngestResult {
        try ingest(request, parsing: { ScanTable(report) }, hook: hook, on: connection)
    }

    /// Ingests the scan that `parse` yields, as `ingest(_:scan:hook:on:)` does, parsing it and computing its
    /// identities on another core while the transaction locks the project and reads its stored findings. An error of
    /// `parse` is thrown as it is, and before `notFound` for a project that does not exist: a document that is not
    /// valid is reported first, whatever project it names.
    public static func ingest(
        _ request: IngestRequest,
        parsing parse: @escaping @Sendable () throws -> ScanTable,
        hook: IngestHook? = nil,
        on connection: PostgresConnection
    ) throws -> IngestResult {
        let (digest, scope) = (request.digest, request.scope)
        // The scan depends on the upload alone; its identities on whether its tool has runs too (below).
        let parsed = BackgroundWork { () -> Result<ScanTable, any Error> in Result { try parse() } }
        return try connection.transaction { connection in
            let project: Project
            do {
                project = try ProjectStore.require(request.project, on: connection)
            } catch {
                if case .failure(let problem) = parsed.result() { throw problem }
                throw error
            }
            try lockProject(project.id, on: connection)
            // The latest run of each tool. Unless one has these bytes (a retried upload, which changes nothing), the
            // stored findings are read while the scan is still being parsed.
            let latestRuns = try connection.query(
                """
                SELECT DISTINCT ON (tool) \(runColumns), digest FROM scan_runs WHERE project_id = $1
                ORDER BY tool, id DESC
                """,
                [project.id]
            )
            let mayRepeat = try latestRuns.contains { try $0.decode("digest", as: String.self) == digest }
            // With runs of its tool before, a scan's identities are matched against stored ones: hashed with its
            // occurrences, beside the read. A first import (of the project, or of its tool) hashes each as it writes
            // its row, and holds no digest per finding.
            let toolsWithRuns = Set(try latestRuns.map { try $0.decode("tool", as: String.self) })
            let identified = BackgroundWork { () -> Result<IdentifiedScan, any Error> in
                parsed.result().map { table in
                    FindingIdentity.identify(
                        table, hasher: LibcryptoHasher(),
                        keepingDigests: !mayRepeat && toolsWithRuns.contains(table.tool))
                }
            }
            let storedEarly =
                mayRepeat ? nil : try StoredScan.read(projectID: project.id, scope: scope, on: connection)
            let scan = try identified.result().get()
            let report = scan.table
            // A document that does not parse stops the ingest before the hook does anything.
            try hook?.before(connection)
            // The same bytes and scope as this tool's latest run: a retried upload. Nothing changes.
            if let run = try repeatedRun(among: latestRuns, tool: report.tool, digest: digest, scope: scope) {
                try hook?.after(connection, run, true)
                return IngestResult(
                    run: run, isRepeat: true, counts: SyncCounts(), open: try openCount(project.id, connection))
            }
            try refuseStale(
                commit: request.commit, commitTime: request.commitTime, isForced: request.isForced, tool: report.tool,
                scope: scope, project: project, on: connection)
            let stored = try storedEarly ?? StoredScan.read(projectID: project.id, scope: scope, on: connection)
            let (sightings, storedRows) = try stored.sightings(of: report.tool)
            let fixed = FixedLookup(projectID: project.id, tool: report.tool)
            // Nothing stored to match (a first import): nothing is hashed here (see above).
            let planned = sightings.isEmpty ? HashedScan(lazy: scan) : HashedScan(scan)
            let (plan, previousSnippets) = try StoredScan.plan(
                planned, sightings: sightings, fixed: fixed, scope: scope, renames: request.renames, on: connection)
            // Fixed findings count too (they were not read): asked only when none of the others is inside the scope.
            let isFirstImport =
                try FirstImport.isFirstImport(storedFiles: storedRows.lazy.map(stored.file(at:)), scope: scope)
                && !fixed.hasFixed(inside: scope, on: connection)
            let screens = try ScreenAttribution(projectID: project.id, on: connection)

            guard
                let runRow = try connection.query(
                    """
                    INSERT INTO scan_runs (project_id, format, tool, tool_version, commit_sha, scope, digest, files_scanned,
                                           new_count, fixed_count, reopened_count, unchanged_count, moved_count, actor,
                                           lifecycle, changed_count, commit_time, renamed_count)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, nullif($15, ''), $16, $17,
                            $18)
                    RETURNING \(runColumns)
                    """,
                    [
                        project.id, report.format.rawValue, report.tool, report.toolVersion, request.commit, scope,
                        digest, report.filesScanned, plan.counts.new, plan.counts.fixed, plan.counts.reopened,
                        plan.counts.unchanged, plan.counts.moved, request.actor, report.lifecycle,
                        plan.counts.changed, request.commitTime, plan.counts.renamed,
                    ]
                ).first
            else { throw StoreError.invalid("the run was not recorded") }
            let run = try ScanRun(row: runRow)

            // Only the matches whose row changes are written (see apply). A reopened one comes first: the fixed
            // findings pass 1 looked up have positions past `sightings` and `storedRows`.
            let rewritten = plan.matches.filter { match in
                match.isReopened || match.isMoved || sightings[match.position].status.isSticky
                    || !stored.snippet(
                        at: storedRows[match.position], equals: report.rows[match.index].snippet, in: report)
            }
            if isFirstImport, rewritten.isEmpty, plan.fixed.isEmpty, plan.changed.isEmpty, plan.renamed.isEmpty {
                try copyFirstImport(
                    plan, of: scan, tool: report.tool, run: run, project: project, screens: screens,
                    actor: request.actor, on: connection)
            } else {
                try apply(
                    plan,
                    of: scan,
                    writing: rewritten,
                    previousSnippets: previousSnippets,
                    tool: report.tool,
                    run: run,
                    project: project,
                    screens: screens,
                    actor: request.actor,
                    isFirstImport: isFirstImport,
                    on: connection
                )
            }
            try hook?.after(connection, run, false)
            return IngestResult(
                run: run, isRepeat: false, counts: plan.counts, open: try openCount(project.id, connection))
        }
    }

    /// Throws `conflict` when the scan of `commit` may not be applied over the project's runs of `tool` and `scope`
    /// (`ScanStaleness.refusal`). Call holding the project's sync lock, before anything is written, so that two
    /// uploads of one commit cannot both pass.
    private static func refuseStale(
        commit: String?,
        commitTime: Date?,
        isForced: Bool,
        tool: String,
        scope: String,
        project: Project,
        on connection: PostgresConnection
    ) throws {
        guard commit != nil, !isForced else { return }
        let history = try connection.query(
            """
            SELECT number, commit_sha, commit_time FROM scan_runs
            WHERE project_id = $1 AND tool = $2 AND scope = $3 ORDER BY id DESC
            """,
            [project.id, tool, scope]
        ).map { row in
            PriorScan(
                number: try row.decode(at: 0), commit: try row.decodeIfPresent(at: 1),
                commitTime: try row.decodeIfPresent(at: 2))
        }
        if let refusal = ScanStaleness.refusal(
            commit: commit, commitTime: commitTime, isForced: isForced, history: history)
        {
            throw StoreError.conflict(refusal.message(tool: tool, scope: scope))
        }
    }

    /// Writes the plan with set-based statements: the rows go in through COPY into a temporary table, then one
    /// INSERT, three UPDATEs and one event INSERT do the work, whatever the number of findings. `previousSnippets`
    /// (stored snippets by finding id) say what a changed finding read before, for its event. A first import
    /// (`FirstImport`) writes the run's event alone.
    private static func apply(
        _ plan: SyncPlan,
        of scan: IdentifiedScan,
        writing rewrittenMatches: [SyncPlan.Match],
        previousSnippets: [Int64: String],
        tool: String,
        run: ScanRun,
        project: Project,
        screens: ScreenAttribution,
        actor: String,
        isFirstImport: Bool,
        on connection: PostgresConnection
    ) throws {
        // Byte order for the texts new findings are numbered by (Core's NewFindingOrder, as a first import's COPY
        // numbers them), whatever the database's default collation: the collation of `findings`' own columns
        // (migrations 0001 and 0021), so that their indexes serve the comparisons below (an index serves only a
        // comparison made under its own collation).
        try connection.query(
            """
            CREATE TEMPORARY TABLE sync_rows (
                action text NOT NULL, finding_id bigint, previous_status text, identity text COLLATE "C",
                rule text COLLATE "C", file text COLLATE "C", normalized_snippet text, occurrence integer,
                line integer, snippet text, message text, title text, severity text, fingerprints jsonb,
                screen_id bigint, previous_line integer, previous_snippet text, previous_file text
            ) ON COMMIT DROP
            """
        )
        try connection.copyIn(
            """
            COPY sync_rows (action, finding_id, previous_status, identity, rule, file, normalized_snippet, occurrence,
                            line, snippet, message, title, severity, fingerprints, screen_id, previous_line,
                            previous_snippet, previous_file) FROM STDIN
            """
        ) { writer in
            var rows = SyncRows(scan: scan, screens: screens)
            for index in plan.new { try rows.write(.new, nil, nil, Int(index), to: &writer) }
            for match in rewrittenMatches {
                try rows.write(
                    match.isReopened ? .reopened : .seen, match.id,
                    match.isReopened ? FindingStatus.fixed.rawValue : nil, match.index, to: &writer)
            }
            for fix in plan.fixed { try rows.write(.fixed, fix.id, fix.previousStatus.rawValue, nil, to: &writer) }
            for change in plan.changed {
                try rows.write(
                    .changed, change.id, nil, change.index, previousLine: change.previousLine,
                    previousSnippet: previousSnippets[change.id], to: &writer)
            }
            for rename in plan.renamed {
                try rows.write(
                    .renamed, rename.id, nil, rename.index, previousLine: rename.previousLine,
                    previousFile: rename.previousFile, to: &writer)
            }
        }
        // Statistics for the planner: without them it guesses a handful of rows and picks nested loops. Only the
        // columns the statements join and filter on: the text of 100,000 new findings is not worth sampling. A sync
        // goes without: its statements find each finding by primary key (or, for its events, by a lateral lookup),
        // which a nested loop does best for the few percent of a project a sync changes.
        if isFirstImport {
            try connection.query("ANALYZE sync_rows (action, finding_id, identity, previous_status)")
        }
        // New findings. Their ids are not written back to their rows (an UPDATE rewriting every new row of the
        // temporary table): the events below find them by identity, unique in the project.
        try connection.query(
            """
            WITH fresh AS (SELECT count(*) AS n FROM sync_rows WHERE action = \(SyncRowAction.new.sql)),
            numbered AS (
                UPDATE projects SET findings_numbered = findings_numbered + (SELECT n FROM fresh) WHERE id = $1
                RETURNING findings_numbered - (SELECT n FROM fresh) AS base
            )
            INSERT INTO findings (project_id, source, tool, rule, file, normalized_snippet, occurrence, identity,
                                  line, snippet, message, title, severity, screen_id, fingerprints,
                                  first_seen_run, last_seen_run, number)
            SELECT $1, \(FindingSource.scanner.sql), $2, rule, file, normalized_snippet, occurrence, identity, line, snippet, message,
                   title, severity, screen_id, fingerprints, $3, $3,
                   (SELECT base FROM numbered) + row_number() OVER (ORDER BY file, line, identity)
            FROM sync_rows WHERE action = \(SyncRowAction.new.sql)
            """,
            [project.id, tool, run.id]
        )
        // Only rows that change reach here: moved, re-worded, reopened, or a sticky verdict (whose last run must be
        // recorded, since it cannot be derived). An open finding that did not change keeps its row as it is: its
        // last run is derived (FindingStore), because any later run covering it that did not see it would have
        // fixed it. Writing every seen row would make each sync cost a write per finding.
        try connection.query(
            """
            UPDATE findings f
            SET line = s.line, snippet = s.snippet, message = coalesce(s.message, f.message),
                fingerprints = coalesce(s.fingerprints, f.fingerprints), last_seen_run = $1, updated_at = now(),
                status = CASE WHEN s.action = \(SyncRowAction.reopened.sql) THEN \(FindingStatus.proposed.sql) ELSE f.status END,
                reason = CASE WHEN s.action = \(SyncRowAction.reopened.sql) THEN NULL ELSE f.reason END
            FROM sync_rows s
            WHERE s.finding_id = f.id AND (s.action = \(SyncRowAction.seen.sql) OR (s.action = \(SyncRowAction.reopened.sql) AND f.status = \(FindingStatus.fixed.sql)))
            """,
            [run.id]
        )
        // Changed findings (pass 2) take their new identity, renamed ones (pass 3) their new identity, file and the
        // screen that file belongs to; status, reason and number stay. No transient unique violation of
        // findings_identity is possible, in any order of the rows: a new identity paired here matched no stored
        // finding, and an old one is in this scan under no other finding (it would have matched).
        try connection.query(
            """
            UPDATE findings f
            SET identity = s.identity, normalized_snippet = s.normalized_snippet, occurrence = s.occurrence,
                line = s.line, snippet = s.snippet, message = coalesce(s.message, f.message),
                fingerprints = coalesce(s.fingerprints, f.fingerprints), last_seen_run = $1, updated_at = now(),
                file = CASE WHEN s.action = \(SyncRowAction.renamed.sql) THEN s.file ELSE f.file END,
                screen_id = CASE WHEN s.action = \(SyncRowAction.renamed.sql) THEN s.screen_id ELSE f.screen_id END
            FROM sync_rows s
            WHERE s.finding_id = f.id AND s.action IN \(SyncRowAction.sqlList([.changed, .renamed]))
              AND f.status <> \(FindingStatus.fixed.sql)
            """,
            [run.id]
        )
        try connection.query(
            """
            UPDATE findings f SET status = \(FindingStatus.fixed.sql), status_before_block = NULL, updated_at = now(),
                reported_after_verified = false,
                -- Its last sighting was the latest earlier run that covered it (unchanged rows are not rewritten):
                -- the first found walking down from this run, usually the one before. max() read every run since
                -- the one that last rewrote the row, often the project's whole history, once per fixed finding.
                last_seen_run = coalesce(
                    (SELECT r.id FROM scan_runs r
                     WHERE r.project_id = f.project_id AND r.tool = f.tool AND r.id > f.last_seen_run AND r.id < $1
                       AND barkeep_covers(r.scope, f.file)
                     ORDER BY r.id DESC LIMIT 1),
                    f.last_seen_run)
            FROM sync_rows s WHERE s.finding_id = f.id AND s.action = \(SyncRowAction.fixed.sql) AND f.status = s.previous_status
            """,
            [run.id]
        )
        // Events last, under the event log's lock: one per new (unless a first import), fixed, reopened, changed and
        // renamed finding, and one for the run. A changed finding's event goes from its old line and snippet to its
        // new ones, a renamed finding's from its old file and line to its new ones. New findings are found by identity (their rows do not carry their ids), the others by id: each by
        // one index lookup (LIMIT 1 keeps the lateral subquery a lookup per row), where a join read the whole
        // project's findings whenever the planner's statistics lagged behind an import.
        let findingEvents =
            isFirstImport
            ? ""
            : """
            SELECT $1::bigint, $2::text, s.id,
                   CASE s.action WHEN \(SyncRowAction.new.sql) THEN \(EventKind.findingNew.sql)
                                 WHEN \(SyncRowAction.changed.sql) THEN \(EventKind.findingChanged.sql)
                                 WHEN \(SyncRowAction.renamed.sql) THEN \(EventKind.findingRenamed.sql)
                                 ELSE \(EventKind.findingStatus.sql) END,
                   s.rule || ':' || s.file || ':' || coalesce(s.line::text, ''),
                   CASE s.action WHEN \(SyncRowAction.changed.sql)
                                 THEN coalesce(s.previous_line::text, '') || ': ' || coalesce(s.previous_snippet, '')
                                 WHEN \(SyncRowAction.renamed.sql)
                                 THEN s.previous_file || ':' || coalesce(s.previous_line::text, '')
                                 ELSE s.previous_status END,
                   CASE s.action WHEN \(SyncRowAction.fixed.sql) THEN \(FindingStatus.fixed.sql)
                                 WHEN \(SyncRowAction.changed.sql) THEN coalesce(s.line::text, '') || ': ' || coalesce(s.snippet, '')
                                 WHEN \(SyncRowAction.renamed.sql) THEN s.file || ':' || coalesce(s.line::text, '')
                                 ELSE \(FindingStatus.proposed.sql) END,
                   'run ' || $4::text, $3::text
            FROM (
                SELECT r.action, r.previous_status, r.previous_line, r.previous_snippet, r.previous_file, f.id, f.rule,
                       f.file, f.line, f.snippet
                FROM sync_rows r CROSS JOIN LATERAL (
                    SELECT f.id, f.rule, f.file, f.line, f.snippet FROM findings f
                    WHERE f.project_id = $1 AND f.source = \(FindingSource.scanner.sql) AND f.identity = r.identity LIMIT 1
                ) AS f
                WHERE r.action = \(SyncRowAction.new.sql)
                UNION ALL
                SELECT r.action, r.previous_status, r.previous_line, r.previous_snippet, r.previous_file, f.id, f.rule,
                       f.file, f.line, f.snippet
                FROM sync_rows r CROSS JOIN LATERAL (
                    SELECT f.id, f.rule, f.file, f.line, f.snippet FROM findings f WHERE f.id = r.finding_id LIMIT 1
                ) AS f
                WHERE r.action IN \(SyncRowAction.sqlList([.fixed, .reopened, .changed, .renamed]))
            ) AS s
            UNION ALL

            """
        try markVerifiedReported(plan, run: run, project: project, actor: actor, on: connection)
        try EventLog.appendSelect(
            findingEvents + runEventSelect,
            runEventParameters(plan, run: run, project: project, actor: actor, isFirstImport: isFirstImport),
            on: connection
        )
    }

    /// The run's `scan.ingested` event, as the last part of an event SELECT, with `runEventParameters`.
    static let runEventSelect = """
        SELECT $1::bigint, $2::text, NULL::bigint, \(EventKind.scanIngested.sql), 'run ' || $4::text, NULL,
               $5::text, $6::text, $3::text
        """

    /// The parameters of `runEventSelect` (and of the finding events before it).
    static func runEventParameters(
        _ plan: SyncPlan, run: ScanRun, project: Project, actor: String, isFirstImport: Bool
    ) -> [(any PostgresEncodable)?] {
        [
            project.id, project.name, actor, run.number, plan.counts.eventText,
            isFirstImport ? FirstImport.reason : nil,
        ]
    }

    /// The project's findings still needing work, read from the dashboard's summary (Schema/0014), which the
    /// triggers on `findings` keep in the same transaction: a few rows per screen instead of every finding.
    static func openCount(_ projectID: Int64, _ connection: PostgresConnection) throws -> Int {
        try connection.queryValue(
            """
            SELECT coalesce(sum(findings), 0) FROM finding_summaries
            WHERE project_id = $1 AND status IN \(FindingStatus.needsWorkSQL)
            """,
            [projectID],
            as: Int.self
        ) ?? 0
    }

    /// The project's runs, newest first, at most `limit`, a page at a time after the run with row id `id` (nil: from
    /// the newest), through one cursor in one transaction (`FindingStore.pages` says how). `page` is called with at
    /// most `pageSize` runs and whether they are the last, and returns false to stop.
    public static func runPages(
        of projectName: String,
        limit: Int,
        after id: Int64?,
        pageSize: Int,
        on connection: PostgresConnection,
        _ page: ([ScanRun], _ isLast: Bool) throws -> Bool
    ) throws {
        try connection.transaction { connection in
            let project = try ProjectStore.require(projectName, on: connection)
            let after = id == nil ? "" : " AND id < $3"
            try connection.forEachPage(
                "SELECT \(runColumns) FROM scan_runs WHERE project_id = $1\(after) ORDER BY id DESC LIMIT $2",
                [project.id, max(0, limit)] + (id.map { [$0] } ?? []), pageSize: pageSize
            ) { rows, isLast in
                try page(rows.map(ScanRun.init(row:)), isLast)
            }
        }
    }

    /// Run `number` of the project; `notFound` when there is none.
    public static func run(project projectName: String, number: Int, on connection: PostgresConnection) throws
        -> ScanRun
    {
        let project = try ProjectStore.require(projectName, on: connection)
        guard
            let row = try connection.query(
                "SELECT \(runColumns) FROM scan_runs WHERE project_id = $1 AND number = $2", [project.id, number]
            ).first
        else { throw StoreError.notFound("no run \(number) in project '\(project.name)'") }
        return try ScanRun(row: row)
    }
}

/// What a row of the temporary `sync_rows` table does to its finding: the vocabulary shared by the COPY that fills
/// the table and the statements that apply it (`SyncPlan`'s parts).
enum SyncRowAction: String, SQLConstant {
    /// A finding the scan reports for the first time.
    case new
    /// A stored finding seen again whose row changes (moved, re-worded, or a sticky verdict's last run).
    case seen
    /// A fixed finding the scan reports again.
    case reopened
    /// A stored finding the scan no longer reports.
    case fixed
    /// A finding whose identity changed (pass 2 of the plan).
    case changed
    /// A finding whose file was renamed (pass 3 of the plan): new identity, file and screen.
    case renamed
}
