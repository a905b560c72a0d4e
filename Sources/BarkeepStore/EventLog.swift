import BarkeepCore
import Foundation

/// A change to append to the event log.
public struct NewEvent: Sendable {
    /// The project it belongs to; nil for server-wide events (tokens).
    public var projectID: Int64?
    /// The project's name, kept in the event so the history survives the project.
    public var project: String?
    /// What happened, e.g. `project.updated`.
    public var kind: String
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

    /// Creates an event.
    public init(
        projectID: Int64?,
        project: String?,
        kind: String,
        subject: String,
        from: String? = nil,
        to: String? = nil,
        reason: String? = nil,
        actor: String,
        findingID: Int64? = nil
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
    /// What happened.
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
    static let columns = "seq, project_id, project, kind, subject, from_value, to_value, reason, actor, at"
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
                    """
                    INSERT INTO events (project_id, project, kind, subject, from_value, to_value, reason, actor,
                                        finding_id)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING seq
                    """,
                    [
                        event.projectID, event.project, event.kind, event.subject, event.from, event.to, event.reason,
                        event.actor, event.findingID,
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
                """
                INSERT INTO events (project_id, project, finding_id, kind, subject, from_value, to_value, reason, actor)
                \(select)
                """,
                parameters
            ).affectedRows ?? 0
        }
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

    /// The project's burndown, replayed from its finding and scan events (Burndown in Core).
    public static func burndown(
        project name: String,
        by granularity: Burndown.Granularity,
        on connection: PostgresConnection
    ) throws -> [BurndownPoint] {
        let project = try ProjectStore.require(name, on: connection)
        let changes = try connection.query(
            """
            SELECT kind, finding_id, to_value, subject, at FROM events
            WHERE project_id = $1 AND kind IN ('finding.new', 'finding.status', 'scan.ingested')
            ORDER BY seq
            """,
            [project.id]
        ).map { row in
            Burndown.Change(
                kind: try row.decode(at: 0), findingID: try row.decodeIfPresent(at: 1),
                to: try row.decodeIfPresent(at: 2), subject: try row.decode(at: 3), at: try row.decode(at: 4))
        }
        return Burndown.points(changes, by: granularity)
    }
}
