import BarkeepCore
import Foundation

/// What `LeasedResourceStore` needs to know of a table of leased rows (hooks, sources): where they are, how they are
/// read, how they are paused and resumed, and the event kinds that record each change. Every string is the store's
/// own constant, never input: interpolating them is safe.
public struct LeasedTable: Sendable {
    /// The noun users name a row by (`hook`, `source`): in subjects and in errors (`no hook 7`).
    public let noun: String
    /// The table and its lease (`holder`, `lease_until`, and the condition of a paused row).
    let lease: Lease
    /// The table's alias in `columns`.
    let alias: String
    /// The columns the resource's `init(row:)` reads, of `TABLE ALIAS JOIN projects p ON p.id = ALIAS.project_id`.
    let columns: String
    /// The column that holds why a row is paused, set to the reason when it is paused by hand; nil when the table
    /// keeps no reason.
    let reasonColumn: String?
    /// The assignments that pause a row, its lease given up.
    let pause: String
    /// The assignments that resume a paused row.
    let resume: String
    /// The event kinds of a row added, paused, resumed and removed.
    let added: EventKind, paused: EventKind, resumed: EventKind, removed: EventKind

    /// The SELECT of rows with their project's name, before any WHERE.
    var select: String {
        "SELECT \(columns) FROM \(lease.table) \(alias) JOIN projects p ON p.id = \(alias).project_id"
    }
}

/// A row of a leased table, as its store reads it.
public protocol LeasedResource: Sendable {
    /// Its table.
    static var table: LeasedTable { get }
    /// Reads a row selected with `table.columns`.
    init(row: PostgresRow) throws
    /// The database id, its name on the wire.
    var id: Int64 { get }
    /// Its project's id.
    var projectID: Int64 { get }
    /// Its project's name.
    var project: String { get }
    /// Where it sends or what it reads, in words: the `to` of its added event and the `from` of its removed one.
    var target: String { get }
    /// Whether it is paused: no daemon holds it.
    var isPaused: Bool { get }
}

extension LeasedResource {
    /// The subject of its events: `hook 7`, `source 2`.
    public var subject: String { "\(Self.table.noun) \(id)" }
}

/// The one store of leased resources (hooks, sources): adding one with its event, listing, finding and locking them,
/// pausing and resuming, removing, and the lease that lets one daemon at a time work each (`Lease`). `HookStore` and
/// `SourceStore` keep only what is their own: a hook's cursor and failures, a source's runs and files.
public enum LeasedResourceStore<Resource: LeasedResource> {
    private static var table: LeasedTable { Resource.table }

    /// Adds a resource to `projectName` with its added event, in one transaction: `insert` writes the row (and may
    /// first refuse it) and returns its id.
    static func add(
        to projectName: String,
        actor: String,
        on connection: PostgresConnection,
        insert: (Project, PostgresConnection) throws -> Int64?
    ) throws -> Resource {
        try connection.transaction { connection in
            let project = try ProjectStore.require(projectName, on: connection)
            guard let id = try insert(project, connection) else {
                throw StoreError.invalid("the \(table.noun) was not added")
            }
            let resource = try require(id, on: connection)
            try append(table.added, resource, to: resource.target, actor: actor, on: connection)
            return resource
        }
    }

    /// The resources of `projectName` (every one when nil), by id.
    public static func list(project projectName: String?, on connection: PostgresConnection) throws -> [Resource] {
        var projectID: Int64?
        if let projectName { projectID = try ProjectStore.require(projectName, on: connection).id }
        return try connection.query(
            """
            \(table.select)
            WHERE $1::bigint IS NULL OR \(table.alias).project_id = $1 ORDER BY \(table.alias).id
            """,
            [projectID]
        ).map(Resource.init(row:))
    }

    /// The resource `id`, or `notFound`.
    public static func require(_ id: Int64, on connection: PostgresConnection) throws -> Resource {
        guard
            let resource = try connection.query("\(table.select) WHERE \(table.alias).id = $1", [id]).first
                .map(Resource.init(row:))
        else { throw StoreError.notFound("no \(table.noun) \(id)") }
        return resource
    }

