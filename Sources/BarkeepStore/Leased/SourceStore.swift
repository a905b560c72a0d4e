import BarkeepCore
import Foundation

/// A source's settings, as `SOURCE ADD` gives them (validated by the caller).
public struct SourceSettings: Sendable, Equatable {
    /// What it reads.
    public var kind: SourceKind
    /// The format of what it ingests: duo-scan, sarif or sdk-check.
    public var format: String
    /// An inbox's directory (absolute).
    public var inbox: String?
    /// How long a file written in place must stay unchanged, in seconds.
    public var settleSeconds: Int?
    /// A repository's path (absolute).
    public var repo: String?
    /// The branch whose head is scanned.
    public var branch: String?
    /// The scanner command (`{root}` stands for the checkout).
    public var scanner: String?
    /// Seconds between two checks of the branch.
    public var everySeconds: Int?
    /// Seconds a scanner may run before it is killed.
    public var timeoutSeconds: Int?
    /// Bytes of output a scanner may write before it is killed.
    public var maximumOutput: Int?

    /// Settings of an inbox source.
    public static func inbox(_ directory: String, format: String, settleSeconds: Int) -> SourceSettings {
        SourceSettings(kind: .inbox, format: format, inbox: directory, settleSeconds: settleSeconds)
    }

    /// Settings of a repository source.
    public static func repo(
        _ path: String,
        format: String,
        branch: String,
        scanner: String,
        everySeconds: Int,
        timeoutSeconds: Int,
        maximumOutput: Int
    ) -> SourceSettings {
        SourceSettings(
            kind: .repo, format: format, repo: path, branch: branch, scanner: scanner, everySeconds: everySeconds,
            timeoutSeconds: timeoutSeconds, maximumOutput: maximumOutput)
    }
}

/// A source as stored: its settings, its lease and what its runs left behind.
public struct Source: Sendable, Equatable {
    /// The database id, which users name it by.
    public var id: Int64
    /// The project it feeds.
    public var projectID: Int64
    /// The project's name.
    public var project: String
    /// What it reads and how.
    public var settings: SourceSettings
    /// Whether its runs are stopped.
    public var isPaused: Bool
    /// When it was added.
    public var createdAt: Date
    /// Who added it.
    public var createdBy: String
    /// The server id holding its lease, if any.
    public var holder: String?
    /// Until when the holder's lease runs.
    public var leaseUntil: Date?
    /// When it last ran.
    public var lastRunAt: Date?
    /// What its last run came to.
    public var lastOutcome: SourceRunResult?
    /// Why the last run failed.
    public var lastError: String?
    /// The number of the scan run it last ingested.
    public var lastScanRun: Int?
    /// The last commit it scanned (a repository).
    public var lastCommit: String?
    /// Failed runs in a row.
    public var failures: Int
    /// When a repository is checked next.
    public var nextRunAt: Date
    /// Whether a `SOURCE RUN` waits.
    public var isRunRequested: Bool

    /// Reads a row selected with the table's columns.
    public init(row: PostgresRow) throws {
        id = try row.decode("id")
        projectID = try row.decode("project_id")
        project = try row.decode("project")
        guard let kind = SourceKind(rawValue: try row.decode("kind")) else {
            throw StoreError.decoding(column: "kind", expected: "SourceKind")
        }
        settings = SourceSettings(
            kind: kind,
            format: try row.decode("format"),
            inbox: try row.decodeIfPresent("inbox"),
            settleSeconds: try row.decodeIfPresent("settle_seconds"),
            repo: try row.decodeIfPresent("repo"),
            branch: try row.decodeIfPresent("branch"),
            scanner: try row.decodeIfPresent("scanner"),
            everySeconds: try row.decodeIfPresent("every_seconds"),
            timeoutSeconds: try row.decodeIfPresent("timeout_seconds"),
            maximumOutput: try row.decodeIfPresent("max_output")
        )
        isPaused = try row.decode("is_paused")
        createdAt = try row.decode("created_at")
        createdBy = try row.decode("created_by")
        holder = try row.decodeIfPresent("holder")
        leaseUntil = try row.decodeIfPresent("lease_until")
        lastRunAt = try row.decodeIfPresent("last_run_at")
        lastOutcome = try row.decodeIfPresent("last_outcome")
        lastError = try row.decodeIfPresent("last_error")
        lastScanRun = try row.decodeIfPresent("last_scan_run")
        lastCommit = try row.decodeIfPresent("last_commit")
        failures = try row.decode("failures")
        nextRunAt = try row.decode("next_run_at")
        isRunRequested = try row.decode("is_run_requested")
    }

