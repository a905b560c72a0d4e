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
    /// The keys of the components it uses (a screen's: directly or through other components, all whose findings
    /// count for it), or of the screens using it, directly or through other components (a component's), sorted.
    public var uses: [String]
    /// The keys of the components it uses directly, as `screen uses` gave them (a screen's or a component's), sorted.
    public var components: [String]

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
        components = try row.decode("components")
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
    /// What it is from now on: a screen or a component (its steps, poses and history stay).
    public var kind: ScreenKind?

    /// A change.
    public init(
        title: String? = nil,
        owner: String? = nil,
        paths: [String]? = nil,
        addPaths: [String] = [],
        removePaths: [String] = [],
        poses: PoseRequirement? = nil,
        kind: ScreenKind? = nil
    ) {
        self.title = title
        self.owner = owner
        self.paths = paths
        self.addPaths = addPaths
        self.removePaths = removePaths
        self.poses = poses
        self.kind = kind
    }
}

/// A screen after a change of many.
public struct ScreenUpdate: Sendable, Equatable {
    /// The screen as it now is (as it would be, in a dry run).
    public var screen: Screen
    /// Whether anything of it changed.
    public var isChanged: Bool
    /// How many of the project's findings changed screen.
    public var reattributed: Int
    /// The screen as it was.
    public var before: Screen
    /// The aspects of the change it did not take (a component's poses), with why.
    public var skipped: [ScreenAspect] = []
    /// Why the first skipped aspect was skipped.
    public var reason: String?
}

