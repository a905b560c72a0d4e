import BarkeepCore
import Foundation

/// What `HOOK ADD` asks for, checked.
public struct HookSettings: Sendable, Equatable {
    /// Where events are POSTed.
    public var url: WebhookURL
    /// The kinds delivered; empty: every kind.
    public var kinds: [EventKind]
    /// Only events about this screen or counting for it; nil: any.
    public var screen: String?
    /// The HMAC-SHA256 key the bodies are signed with; nil: unsigned.
    public var secret: String?
    /// The body's format.
    public var format: HookFormat

    /// Creates settings.
    public init(url: WebhookURL, kinds: [EventKind], screen: String?, secret: String?, format: HookFormat) {
        self.url = url
        self.kinds = kinds
        self.screen = screen
        self.secret = secret
        self.format = format
    }
}

/// A webhook as stored: its settings, its cursor, its failures and its lease.
public struct Hook: Sendable, Equatable {
    /// The database id, the hook's name on the wire.
    public var id: Int64
    /// Its project's id.
    public var projectID: Int64
    /// Its project's name.
    public var project: String
    /// Where events are POSTed, as given.
    public var url: String
    /// The kinds delivered, as stored; empty: every kind.
    public var kinds: [String]
    /// The screen the events must be about or count for; nil: any.
    public var screen: String?
    /// The signing key; never shown.
    public var secret: String?
    /// The body's format.
    public var format: HookFormat
    /// When it was added.
    public var createdAt: Date
    /// Who added it.
    public var createdBy: String
    /// Every matching event up to this sequence number was delivered.
    public var deliveredSeq: Int64
    /// When the last delivery succeeded.
    public var deliveredAt: Date?
    /// Consecutive failed attempts.
    public var failures: Int
    /// Why the latest attempt failed.
    public var lastError: String?
    /// Why the hook is paused; nil while active.
    public var pausedReason: String?
    /// The daemon delivering it, while its lease runs.
    public var holder: String?
    /// Until when the holder's lease runs.
    public var leaseUntil: Date?

    /// Reads a row selected with the table's columns.
    public init(row: PostgresRow) throws {
        id = try row.decode("id")
        projectID = try row.decode("project_id")
        project = try row.decode("project")
        url = try row.decode("url")
        kinds = try row.decodeIfPresent("kinds") ?? []
        screen = try row.decodeIfPresent("screen")
        secret = try row.decodeIfPresent("secret")
        guard let format = HookFormat(rawValue: try row.decode("format")) else {
            throw StoreError.decoding(column: "format", expected: "HookFormat")
        }
        self.format = format
        createdAt = try row.decode("created_at")
        createdBy = try row.decode("created_by")
        deliveredSeq = try row.decode("delivered_seq")
        deliveredAt = try row.decodeIfPresent("delivered_at")
        failures = try row.decode("failures")
        lastError = try row.decodeIfPresent("last_error")
        pausedReason = try row.decodeIfPresent("paused_reason")
        holder = try row.decodeIfPresent("holder")
        leaseUntil = try row.decodeIfPresent("lease_until")
    }

    /// Whether it is paused: by its failures or by hand, with `pausedReason` saying why.
    public var isPaused: Bool { pausedReason != nil }

    /// Where its events go: the `to` of `hook.added`, the `from` of `hook.removed`.
    public var target: String { url }

    /// The events it delivers: the same filter as WATCH's.
    public var filter: EventFilter {
        EventFilter(kinds: Set(kinds.compactMap(EventKind.init(rawValue:))), screen: screen)
    }
}

extension Hook: LeasedResource {
    /// `hooks`: a hook is delivered by one daemon at a time; a paused one (with a reason) by none. Resuming one
    /// forgets its failures.
    public static let table = LeasedTable(
        noun: "hook",
        lease: Lease(table: "hooks", pausedCondition: "paused_reason IS NOT NULL"),
        alias: "h",
        columns: """
            h.id, h.project_id, p.name AS project, h.url, h.kinds, h.screen, h.secret, h.format, h.created_at,
            h.created_by, h.delivered_seq, h.delivered_at, h.failures, h.last_error, h.paused_reason, h.holder,
            h.lease_until
            """,
        reasonColumn: "paused_reason",
        pause: "holder = NULL, lease_until = NULL",
        resume: "paused_reason = NULL, failures = 0, last_error = NULL",
        added: .hookAdded, paused: .hookPaused, resumed: .hookResumed, removed: .hookRemoved
    )
}

/// Webhooks: their settings, the cursor each delivers from, the lease that lets one daemon at a time deliver
/// each, and their failures (docs/hooks.md). What every leased resource has is `LeasedResourceStore`'s.
public enum HookStore {
    private typealias Store = LeasedResourceStore<Hook>

    // MARK: - Settings

