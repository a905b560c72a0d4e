import BarkeepCore
import Foundation

/// A screen of the app under audit.
public struct Screen: Sendable, Equatable {
    /// The database id.
    public var id: Int64
    /// The key, unique in the project (`Inbox`).
    public var key: String
    /// A human title.
    public var title: String?
    /// Who owns it in the team.
    public var owner: String?
    /// The source path globs that own it, sorted.
    public var paths: [String]
    /// When it was added.
    public var createdAt: Date
    /// A screen, a component or the app area.
    public var kind: ScreenKind
    /// The poses it must pass when they are not the project's; nil: the project's.
    public var requiredPoses: [String]?
    /// The keys of the components it uses (a screen's), or of the screens using it (a component's), sorted.
    public var uses: [String]

    /// The poses it must pass: its own, else the project's for a screen; none for a component or the area.
    public func requiredPoses(of project: Project) -> [String] {
        requiredPoses ?? (kind == .screen ? project.requiredPoses : [])
    }

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        key = try row.decode("key")
        kind = ScreenKind(rawValue: try row.decode("kind")) ?? .screen
        requiredPoses = try row.decodeIfPresent("required_poses")
        uses = try row.decode("uses")
        title = try row.decodeIfPresent("title")
        owner = try row.decodeIfPresent("owner")
        paths = try row.decode("paths")
        createdAt = try row.decode("created_at")
    }
}

/// A screen with where it stands.
public struct ScreenSummary: Sendable, Equatable {
    /// The screen.
    public var screen: Screen
    /// Whether it is done, and why not.
    public var readiness: ScreenReadiness
    /// How many of its findings need work.
    public var openFindings: Int { readiness.openFindingCount }
}

/// What to change in a screen; nil fields stay as they are.
public struct ScreenChange: Sendable, Equatable {
    /// A new title; empty clears it.
    public var title: String?
    /// A new owner; empty clears it.
    public var owner: String?
    /// The globs to own from now on, replacing all of them.
    public var paths: [String]?
    /// Globs to add.
    public var addPaths: [String]
    /// Globs to give up.
    public var removePaths: [String]
    /// The poses it must pass from now on.
    public var poses: PoseRequirement?

    /// A change.
    public init(
        title: String? = nil,
        owner: String? = nil,
        paths: [String]? = nil,
        addPaths: [String] = [],
        removePaths: [String] = [],
        poses: PoseRequirement? = nil
    ) {
        self.title = title
        self.owner = owner
        self.paths = paths
        self.addPaths = addPaths
        self.removePaths = removePaths
        self.poses = poses
    }
}

/// Which poses a screen must pass.
public enum PoseRequirement: Sendable, Equatable {
    /// The project's required poses.
    case project
    /// These, in this order (none at all for a screen no pose applies to).
    case poses([String])

    /// As stored: nil for the project's.
    var stored: [String]? {
        switch self {
        case .project: nil
        case .poses(let poses): poses
        }
    }
}

/// Screens: adding, changing and removing them (each change of globs re-attributes the project's findings in the
/// same transaction), listing them with whether each is done.
public enum ScreenStore {
    static let columns = """
        s.id, s.key, s.title, s.owner, s.created_at, s.kind, s.required_poses,
        ARRAY(SELECT glob FROM screen_paths p WHERE p.screen_id = s.id ORDER BY glob) AS paths,
        ARRAY(SELECT o.key FROM screen_uses u JOIN screens o ON o.id = CASE WHEN s.kind = 'component'
                                                                      THEN u.screen_id ELSE u.component_id END
              WHERE CASE WHEN s.kind = 'component' THEN u.component_id ELSE u.screen_id END = s.id
              ORDER BY o.key) AS uses
        """