/// A screen removed (or that a dry run would remove, or that a selection picked but could not remove) and what
/// went with it.
public struct ScreenRemoval: Sendable, Equatable {
    /// Its key.
    public var key: String
    /// Its kind.
    public var kind: ScreenKind
    /// The globs it owned.
    public var paths: [String]
    /// How many findings it owned (they go to other screens or unmapped).
    public var findings: Int
    /// How many of its checklist steps were recorded done (lost with it).
    public var stepsDone: Int
    /// How many pose results it had, all of its history (deleted with it).
    public var poseResults: Int
    /// Why it was left (the app area); nil when it went.
    public var reason: String?
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
        ARRAY(SELECT o.key FROM screen_uses u JOIN screens o ON o.id = CASE WHEN s.kind = \(ScreenKind.component.sql)
                                                                      THEN u.screen_id ELSE u.component_id END
              WHERE CASE WHEN s.kind = \(ScreenKind.component.sql) THEN u.component_id ELSE u.screen_id END = s.id
              ORDER BY o.key) AS uses,
        ARRAY(SELECT o.key FROM component_links l JOIN screens o ON o.id = l.component_id WHERE l.user_id = s.id
              ORDER BY o.key) AS components
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
                throw StoreError.conflict("project '\(projectName)' already has a screen \(ValueExcerpt.quoted(key))")
            }
            guard let id else { throw StoreError.invalid("the screen was not added") }
            try connection.query(
                "DELETE FROM screen_dismissals WHERE project_id = $1 AND key = $2", [project.id, key])
            try insertPaths(globs, screenID: id, projectID: project.id, on: connection)
            let moved = try ScreenAttributionStore.reattribute(projectID: project.id, changed: globs, on: connection)
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
        let updates = try update(project: projectName, screens: .key(key), change: change, actor: actor, on: connection)
        guard let update = updates.first else {
            throw try notFound(key, project: projectName, on: connection)
        }
        return (update.screen, update.reattributed)
    }

    /// Changes every row `selection` picks, in one transaction under the project's lock, with a `screen.updated`
    /// event per field that changed. Globs and titles belong to one screen: only a key may change them (`invalid`
    /// otherwise). Each row takes the aspects of the change its kind allows (ScreenSelection.treatments: a
    /// component no poses) and is reported with those it skipped; a row named by its key that cannot take all of it
    /// refuses the change. Picking none is `notFound`. `isDryRun` writes nothing and returns what would be.
    /// Returns each picked row, by key.
    public static func update(
        project projectName: String,
        screens selection: ScreenSelection,
        change: ScreenChange,
        actor: String,
        isDryRun: Bool = false,
        on connection: PostgresConnection
    ) throws -> [ScreenUpdate] {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let touchesPaths = change.paths != nil || !change.addPaths.isEmpty || !change.removePaths.isEmpty
            if !selection.isSingleKey, touchesPaths || change.title != nil || change.kind != nil {
                throw StoreError.invalid("paths, titles and kinds are changed one screen at a time: name its key")
            }
            let aspects: [ScreenAspect] = (change.owner == nil ? [] : [.owner]) + (change.poses == nil ? [] : [.poses])
            let (screens, treatments) = try pick(selection, for: aspects, project: project, on: connection)
            func keysTaking(_ aspect: ScreenAspect) -> [String] {
                treatments.filter { $0.applied.contains(aspect) }.map(\.key)
            }
            return try connection.undoing(if: isDryRun) {
                var newGlobs: (screen: Screen, globs: [String])?
                if touchesPaths, let before = screens.first {
                    var globs = change.paths.map(unique) ?? before.paths
                    globs += unique(change.addPaths).filter { !globs.contains($0) }
                    let missing = change.removePaths.filter { !globs.contains($0) }
                    guard missing.isEmpty else {
                        throw StoreError.notFound(
                            "screen '\(before.key)' does not own \(missing.map { ValueExcerpt.quoted($0) }.joined(separator: ", "))"
                        )
                    }
                    globs.removeAll { change.removePaths.contains($0) }
                    try refuseTakenGlobs(globs, project: project, except: before.id, on: connection)
                    if globs.sorted() != before.paths { newGlobs = (before, globs) }
                }
                let keys = screens.map(\.key)
                try connection.query(
                    """
                    UPDATE screens SET title = CASE WHEN $3::text IS NULL THEN title ELSE nullif($3, '') END,
                                       owner = CASE WHEN key = ANY($4::text[]) THEN nullif($5, '') ELSE owner END,
                                       required_poses = CASE WHEN key = ANY($6::text[]) THEN $7::text[]
                                                             ELSE required_poses END
                    WHERE project_id = $1 AND key = ANY($2::text[])
                    """,
                    [
                        project.id, keys, change.title, keysTaking(.owner), change.owner, keysTaking(.poses),
                        change.poses?.stored,
                    ]
                )
                var events: [NewEvent] = []
                if let kind = change.kind, let before = screens.first, kind != before.kind {
                    events += try changeKind(of: before, to: kind, project: project, actor: actor, on: connection)
                }
                var moved = 0
                if let (screen, globs) = newGlobs {
                    try connection.query("DELETE FROM screen_paths WHERE screen_id = $1", [screen.id])
                    try insertPaths(globs, screenID: screen.id, projectID: project.id, on: connection)
                    moved = try ScreenAttributionStore.reattribute(
                        projectID: project.id, changed: Set(screen.paths).symmetricDifference(globs), on: connection)
                }
                let after = try connection.query(
                    """
                    SELECT \(columns) FROM screens s WHERE s.project_id = $1 AND s.key = ANY($2::text[])
                    ORDER BY s.key
                    """,
                    [project.id, keys]
                ).map(Screen.init(row:))
                let updates = zip(zip(screens, after), treatments).map { pair, treatment in
                    let (before, after) = pair
                    let changes = updateEvents(before, after, project: project, actor: actor)
                    events += changes
                    return ScreenUpdate(
                        screen: after, isChanged: !changes.isEmpty, reattributed: moved, before: before,
                        skipped: treatment.skipped, reason: treatment.reason)
                }
                try EventLog.append(events, on: connection)
                return updates
            }
        }
    }

    /// A `screen.updated` event per field that differs between `before` and `after`.
    private static func updateEvents(_ before: Screen, _ after: Screen, project: Project, actor: String) -> [NewEvent] {
        var events: [NewEvent] = []
        func changed(_ subject: String, _ from: String?, _ to: String?) {
            guard from != to else { return }
            events.append(
                NewEvent(
                    projectID: project.id, project: project.name, kind: .screenUpdated,
                    subject: before.key + " " + subject, from: from, to: to, actor: actor, screen: before.key))
        }
        changed("kind", before.kind.rawValue, after.kind.rawValue)
        changed("title", before.title, after.title)
        changed("owner", before.owner, after.owner)
        changed("paths", before.paths.joined(separator: ","), after.paths.joined(separator: ","))
        func poses(_ screen: Screen) -> String {
            screen.requiredPoses.map { $0.isEmpty ? "none" : $0.joined(separator: ",") } ?? "project"
        }
        changed("poses", poses(before), poses(after))
        return events
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
        try remove(project: projectName, screens: .key(key), actor: actor, on: connection).first?.findings ?? 0
    }

    /// Removes every row `selection` picks as `remove(project:key:)` removes one, in one transaction under the
    /// project's lock: a `screen.removed` event and a dismissal each, findings re-attributed once. The app area is
    /// left and reported with why (refused when named by its key). Picking none is `notFound`. `isDryRun` removes
    /// nothing and reports what would go. Returns each picked row, by key, with what went with it.
    public static func remove(
        project projectName: String,
        screens selection: ScreenSelection,
        actor: String,
        isDryRun: Bool = false,
        on connection: PostgresConnection
    ) throws -> [ScreenRemoval] {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let (picked, treatments) = try pick(selection, for: [.removal], project: project, on: connection)
            let screens = zip(picked, treatments).filter { !$0.1.isSkipped }.map(\.0)
            let keys = screens.map(\.key)
            var lost: [String: (findings: Int, steps: Int, poses: Int)] = [:]
            for row in try connection.query(
                """
                SELECT s.key,
                       (SELECT count(*) FROM findings f WHERE f.screen_id = s.id) AS findings,
                       (SELECT count(*) FROM step_states t WHERE t.screen_id = s.id AND t.state = $3) AS steps,
                       (SELECT count(*) FROM pose_results r WHERE r.screen_id = s.id) AS poses
                FROM screens s WHERE s.project_id = $1 AND s.key = ANY($2::text[])
                """,
                [project.id, keys, StepState.done.rawValue]
            ) {
                lost[try row.decode("key")] = (
                    try row.decode("findings"), try row.decode("steps"), try row.decode("poses")
                )
            }
            try connection.undoing(if: isDryRun) {
                for key in keys { try dismiss(key, project: project, actor: actor, on: connection) }
                try connection.query(
                    "DELETE FROM screens WHERE project_id = $1 AND key = ANY($2::text[])", [project.id, keys])
                // A component between a screen and others it used is gone: the screen no longer reaches those.
                try refreshUses(projectID: project.id, on: connection)
                try ScreenAttributionStore.reattribute(
                    projectID: project.id, changed: screens.flatMap(\.paths), on: connection)
                try EventLog.append(
                    screens.map { screen in
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .screenRemoved, subject: screen.key,
                            from: screen.paths.joined(separator: ","), actor: actor, screen: screen.key)
                    },
                    on: connection
                )
            }
            return zip(picked, treatments).map { screen, treatment in
                let gone = lost[screen.key] ?? (0, 0, 0)
                return ScreenRemoval(
                    key: screen.key, kind: screen.kind, paths: screen.paths, findings: gone.findings,
                    stepsDone: gone.steps, poseResults: gone.poses, reason: treatment.reason)
            }
        }
    }

    /// The rows `selection` picks with how a change of `aspects` treats each (ScreenSelection.treatments), by key;
    /// `invalid` when a row named by its key cannot take it all (`hint` says what to do instead), `notFound` when it
    /// picks none.
    static func pick(
        _ selection: ScreenSelection,
        for aspects: [ScreenAspect],
        project: Project,
        on connection: PostgresConnection,
        hint: (Screen) -> String = { _ in "" }
    ) throws -> (rows: [Screen], treatments: [ScreenTreatment]) {
        let rows = try select(selection, project: project, on: connection)
        let treatments = selection.treatments(of: rows.map { ($0.key, $0.kind) }, aspects: aspects)
        if let refusal = selection.refusal(of: treatments) {
            throw StoreError.invalid(refusal + (rows.first.map(hint) ?? ""))
        }
        return (rows, treatments)
    }

    /// The rows `selection` picks, by key, of every kind (a key its row): which aspects of a change each takes is
    /// ScreenSelection.treatments' rule. `notFound` when it picks none.
    static func select(
        _ selection: ScreenSelection,
        project: Project,
        on connection: PostgresConnection
    ) throws -> [Screen] {
        if case .key(let key) = selection { return [try require(key, projectID: project.id, on: connection)] }
        let screens = try connection.query(
            "SELECT \(columns) FROM screens s WHERE s.project_id = $1 ORDER BY s.key", [project.id]
        ).map(Screen.init(row:)).filter { selection.includes(key: $0.key, owner: $0.owner) }
        guard !screens.isEmpty else {
            throw StoreError.notFound("project '\(project.name)' has no \(selection)")
        }
        return screens
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
            throw try notFound(key, project: projectName, on: connection)
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
            throw try notFound([key], projectID: projectID, projectName: project, on: connection)
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

// MARK: - Unknown keys

extension ScreenStore {
    /// The refusal of a screen key project `projectName` does not have, suggesting its closest keys.
    static func notFound(_ key: String, project projectName: String, on connection: PostgresConnection) throws
        -> StoreError
    {
        let projectID = try connection.queryValue(
            "SELECT id FROM projects WHERE name = $1", [projectName], as: Int64.self)
        return try notFound([key], projectID: projectID, projectName: projectName, on: connection)
    }

    /// The refusal of the screen keys `keys` (one or more) that project `projectName` does not have: `no screen
    /// 'K' in project 'P'`, each key cut to a short excerpt, suggesting the keys closest to the first when the
    /// project (`projectID`) exists. The one wording of an unknown screen key.
    static func notFound(
        _ keys: [String], projectID: Int64?, projectName: String, on connection: PostgresConnection
    ) throws -> StoreError {
        let quoted = keys.map { ValueExcerpt.quoted($0) }.joined(separator: ", ")
        let hint =
            try projectID.map { id in try suggestion(for: keys.first ?? "", projectID: id, on: connection) } ?? ""
        return StoreError.notFound("no screen \(quoted) in project '\(projectName)'" + hint)
    }

    /// ` (did you mean 'K'?)` naming the screen keys of the project closest to `key` (NameSuggestion), or empty.
    static func suggestion(for key: String, projectID: Int64, on connection: PostgresConnection) throws -> String {
        let keys = try connection.query("SELECT key FROM screens WHERE project_id = $1 ORDER BY key", [projectID]).map {
            try $0.decode(at: 0, as: String.self)
        }
        return NameSuggestion.hint(NameSuggestion.closest(to: key, among: keys))
    }
}
