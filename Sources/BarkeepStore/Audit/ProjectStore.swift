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

/// What changing a project did.
public struct ProjectUpdate: Sendable, Equatable {
    /// The project now.
    public var project: Project
    /// The project before.
    public var previous: Project
    /// The items whose status the new SDK changed (unblocked or blocked).
    public var itemChanges: [ItemChange]
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
                throw StoreError.conflict("a project named \(ValueExcerpt.quoted(name)) already exists")
            } catch let error as StoreError where error.sqlState == PostgresError.Code.checkViolation {
                throw StoreError.invalid("not a valid project name or version")
            }
            guard let row = rows.first else { throw StoreError.invalid("project not created") }
            let project = try Project(row: row)
            // Every project has the area of its app-wide files from the start.
            try connection.query(
                """
                WITH area AS (
                    INSERT INTO screens (project_id, key, kind, title) VALUES ($1, $2, $3, $4) RETURNING id
                )
                INSERT INTO screen_paths (project_id, screen_id, glob)
                SELECT $1, area.id, g FROM area, unnest($5::text[]) AS g
                """,
                [
                    project.id, AuditArea.app, ScreenKind.area.rawValue, AuditArea.appTitle,
                    AuditArea.defaultGlobs,
                ]
            )
            try EventLog.append(
                [NewEvent(projectID: project.id, project: name, kind: .projectCreated, subject: name, actor: actor)],
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
        guard let project = try find(name, on: connection) else { throw try notFound(name, on: connection) }
        return project
    }

    /// The refusal of a project name no project has, suggesting the closest names (NameSuggestion).
    static func notFound(_ name: String, on connection: PostgresConnection) throws -> StoreError {
        let names = try connection.query("SELECT name FROM projects ORDER BY name", []).map {
            try $0.decode(at: 0, as: String.self)
        }
        return StoreError.notFound(
            "no project named \(ValueExcerpt.quoted(name))"
                + NameSuggestion.hint(NameSuggestion.closest(to: name, among: names)))
    }

    /// Changes the SDK, the deployment target and/or the required poses, with one event per value that changed.
    /// A new SDK re-examines every item needing SDK symbols in the same transaction (SDKStore.reexamine).
    public static func update(
        name: String,
        sdk: String? = nil,
        deploymentTarget: String? = nil,
        requiredPoses: [String]? = nil,
        actor: String,
        on connection: PostgresConnection
    ) throws -> ProjectUpdate {
        try connection.transaction { connection in
            guard
                let id = try connection.queryValue("SELECT id FROM projects WHERE name = $1", [name], as: Int64.self)
            else { throw try notFound(name, on: connection) }
            // Item statuses follow the SDK: no ingest or triage of the project may run between the two.
            try ScanStore.lockProject(id, on: connection)
            guard
                let row = try connection.query("SELECT \(columns) FROM projects WHERE id = $1 FOR UPDATE", [id]).first
            else { throw try notFound(name, on: connection) }
            let before = try Project(row: row)
            if let requiredPoses {
                let unknown = requiredPoses.filter { Pose(rawValue: $0) == nil }
                guard unknown.isEmpty else {
                    throw StoreError.invalid(
                        "unknown pose \(unknown.joined(separator: ", ")): the poses are \(Pose.range) (see barkeep poses)"
                    )
                }
            }
            let rows: PostgresRows
            do {
                rows = try connection.query(
                    """
                    UPDATE projects SET sdk = coalesce($2, sdk), deployment_target = coalesce($3, deployment_target),
                        required_poses = coalesce($4::text[], required_poses)
                    WHERE id = $1 RETURNING \(columns)
                    """,
                    [before.id, sdk, deploymentTarget, requiredPoses]
                )
            } catch let error as StoreError where error.sqlState == PostgresError.Code.checkViolation {
                throw StoreError.invalid("not a valid version or pose list")
            }
            guard let updated = try rows.first.map(Project.init(row:)) else {
                throw try notFound(name, on: connection)
            }
            var events: [NewEvent] = []
            func changed(_ subject: String, _ from: String, _ to: String) {
                guard from != to else { return }
                events.append(
                    NewEvent(
                        projectID: updated.id, project: name, kind: .projectUpdated, subject: subject, from: from,
                        to: to, actor: actor
                    )
                )
            }
            changed("sdk", before.sdk, updated.sdk)
            changed("deployment-target", before.deploymentTarget, updated.deploymentTarget)
            changed(
                "required-poses", before.requiredPoses.joined(separator: ","),
                updated.requiredPoses.joined(separator: ","))
            try EventLog.append(events, on: connection)
            let changes =
                before.sdk == updated.sdk
                ? []
                : try SDKStore.reexamine(
                    updated, cause: "the project moved to the iOS \(updated.sdk) SDK", actor: actor, on: connection)
            return ProjectUpdate(project: updated, previous: before, itemChanges: changes)
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
            else { throw try notFound(name, on: connection) }
            try EventLog.append(
                [NewEvent(projectID: nil, project: name, kind: .projectDeleted, subject: name, actor: actor)],
                on: connection
            )
            _ = id
        }
    }
}
