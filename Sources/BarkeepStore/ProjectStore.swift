import BarkeepCore
import Foundation

/// One app under audit.
public struct Project: Sendable, Equatable {
    /// The database id.
    public var id: Int64
    /// The unique name.
    public var name: String
    /// The iOS SDK the team builds with.
    public var sdk: String
    /// The lowest iOS version the app supports.
    public var deploymentTarget: String
    /// The poses every screen must pass.
    public var requiredPoses: [String]
    /// When it was created.
    public var createdAt: Date

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        name = try row.decode("name")
        sdk = try row.decode("sdk")
        deploymentTarget = try row.decode("deployment_target")
        requiredPoses = try row.decode("required_poses")
        createdAt = try row.decode("created_at")
    }
}

/// Projects: create, read, change, delete. Every change appends its events in the same transaction.
public enum ProjectStore {
    private static let columns = "id, name, sdk, deployment_target, required_poses, created_at"

    /// Creates a project; `conflict` when the name is taken.
    public static func create(
        name: String,
        sdk: String?,
        deploymentTarget: String?,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Project {
        try connection.transaction { connection in
            let rows: PostgresRows
            do {
                rows = try connection.query(
                    """
                    INSERT INTO projects (name, sdk, deployment_target)
                    VALUES ($1, coalesce($2, '27.0'), coalesce($3, '26.0'))
                    RETURNING \(columns)
                    """,
                    [name, sdk, deploymentTarget]
                )
            } catch let error as StoreError where error.sqlState == PostgresError.Code.uniqueViolation {
                throw StoreError.conflict("a project named '\(name)' already exists")
            } catch let error as StoreError where error.sqlState == PostgresError.Code.checkViolation {
                throw StoreError.invalid("not a valid project name or version")
            }
            guard let row = rows.first else { throw StoreError.invalid("project not created") }
            let project = try Project(row: row)
            try EventLog.append(
                [NewEvent(projectID: project.id, project: name, kind: "project.created", subject: name, actor: actor)],
                on: connection
            )
            return project
        }
    }

    /// Every project, by name.
    public static func list(on connection: PostgresConnection) throws -> [Project] {
        try connection.query("SELECT \(columns) FROM projects ORDER BY name").map(Project.init(row:))
    }

    /// The project named `name`, or nil.
    public static func find(_ name: String, on connection: PostgresConnection) throws -> Project? {
        try connection.query("SELECT \(columns) FROM projects WHERE name = $1", [name]).first.map(Project.init(row:))
    }

    /// The project named `name`; `notFound` when there is none.
    public static func require(_ name: String, on connection: PostgresConnection) throws -> Project {
        guard let project = try find(name, on: connection) else {
            throw StoreError.notFound("no project named '\(name)'")
        }
        return project
    }

    /// Changes the SDK and/or deployment target, with one event per value that changed.
    public static func update(
        name: String,
        sdk: String?,
        deploymentTarget: String?,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Project {
        try connection.transaction { connection in
            guard
                let row = try connection.query(
                    "SELECT \(columns) FROM projects WHERE name = $1 FOR UPDATE",
                    [name]
                ).first
            else { throw StoreError.notFound("no project named '\(name)'") }
            let before = try Project(row: row)
            let rows: PostgresRows
            do {
                rows = try connection.query(
                    """
                    UPDATE projects SET sdk = coalesce($2, sdk), deployment_target = coalesce($3, deployment_target)
                    WHERE id = $1 RETURNING \(columns)
                    """,
                    [before.id, sdk, deploymentTarget]
                )
            } catch let error as StoreError where error.sqlState == PostgresError.Code.checkViolation {
                throw StoreError.invalid("not a valid version")
            }
            guard let updated = try rows.first.map(Project.init(row:)) else {
                throw StoreError.notFound("no project named '\(name)'")
            }
            var events: [NewEvent] = []
            if before.sdk != updated.sdk {
                events.append(
                    NewEvent(
                        projectID: updated.id, project: name, kind: "project.updated", subject: "sdk",
                        from: before.sdk, to: updated.sdk, actor: actor
                    )
                )
            }
            if before.deploymentTarget != updated.deploymentTarget {
                events.append(
                    NewEvent(
                        projectID: updated.id, project: name, kind: "project.updated", subject: "deployment-target",
                        from: before.deploymentTarget, to: updated.deploymentTarget, actor: actor
                    )
                )
            }
            try EventLog.append(events, on: connection)
            return updated
        }
    }

    /// Deletes a project and everything it holds; its events stay. `notFound` when there is none.
    public static func delete(name: String, actor: String, on connection: PostgresConnection) throws {
        try connection.transaction { connection in
            guard
                let id = try connection.queryValue(
                    "DELETE FROM projects WHERE name = $1 RETURNING id",
                    [name],
                    as: Int64.self
                )
            else { throw StoreError.notFound("no project named '\(name)'") }
            try EventLog.append(
                [NewEvent(projectID: nil, project: name, kind: "project.deleted", subject: name, actor: actor)],
                on: connection
            )
            _ = id
        }
    }
}