    /// Inside a transaction: locks the resource's row and reads it, or throws `notFound`.
    static func lock(_ id: Int64, on connection: PostgresConnection) throws -> Resource {
        guard try connection.query("SELECT id FROM \(table.lease.table) WHERE id = $1 FOR UPDATE", [id]).first != nil
        else { throw StoreError.notFound("no \(table.noun) \(id)") }
        return try require(id, on: connection)
    }

    /// Inside a transaction: locks the resource and checks that `holder` still holds its lease, or throws
    /// `conflict`. What a holder records is recorded only after this, so a daemon whose lease ran out (stalled, cut
    /// off) cannot record work another daemon is doing again.
    static func lockHeld(_ id: Int64, holder: String, on connection: PostgresConnection) throws -> Resource {
        guard
            try connection.query(
                "SELECT id FROM \(table.lease.table) WHERE id = $1 AND \(table.lease.isHeld(by: "$2")) FOR UPDATE",
                [id, holder]
            ).first != nil
        else { throw StoreError.conflict("\(table.noun) \(id) is no longer held by \(holder)") }
        return try require(id, on: connection)
    }

    /// Pauses (`reason` given: why, kept where the table keeps one) or resumes (`reason` nil) the resource, with its
    /// paused or resumed event when that changes it; one already so stays as it is. A paused resource's lease is
    /// given up.
    public static func setPaused(
        _ id: Int64,
        _ isPaused: Bool,
        reason: String? = nil,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Resource {
        try connection.transaction { connection in
            let before = try lock(id, on: connection)
            guard before.isPaused != isPaused else { return before }
            if isPaused, let column = table.reasonColumn {
                try connection.query(
                    "UPDATE \(table.lease.table) SET \(column) = $2, \(table.pause) WHERE id = $1",
                    [id, reason ?? "paused"])
            } else {
                try connection.query(
                    "UPDATE \(table.lease.table) SET \(isPaused ? table.pause : table.resume) WHERE id = $1", [id])
            }
            try append(
                isPaused ? table.paused : table.resumed, before, reason: isPaused ? reason : nil, actor: actor,
                on: connection)
            return try require(id, on: connection)
        }
    }

    /// Deletes the resource, with its removed event.
    public static func remove(_ id: Int64, actor: String, on connection: PostgresConnection) throws {
        try connection.transaction { connection in
            let resource = try lock(id, on: connection)
            try connection.query("DELETE FROM \(table.lease.table) WHERE id = $1", [id])
            try append(table.removed, resource, from: resource.target, actor: actor, on: connection)
        }
    }

    /// Renews the leases `holder` has and takes up every active resource whose lease is free or ran out, for
    /// `duration` from now; gives up the leases of paused ones (`Lease.claim`). Returns the resources `holder` now
    /// holds, by id.
    static func claim(holder: String, for duration: Duration, on connection: PostgresConnection) throws -> [Resource] {
        try connection.transaction { connection in
            try table.lease.claim(holder: holder, for: duration, on: connection)
            return try connection.query(
                "\(table.select) WHERE \(table.alias).holder = $1 ORDER BY \(table.alias).id", [holder]
            ).map(Resource.init(row:))
        }
    }

    /// Gives up every lease `holder` has (a daemon stopping), so another daemon can take them up at once.
    static func release(holder: String, on connection: PostgresConnection) throws {
        try table.lease.release(holder: holder, on: connection)
    }

    /// Appends one event of `kind` about `resource`.
    static func append(
        _ kind: EventKind,
        _ resource: Resource,
        from: String? = nil,
        to: String? = nil,
        reason: String? = nil,
        actor: String,
        on connection: PostgresConnection
    ) throws {
        try EventLog.append(
            [
                NewEvent(
                    projectID: resource.projectID, project: resource.project, kind: kind, subject: resource.subject,
                    from: from, to: to, reason: reason, actor: actor)
            ],
            on: connection
        )
    }
}
