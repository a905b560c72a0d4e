import BarkeepCore
import Foundation

/// A change to append to the event log. The log derives the rest of the event from `findingID` and `screen` when it
/// appends it: the finding's number, the screen it is about and the screens it counts for.
public struct NewEvent: Sendable {
    /// The project it belongs to; nil for server-wide events (tokens).
    public var projectID: Int64?
    /// The project's name, kept in the event so the history survives the project.
    public var project: String?
    /// What happened.
    public var kind: EventKind
    /// What it happened to, e.g. `sdk`.
    public var subject: String
    /// The value before, if it changed.
    public var from: String?
    /// The value after, if it changed.
    public var to: String?
    /// Why, when a person said.
    public var reason: String?
    /// Who: `token:NAME` or `local:USER`.
    public var actor: String
    /// The finding it is about, for the finding's history.
    public var findingID: Int64?
    /// The key of the screen the event is about, for a screen's own events (added, changed, steps, poses); nil: the
    /// owner of the finding, if the event is about one.
    public var screen: String?

    /// Creates an event.
    public init(
        projectID: Int64?,
        project: String?,
        kind: EventKind,
        subject: String,
        from: String? = nil,
        to: String? = nil,
        reason: String? = nil,
        actor: String,
        findingID: Int64? = nil,
        screen: String? = nil
    ) {
        self.findingID = findingID
        self.projectID = projectID
        self.project = project
        self.kind = kind
        self.subject = subject
        self.from = from
        self.to = to
        self.reason = reason
        self.actor = actor
        self.screen = screen
    }
}

/// An event as stored, with its global sequence number.
public struct Event: Sendable, Equatable {
    /// The global sequence number: increasing in commit order.
    public var seq: Int64
    /// The project's id, nil for server-wide events or after the project was deleted.
    public var projectID: Int64?
    /// The project's name when the event happened.
    public var project: String?
    /// What happened: an `EventKind`'s raw value (kept as stored, so that a kind from a newer daemon on the same
    /// database passes through).
    public var kind: String
    /// What it happened to.
    public var subject: String
    /// The value before.
    public var from: String?
    /// The value after.
    public var to: String?
    /// Why.
    public var reason: String?
    /// Who.
    public var actor: String
    /// When (commit-time of its transaction's start).
    public var at: Date
    /// The number in its project of the finding or item it is about; nil when it is about none.
    public var findingNumber: Int?
    /// The key of the screen it is about: a screen's own events name it, a finding's the place that owned the
    /// finding then (a screen, a component, the `app` area or `unmapped`); nil when it is about none.
    public var screen: String?
    /// The screens it counts for, by key: a component's users, a screen or the area itself; empty for `unmapped`
    /// or when it is about no screen.
    public var screens: [String]

    init(row: PostgresRow) throws {
        seq = try row.decode("seq")
        projectID = try row.decodeIfPresent("project_id")
        project = try row.decodeIfPresent("project")
        kind = try row.decode("kind")
        subject = try row.decode("subject")
        from = try row.decodeIfPresent("from_value")
        to = try row.decodeIfPresent("to_value")
        reason = try row.decodeIfPresent("reason")
        actor = try row.decode("actor")
        at = try row.decode("at")
        findingNumber = try row.decodeIfPresent("finding_number")
        screen = try row.decodeIfPresent("screen")
        screens = try row.decodeIfPresent("screens") ?? []
    }

    /// Whether `filter` lets the event through.
    public func matches(_ filter: EventFilter) -> Bool {
        filter.matches(kind: kind, screen: screen, screens: screens, finding: findingNumber)
    }
}

/// The append-only history every write adds to, and that WATCH, history and burndown read.
///
/// Sequence numbers must increase in commit order, or a reader that asks for "everything after N" could miss an
/// event committed late with a smaller number. So events are appended last in their transaction, under a
/// transaction-level advisory lock held until commit: writers take turns only for that final moment.
public enum EventLog {
    /// The NOTIFY channel that announces new events to every daemon on the database.
    public static let channel = "barkeep_events"
    /// The columns `Event(row:)` reads, for every query of the events table.
    static let columns = """
        seq, project_id, project, kind, subject, from_value, to_value, reason, actor, at, finding_number, screen, screens
        """
    /// The advisory lock that orders event appends ("evnt" in ASCII).
    static let lockKey: Int64 = 0x6576_6E74

    /// Appends `events` and announces them; call inside the write's transaction, after its other statements.
    /// Returns their sequence numbers.
    @discardableResult
    public static func append(_ events: [NewEvent], on connection: PostgresConnection) throws -> [Int64] {
        guard !events.isEmpty else { return [] }
        return try appending(on: connection) {
            var sequence: [Int64] = []
            for event in events {
                let seq = try connection.queryValue(
                    insert(
                        from: """
                            VALUES ($1::bigint, $2::text, $3::bigint, $4::text, $5::text, $6::text, $7::text, $8::text,
                                    $9::text, $10::text)
                            """
                    ) + " RETURNING seq",
                    [
                        event.projectID, event.project, event.findingID, event.kind.rawValue, event.subject, event.from,
                        event.to, event.reason, event.actor, event.screen,
                    ],
                    as: Int64.self
                )
                if let seq { sequence.append(seq) }
            }
            return sequence
        }
    }

    /// Appends the events a query selects — columns project_id, project, finding_id, kind, subject, from_value,
    /// to_value, reason, actor, in that order — and announces them: the set-based form for writes that touch many
    /// rows. Call inside the write's transaction, after its other statements. Returns how many were appended.
    @discardableResult
    public static func appendSelect(
        _ select: String,
        _ parameters: [(any PostgresEncodable)?],
        on connection: PostgresConnection
    ) throws -> Int {
        try appending(on: connection) {
            try connection.query(
                insert(from: "SELECT selected.*, NULL::text FROM (\(select)) AS selected"),
                parameters
            ).affectedRows ?? 0
        }
    }