    /// The actor its runs are recorded with.
    public var actor: String { "source:\(id)" }

    /// What it reads: the `to` of `source.added`, the `from` of `source.removed`.
    public var target: String { summary }

    /// What it reads, in words: `inbox DIR` or `repo PATH branch B`.
    public var summary: String {
        switch settings.kind {
        case .inbox: "inbox \(settings.inbox ?? "")"
        case .repo: "repo \(settings.repo ?? "") branch \(settings.branch ?? "")"
        }
    }
}

extension Source: LeasedResource {
    /// `sources`: a source is held by one daemon at a time; a paused one by none. A resumed one is due at once.
    public static let table = LeasedTable(
        noun: "source",
        lease: Lease(table: "sources", pausedCondition: "is_paused"),
        alias: "s",
        columns: """
            s.id, s.project_id, p.name AS project, s.kind, s.format, s.inbox, s.settle_seconds, s.repo, s.branch,
            s.scanner, s.every_seconds, s.timeout_seconds, s.max_output, s.is_paused, s.created_at, s.created_by,
            s.holder, s.lease_until, s.last_run_at, s.last_outcome, s.last_error,
            (SELECT r.number FROM scan_runs r WHERE r.id = s.last_scan_run) AS last_scan_run, s.last_commit,
            s.failures, s.next_run_at, s.is_run_requested
            """,
        reasonColumn: nil,
        pause: "is_paused = true, holder = NULL, lease_until = NULL",
        resume: "is_paused = false, next_run_at = now()",
        added: .sourceAdded, paused: .sourcePaused, resumed: .sourceResumed, removed: .sourceRemoved
    )
}

extension SourceRunResult: PostgresDecodable {
    /// Reads `ok` or `failed`; anything else is not a result.
    public init?(postgresText: String) { self.init(rawValue: postgresText) }
}

/// What became of one run of a source, to record.
public struct SourceRunOutcome: Sendable, Equatable {
    /// Whether it ingested something (`ok`) or not (`failed`).
    public var isSuccess: Bool

    /// `ok` or `failed`, as recorded.
    public var result: SourceRunResult { SourceRunResult(isSuccess: isSuccess) }
    /// The scan run it ingested, or found again.
    public var scanRun: Int64?
    /// The commit it scanned.
    public var commit: String?
    /// What it read and what came of it (`scan.json: run 12`), or why it failed.
    public var text: String
    /// Seconds until the source is next due.
    public var nextRunDelay: Int
    /// The runs asked for (`SOURCE RUN`) that this run answers: those asked for up to this time, which is the
    /// source's next run as the run saw it when it started (asking for a run sets the next run to that moment). A run
    /// asked for while it ran stays asked for. Nil: it answers none.
    public var answersRequestsUntil: Date?

    /// Creates an outcome.
    public init(
        isSuccess: Bool,
        scanRun: Int64? = nil,
        commit: String? = nil,
        text: String,
        nextRunDelay: Int,
        answersRequestsUntil: Date? = nil
    ) {
        self.isSuccess = isSuccess
        self.scanRun = scanRun
        self.commit = commit
        self.text = text
        self.nextRunDelay = nextRunDelay
        self.answersRequestsUntil = answersRequestsUntil
    }
}

/// Sources: their settings, the lease that lets one daemon at a time run each, and the record of their runs. What
/// every leased resource has is `LeasedResourceStore`'s.
public enum SourceStore {
    private typealias Store = LeasedResourceStore<Source>

    // MARK: - Settings