    /// Adds a screen (or a component) owning `paths`; returns it and how many findings it took over. Adding a key
    /// by hand forgets a dismissal of it.
    public static func add(
        project projectName: String,
        key: String,
        kind: ScreenKind = .screen,
        title: String?,
        owner: String?,
        paths: [String],
        actor: String,
        on connection: PostgresConnection
    ) throws -> (Screen, reattributed: Int) {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            guard kind != .area else { throw StoreError.invalid("the app area is built in: it cannot be added") }
            let globs = unique(paths)
            try refuseTakenGlobs(globs, project: project, except: nil, on: connection)
            let id: Int64?
            do {
                id = try connection.queryValue(
                    """
                    INSERT INTO screens (project_id, key, title, owner, kind) VALUES ($1, $2, $3, $4, $5) RETURNING id
                    """,
                    [project.id, key, nonEmpty(title), nonEmpty(owner), kind.rawValue],
                    as: Int64.self
                )
            } catch let error as StoreError where error.sqlState == PostgresError.Code.uniqueViolation {
                throw StoreError.conflict("project '\(projectName)' already has a screen '\(key)'")
            }
            guard let id else { throw StoreError.invalid("the screen was not added") }
            try connection.query(
                "DELETE FROM screen_dismissals WHERE project_id = $1 AND key = $2", [project.id, key])
            try insertPaths(globs, screenID: id, projectID: project.id, on: connection)
            let moved = try ScreenAttributionStore.reattribute(projectID: project.id, on: connection)
            try EventLog.append(
                [
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .screenAdded, subject: key,
                        to: globs.joined(separator: ","), reason: kind == .screen ? nil : kind.rawValue, actor: actor,
                        screen: key
                    )
                ],
                on: connection
            )
            return (try require(key, projectID: project.id, on: connection), moved)
        }
    }

    /// Changes a screen's title, owner or globs; returns it and how many findings changed screen.
    public static func update(
        project projectName: String,
        key: String,
        change: ScreenChange,
        actor: String,
        on connection: PostgresConnection
    ) throws -> (Screen, reattributed: Int) {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let before = try require(key, projectID: project.id, on: connection)
            var globs = change.paths.map(unique) ?? before.paths
            globs += unique(change.addPaths).filter { !globs.contains($0) }
            let missing = change.removePaths.filter { !globs.contains($0) }
            guard missing.isEmpty else {
                throw StoreError.notFound("screen '\(key)' does not own \(missing.joined(separator: ", "))")
            }
            globs.removeAll { change.removePaths.contains($0) }
            try refuseTakenGlobs(globs, project: project, except: before.id, on: connection)
            if change.poses != nil, before.kind == .component {
                throw StoreError.invalid("\(key) is a component: the screens that use it are verified in poses")
            }
            try connection.query(
                """
                UPDATE screens SET title = CASE WHEN $2::text IS NULL THEN title ELSE nullif($2, '') END,
                                   owner = CASE WHEN $3::text IS NULL THEN owner ELSE nullif($3, '') END,
                                   required_poses = CASE WHEN $4 THEN $5::text[] ELSE required_poses END
                WHERE id = $1
                """,
                [before.id, change.title, change.owner, change.poses != nil, change.poses?.stored]
            )
            var moved = 0
            if globs.sorted() != before.paths {
                try connection.query("DELETE FROM screen_paths WHERE screen_id = $1", [before.id])
                try insertPaths(globs, screenID: before.id, projectID: project.id, on: connection)
                moved = try ScreenAttributionStore.reattribute(projectID: project.id, on: connection)
            }
            let after = try require(key, projectID: project.id, on: connection)
            var events: [NewEvent] = []
            func changed(_ subject: String, _ from: String?, _ to: String?) {
                guard from != to else { return }
                events.append(
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .screenUpdated,
                        subject: key + " " + subject,
                        from: from, to: to, actor: actor, screen: key
                    )
                )
            }
            changed("title", before.title, after.title)
            changed("owner", before.owner, after.owner)
            changed("paths", before.paths.joined(separator: ","), after.paths.joined(separator: ","))
            func poses(_ screen: Screen) -> String {
                screen.requiredPoses.map { $0.isEmpty ? "none" : $0.joined(separator: ",") } ?? "project"
            }
            changed("poses", poses(before), poses(after))
            try EventLog.append(events, on: connection)
            return (after, moved)
        }
    }

    /// Removes a screen with its step states and pose results (its events stay); its findings go to the screens
    /// whose globs match them, or to `unmapped`, and its manual items become unmapped. Discovery no longer proposes
    /// its key (a dismissal). The app area cannot be removed. Returns how many findings it owned.
    public static func remove(
        project projectName: String,
        key: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Int {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let screen = try require(key, projectID: project.id, on: connection)
            guard screen.kind != .area else {
                throw StoreError.invalid("the app area is built in: it cannot be removed (change its paths instead)")
            }
            try dismiss(key, project: project, actor: actor, on: connection)
            let owned =
                try connection.queryValue(
                    "SELECT count(*) FROM findings WHERE screen_id = $1", [screen.id], as: Int.self) ?? 0
            try connection.query("DELETE FROM screens WHERE id = $1", [screen.id])
            try ScreenAttributionStore.reattribute(projectID: project.id, on: connection)
            try EventLog.append(
                [
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .screenRemoved, subject: key,
                        from: screen.paths.joined(separator: ","), actor: actor, screen: key
                    )
                ],
                on: connection
            )
            return owned
        }
    }

    /// The project's screens by key, each with whether it is done.
    public static func list(project projectName: String, on connection: PostgresConnection) throws -> [ScreenSummary] {
        let project = try ProjectStore.require(projectName, on: connection)
        let screens = try connection.query(
            "SELECT \(columns) FROM screens s WHERE s.project_id = $1 ORDER BY s.key",
            [project.id]
        ).map(Screen.init(row:))
        let readiness = try ReadinessStore.readiness(of: screens, project: project, on: connection)
        return zip(screens, readiness).map(ScreenSummary.init)
    }

    /// One screen with whether it is done; `notFound` when there is none.
    public static func show(
        project projectName: String,
        key: String,
        on connection: PostgresConnection
    ) throws -> ScreenSummary {
        let project = try ProjectStore.require(projectName, on: connection)
        let screen = try require(key, projectID: project.id, on: connection)
        guard let readiness = try ReadinessStore.readiness(of: [screen], project: project, on: connection).first else {
            throw StoreError.notFound("no screen '\(key)' in project '\(projectName)'")
        }
        return ScreenSummary(screen: screen, readiness: readiness)
    }

    /// The screen's history, oldest first, at most `limit` of the latest events: its own (added, changed, uses,
    /// steps, poses) and those of the findings it owns now.
    public static func history(
        project projectName: String,
        key: String,
        limit: Int = 100,
        on connection: PostgresConnection
    ) throws -> [Event] {
        let project = try ProjectStore.require(projectName, on: connection)
        let screen = try require(key, projectID: project.id, on: connection)
        return try connection.query(
            """
            SELECT * FROM (
                SELECT \(EventLog.columns) FROM events
                WHERE project_id = $1
                  AND (finding_id IN (SELECT id FROM findings WHERE screen_id = $2)
                       OR (kind IN \(EventKind.screenKindsSQL) AND screen = $3))
                ORDER BY seq DESC LIMIT $4
            ) latest ORDER BY seq
            """,
            [project.id, screen.id, key, limit]
        ).map(Event.init(row:))
    }

    /// The screen `key` of a project; `notFound` when there is none.
    public static func require(_ key: String, projectID: Int64, on connection: PostgresConnection) throws -> Screen {
        guard
            let row = try connection.query(
                "SELECT \(columns) FROM screens s WHERE s.project_id = $1 AND s.key = $2",
                [projectID, key]
            ).first
        else {
            let project =
                try connection.queryValue("SELECT name FROM projects WHERE id = $1", [projectID], as: String.self)
                ?? ""
            throw StoreError.notFound("no screen '\(key)' in project '\(project)'")
        }
        return try Screen(row: row)
    }

    /// One glob owned by two screens would make attribution depend on chance: name the screen that has it.
    static func refuseTakenGlobs(
        _ globs: [String],
        project: Project,
        except screenID: Int64?,
        on connection: PostgresConnection
    ) throws {
        guard
            let row = try connection.query(
                """
                SELECT p.glob, s.key FROM screen_paths p JOIN screens s ON s.id = p.screen_id
                WHERE p.project_id = $1 AND p.glob = ANY($2::text[]) AND ($3::bigint IS NULL OR p.screen_id <> $3)
                ORDER BY p.glob LIMIT 1
                """,
                [project.id, globs, screenID]
            ).first
        else { return }
        throw StoreError.conflict(
            "the glob '\(try row.decode("glob", as: String.self))' already belongs to screen "
                + "'\(try row.decode("key", as: String.self))'")
    }

    static func insertPaths(
        _ globs: [String],
        screenID: Int64,
        projectID: Int64,
        on connection: PostgresConnection
    ) throws {
        guard !globs.isEmpty else { return }
        try connection.query(
            "INSERT INTO screen_paths (project_id, screen_id, glob) SELECT $1, $2, g FROM unnest($3::text[]) AS g",
            [projectID, screenID, globs]
        )
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: [String] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }

    private static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
}