    /// The INSERT of the events `source` yields — columns project_id, project, finding_id, kind, subject,
    /// from_value, to_value, reason, actor and screen (the key of the screen the event is about, or NULL) — with what
    /// each is about derived in the same statement, so no writer passes it and the set-based writes get it too: the
    /// number of its finding; its screen, which for a finding is the place owning it now (a screen, a component,
    /// the app area, or `unmapped`); and the screens that counts for (a component's users, else the screen itself).
    /// The lateral joins keep the rows in `source`'s order, so sequence numbers follow it.
    private static func insert(from source: String) -> String {
        """
        INSERT INTO events (project_id, project, finding_id, kind, subject, from_value, to_value, reason, actor,
                            finding_number, screen, screens)
        SELECT e.project_id, e.project, e.finding_id, e.kind, e.subject, e.from_value, e.to_value, e.reason, e.actor,
               about.finding_number, about.screen, counted.screens
        FROM (\(source)) AS e (project_id, project, finding_id, kind, subject, from_value, to_value, reason, actor,
                               screen)
        CROSS JOIN LATERAL (
            SELECT f.number AS finding_number,
                   coalesce(e.screen, o.key, CASE WHEN f.id IS NOT NULL THEN '\(AuditArea.unmapped)' END) AS screen
            FROM (SELECT 1) AS one
            LEFT JOIN findings f ON f.id = e.finding_id
            LEFT JOIN screens o ON o.id = f.screen_id
        ) AS about
        CROSS JOIN LATERAL (
            SELECT CASE WHEN about.screen IS NULL THEN NULL
                        WHEN s.kind = '\(ScreenKind.component.rawValue)'
                        THEN ARRAY(SELECT x.key FROM screen_uses u JOIN screens x ON x.id = u.screen_id
                                   WHERE u.component_id = s.id ORDER BY x.key)
                        WHEN s.id IS NOT NULL THEN ARRAY[s.key::text]
                        ELSE '{}'::text[] END AS screens
            FROM (SELECT 1) AS one
            LEFT JOIN screens s ON s.project_id = e.project_id AND s.key = about.screen
        ) AS counted
        """
    }

    /// Runs `insert` under the log's lock (held to commit, so sequence numbers follow commit order), then announces
    /// new events to every daemon. The notification is delivered at commit, and not at all on rollback; it only
    /// wakes readers, who read the events from the table.
    private static func appending<T>(on connection: PostgresConnection, _ insert: () throws -> T) throws -> T {
        try connection.query("SELECT pg_advisory_xact_lock($1)", [lockKey])
        let result = try insert()
        try connection.query("SELECT pg_notify($1, '')", [channel])
        return result
    }

    /// The newest sequence number committed, 0 when there is none.
    public static func head(on connection: PostgresConnection) throws -> Int64 {
        try connection.queryValue("SELECT coalesce(max(seq), 0) FROM events", as: Int64.self) ?? 0
    }

    /// Events with a sequence number above `after` (and at most `through`, when given), of one project or all,
    /// oldest first, at most `limit`.
    public static func events(
        after: Int64,
        through: Int64? = nil,
        projectID: Int64? = nil,
        limit: Int,
        on connection: PostgresConnection
    ) throws -> [Event] {
        try connection.query(
            """
            SELECT \(EventLog.columns)
            FROM events
            WHERE seq > $1 AND ($2::bigint IS NULL OR seq <= $2) AND ($3::bigint IS NULL OR project_id = $3)
            ORDER BY seq
            LIMIT $4
            """,
            [after, through, projectID, limit]
        ).map(Event.init(row:))
    }

    /// The project's burndown, replayed from its finding and scan events (Burndown in Core). The events a scan
    /// run's ingest wrote are told by the run's `ingested_at` (both are the transaction's `now()`) and actor, and
    /// carry the run's commit time when the upload gave it.
    public static func burndown(
        project name: String,
        by granularity: Burndown.Granularity,
        on connection: PostgresConnection
    ) throws -> [BurndownPoint] {
        let project = try ProjectStore.require(name, on: connection)
        let changes = try connection.query(
            """
            SELECT e.kind, e.finding_id, e.to_value, e.subject, e.at, e.from_value, e.reason, r.commit_time
            FROM events e
            LEFT JOIN (
                SELECT ingested_at, actor, min(commit_time) AS commit_time FROM scan_runs
                WHERE project_id = $1 AND commit_time IS NOT NULL GROUP BY ingested_at, actor
            ) AS r ON r.ingested_at = e.at AND r.actor = e.actor
            WHERE e.project_id = $1
              AND e.kind IN ('\(EventKind.findingNew.rawValue)', '\(EventKind.findingStatus.rawValue)',
                             '\(EventKind.scanIngested.rawValue)')
            ORDER BY e.seq
            """,
            [project.id]
        ).map { row in
            Burndown.Change(
                kind: try row.decode(at: 0), findingID: try row.decodeIfPresent(at: 1),
                to: try row.decodeIfPresent(at: 2), subject: try row.decode(at: 3), at: try row.decode(at: 4),
                from: try row.decodeIfPresent(at: 5), reason: try row.decodeIfPresent(at: 6),
                runCommitTime: try row.decodeIfPresent(at: 7))
        }
        return Burndown.points(changes, by: granularity)
    }
}