    /// Adds a hook to `projectName`, with a `hook.added` event; it delivers the events committed after it, its own
    /// `hook.added` first when its kinds take that.
    public static func add(
        _ settings: HookSettings,
        to projectName: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Hook {
        try Store.add(to: projectName, actor: actor, on: connection) { project, connection in
            try connection.queryValue(
                """
                INSERT INTO hooks (project_id, url, kinds, screen, secret, format, created_by, delivered_seq)
                VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT coalesce(max(seq), 0) FROM events)) RETURNING id
                """,
                [
                    project.id, settings.url.description, settings.kinds.map(\.rawValue), settings.screen,
                    settings.secret, settings.format.rawValue, actor,
                ],
                as: Int64.self
            )
        }
    }

    /// The hooks of `projectName` (every hook when nil), by id.
    public static func list(project projectName: String?, on connection: PostgresConnection) throws -> [Hook] {
        try Store.list(project: projectName, on: connection)
    }

    /// The hook `id`, or `notFound`.
    public static func require(_ id: Int64, on connection: PostgresConnection) throws -> Hook {
        try Store.require(id, on: connection)
    }

    /// Deletes the hook, with a `hook.removed` event.
    public static func remove(_ id: Int64, actor: String, on connection: PostgresConnection) throws {
        try Store.remove(id, actor: actor, on: connection)
    }

    /// Pauses the hook by hand, with a `hook.paused` event giving `reason`: no daemon delivers it, and its cursor
    /// stays where it is until it is resumed. A hook already paused stays as it is, its reason kept.
    public static func pause(_ id: Int64, reason: String, actor: String, on connection: PostgresConnection) throws
        -> Hook
    {
        try Store.setPaused(id, true, reason: reason, actor: actor, on: connection)
    }

    /// Resumes a paused hook, with a `hook.resumed` event: its failures are forgotten and it delivers again from its
    /// cursor, so nothing that matched while it was paused is lost. A hook that is not paused stays as it is.
    public static func resume(_ id: Int64, actor: String, on connection: PostgresConnection) throws -> Hook {
        try Store.setPaused(id, false, actor: actor, on: connection)
    }

    // MARK: - Lease

    /// Renews the leases `holder` has and takes up every active hook whose lease is free or ran out, for `lease`
    /// from now; gives up the leases of paused hooks (`Lease.claim`). Returns the hooks `holder` now holds, by id.
    public static func claim(holder: String, lease: Duration, on connection: PostgresConnection) throws -> [Hook] {
        try Store.claim(holder: holder, for: lease, on: connection)
    }

    /// Gives up every lease `holder` has (a daemon stopping), so another daemon can take them up at once.
    public static func release(holder: String, on connection: PostgresConnection) throws {
        try Store.release(holder: holder, on: connection)
    }

    // MARK: - Delivery

    /// Moves the hook's cursor to `seq` after a successful delivery (or past events it does not deliver), its
    /// failures forgotten, if `holder` still holds it. Returns false when it does not: the delivery stops there.
    public static func recordDelivered(
        _ id: Int64,
        through seq: Int64,
        isDelivery: Bool,
        holder: String,
        on connection: PostgresConnection
    ) throws -> Bool {
        let updated = try connection.query(
            """
            UPDATE hooks SET delivered_seq = greatest(delivered_seq, $3),
                delivered_at = CASE WHEN $4 THEN now() ELSE delivered_at END,
                failures = CASE WHEN $4 THEN 0 ELSE failures END,
                last_error = CASE WHEN $4 THEN NULL ELSE last_error END
            WHERE id = $1 AND \(Hook.table.lease.isHeld(by: "$2"))
            """,
            [id, holder, seq, isDelivery]
        ).affectedRows
        return updated == 1
    }

    /// Records a failed attempt, if `holder` still holds the hook, and pauses it (with a `hook.paused` event) when
    /// `retry` says the failures are too many. Returns the hook as it is now, nil when `holder` no longer holds it.
    public static func recordFailure(
        _ id: Int64,
        error: String,
        retry: HookRetry,
        holder: String,
        on connection: PostgresConnection
    ) throws -> Hook? {
        try connection.transaction { connection in
            guard
                let failures = try connection.queryValue(
                    """
                    UPDATE hooks SET failures = failures + 1, last_error = $3
                    WHERE id = $1 AND \(Hook.table.lease.isHeld(by: "$2")) RETURNING failures
                    """,
                    [id, holder, error],
                    as: Int.self
                )
            else { return nil }
            if retry.pauses(afterFailures: failures) {
                let reason = "\(failures) deliveries in a row failed, the last: \(error)"
                try connection.query(
                    "UPDATE hooks SET paused_reason = $2, \(Hook.table.pause) WHERE id = $1", [id, reason])
                try Store.append(
                    .hookPaused, try require(id, on: connection), reason: reason, actor: "server:\(holder)",
                    on: connection)
            }
            return try require(id, on: connection)
        }
    }
}