    /// Adds a source to `projectName`, with a `source.added` event. An inbox another source reads is `conflict`.
    public static func add(
        _ settings: SourceSettings,
        to projectName: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Source {
        try Store.add(to: projectName, actor: actor, on: connection) { project, connection in
            // Asked first, since a failed INSERT aborts the transaction; the unique index still settles a race. An
            // inbox inside another (or holding another) would have files taken by two sources.
            if let inbox = settings.inbox,
                let row = try connection.query(
                    """
                    SELECT id, inbox FROM sources
                    WHERE inbox = $1 OR starts_with($1, inbox || '/') OR starts_with(inbox, $1 || '/')
                    ORDER BY id LIMIT 1
                    """,
                    [inbox]
                ).first
            {
                let owner = try row.decode("id", as: Int64.self)
                let other = try row.decode("inbox", as: String.self)
                if other == inbox { throw StoreError.conflict("source \(owner) already reads the inbox \(inbox)") }
                throw StoreError.conflict(
                    other.count < inbox.count
                        ? "the inbox \(inbox) is inside \(other), which source \(owner) reads"
                        : "the inbox \(inbox) holds \(other), which source \(owner) reads")
            }
            do {
                return try connection.queryValue(
                    """
                    INSERT INTO sources (project_id, kind, format, inbox, settle_seconds, repo, branch, scanner,
                                         every_seconds, timeout_seconds, max_output, created_by)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id
                    """,
                    [
                        project.id, settings.kind.rawValue, settings.format, settings.inbox, settings.settleSeconds,
                        settings.repo, settings.branch, settings.scanner, settings.everySeconds,
                        settings.timeoutSeconds, settings.maximumOutput, actor,
                    ],
                    as: Int64.self
                )
            } catch let error as StoreError where error.sqlState == PostgresError.Code.uniqueViolation {
                throw StoreError.conflict("another source already reads the inbox \(settings.inbox ?? "")")
            } catch let error as StoreError where error.sqlState == PostgresError.Code.checkViolation {
                throw StoreError.invalid("those source settings are out of range")
            }
        }
    }

    /// The sources of `projectName` (every source when nil), by id.
    public static func list(project projectName: String?, on connection: PostgresConnection) throws -> [Source] {
        try Store.list(project: projectName, on: connection)
    }

    /// The source `id`, or `notFound`.
    public static func require(_ id: Int64, on connection: PostgresConnection) throws -> Source {
        try Store.require(id, on: connection)
    }

    /// The latest `limit` events of the source, oldest first.
    public static func events(of source: Source, limit: Int = 50, on connection: PostgresConnection) throws -> [Event] {
        try connection.query(
            """
            SELECT * FROM (
                SELECT \(EventLog.columns) FROM events
                WHERE project_id = $1 AND subject = $2 AND kind LIKE 'source.%' ORDER BY seq DESC LIMIT $3
            ) latest ORDER BY seq
            """,
            [source.projectID, source.subject, limit]
        ).map(Event.init(row:))
    }

    /// Pauses or resumes the source, with a `source.paused` or `source.resumed` event when that changes it. A
    /// paused source's lease is given up; a resumed one is due at once.
    public static func setPaused(
        _ id: Int64,
        _ isPaused: Bool,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Source {
        try Store.setPaused(id, isPaused, actor: actor, on: connection)
    }

    /// Asks for a run as soon as a daemon holding the source can: due now, backoff forgotten.
    public static func requestRun(_ id: Int64, actor: String, on connection: PostgresConnection) throws -> Source {
        try connection.transaction { connection in
            let source = try Store.lock(id, on: connection)
            try connection.query(
                "UPDATE sources SET is_run_requested = true, next_run_at = now(), failures = 0 WHERE id = $1", [id])
            try Store.append(.sourceRequested, source, actor: actor, on: connection)
            return try require(id, on: connection)
        }
    }

    /// Deletes the source, with a `source.removed` event; its runs and events stay.
    public static func remove(_ id: Int64, actor: String, on connection: PostgresConnection) throws {
        try Store.remove(id, actor: actor, on: connection)
    }

    // MARK: - Lease

    /// Renews the leases `holder` has and takes up every active source whose lease is free or ran out, for
    /// `lease` from now; gives up the leases of paused sources (`Lease.claim`). Returns the sources `holder` now
    /// holds, by id.
    public static func claim(holder: String, lease: Duration, on connection: PostgresConnection) throws -> [Source] {
        try Store.claim(holder: holder, for: lease, on: connection)
    }

    /// Gives up every lease `holder` has (a daemon stopping), so another daemon can take them up at once.
    public static func release(holder: String, on connection: PostgresConnection) throws {
        try Store.release(holder: holder, on: connection)
    }

    /// Inside a transaction: locks the source and checks that `holder` still holds its lease, or throws
    /// `conflict`. A run's results are recorded only after this, so a daemon whose lease ran out (stalled, cut off)
    /// cannot record a run another daemon is doing again.
    public static func lockHeld(_ id: Int64, holder: String, on connection: PostgresConnection) throws -> Source {
        try Store.lockHeld(id, holder: holder, on: connection)
    }

    // MARK: - Runs

    /// Inside a transaction, after `lockHeld`: records a run of the source and its `source.run` event.
    public static func recordRun(
        _ source: Source,
        _ outcome: SourceRunOutcome,
        on connection: PostgresConnection
    ) throws {
        try connection.query(
            """
            UPDATE sources SET last_run_at = now(), last_outcome = $2, last_error = $3,
                last_scan_run = coalesce($4, last_scan_run), last_commit = coalesce($5, last_commit),
                failures = CASE WHEN $6 THEN 0 ELSE failures + 1 END,
                next_run_at = CASE WHEN is_run_requested AND NOT \(answered("$8")) THEN now()
                                   ELSE now() + $7 * interval '1 second' END,
                is_run_requested = is_run_requested AND NOT \(answered("$8"))
            WHERE id = $1
            """,
            [
                source.id, outcome.result.rawValue, outcome.isSuccess ? nil : outcome.text,
                outcome.scanRun, outcome.commit, outcome.isSuccess, outcome.nextRunDelay, outcome.answersRequestsUntil,
            ]
        )
        try Store.append(
            .sourceRun, source, to: outcome.result.rawValue, reason: outcome.text, actor: source.actor, on: connection)
    }

    /// Sets when the source is next due without a run (a repository whose head did not move, an inbox rescanned
    /// on request), if `holder` still holds it: its lease has not run out.
    /// `answersRequestsUntil`: as in `SourceRunOutcome`; a run asked for since stays due at once.
    public static func reschedule(
        _ id: Int64,
        holder: String,
        delaySeconds: Int,
        answersRequestsUntil: Date?,
        on connection: PostgresConnection
    ) throws {
        try connection.query(
            """
            UPDATE sources
            SET next_run_at = CASE WHEN is_run_requested AND NOT \(answered("$4")) THEN now()
                                   ELSE now() + $3 * interval '1 second' END,
                is_run_requested = is_run_requested AND NOT \(answered("$4"))
            WHERE id = $1 AND \(Source.table.lease.isHeld(by: "$2"))
            """,
            [id, holder, delaySeconds, answersRequestsUntil]
        )
    }

    /// SQL: whether the run asked for is answered by a run that answers those asked for up to `parameter` (a
    /// timestamp, or null for none). A millisecond of slack covers the round trip of that time through a `Date`.
    private static func answered(_ parameter: String) -> String {
        "coalesce(next_run_at <= \(parameter)::timestamptz + interval '1 millisecond', false)"
    }

    /// Records a problem of the source itself (an inbox directory gone, a repository unreadable) as its last error,
    /// with a failed `source.run` event when the error is new; none when it is the one already recorded, so a
    /// problem that lasts does not flood the history.
    public static func recordProblem(
        _ id: Int64,
        holder: String,
        _ message: String,
        on connection: PostgresConnection
    ) throws {
        try connection.transaction { connection in
            let source = try lockHeld(id, holder: holder, on: connection)
            guard source.lastError != message || source.lastOutcome != .failed else { return }
            try connection.query(
                "UPDATE sources SET last_run_at = now(), last_outcome = \(SourceRunResult.failed.sql), last_error = $2 WHERE id = $1",
                [id, message]
            )
            try Store.append(
                .sourceRun, source, to: SourceRunResult.failed.rawValue, reason: message, actor: source.actor,
                on: connection)
        }
    }

    /// Pauses a source `holder` holds because what it reads became something it must not touch (an inbox directory
    /// that InboxGuard now refuses): its last run failed with `message`, a `source.run` and a `source.paused` event
    /// give it, and its lease is given up. Returns false, changing nothing, when `holder` no longer holds it.
    @discardableResult
    public static func pause(
        _ id: Int64,
        holder: String,
        because message: String,
        on connection: PostgresConnection
    ) throws -> Bool {
        do {
            return try connection.transaction { connection in
                let source = try lockHeld(id, holder: holder, on: connection)
                try connection.query(
                    """
                    UPDATE sources SET \(Source.table.pause), last_run_at = now(),
                        last_outcome = \(SourceRunResult.failed.sql), last_error = $2, failures = failures + 1
                    WHERE id = $1
                    """,
                    [id, message]
                )
                try EventLog.append(
                    [
                        NewEvent(
                            projectID: source.projectID, project: source.project, kind: .sourceRun,
                            subject: source.subject, to: SourceRunResult.failed.rawValue, reason: message,
                            actor: source.actor),
                        NewEvent(
                            projectID: source.projectID, project: source.project, kind: .sourcePaused,
                            subject: source.subject, reason: message, actor: source.actor),
                    ],
                    on: connection
                )
                return true
            }
        } catch StoreError.conflict {
            return false
        }
    }
}
