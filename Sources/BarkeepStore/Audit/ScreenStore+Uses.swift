import BarkeepCore
import Foundation

/// A key discovery does not propose again.
public struct ScreenDismissal: Sendable, Equatable {
    /// The dismissed key.
    public var key: String
    /// Who dismissed it (or removed the screen).
    public var actor: String
    /// When.
    public var dismissedAt: Date
}

extension ScreenStore {
    // MARK: - Components a screen uses

    /// Records that screen `key` uses `component` (a component's key, or a glob: the component owning that glob,
    /// created when none does, named after the glob), or with `isRemoving` that it no longer does. Returns the
    /// screen.
    public static func setUses(
        project projectName: String,
        screen key: String,
        component: String,
        isRemoving: Bool,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Screen {
        try setUses(
            project: projectName, user: key, components: [component], isRemoving: isRemoving, actor: actor,
            on: connection)
    }

    /// Records that the screen or component `key` uses each of `components` (a component's key, or a glob: the
    /// component owning that glob, created when none does, named after the glob), or with `isRemoving` that it no
    /// longer does, in one transaction. A component's findings then count for every screen that uses it directly or
    /// through other components. A use that would go round (a component using itself, or one that uses it) is
    /// `invalid`, and so is naming a screen or the app area as what is used. A `screen.uses` event per change
    /// (subject the user, `to` the component added or `from` the one removed). Returns the user.
    public static func setUses(
        project projectName: String,
        user key: String,
        components: [String],
        isRemoving: Bool,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Screen {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let user = try require(key, projectID: project.id, on: connection)
            guard user.kind != .area else {
                throw StoreError.invalid("the app area uses no components: they are used by screens")
            }
            var events: [NewEvent] = []
            var done: Set<Int64> = []
            for text in components {
                let used: Screen
                if let found = try componentRow(text, projectID: project.id, on: connection) {
                    used = found
                } else if isRemoving || !isPathGlob(text) {
                    throw try notFoundComponent(text, project: project, on: connection)
                } else {
                    used = try addComponent(owning: text, project: project, on: connection)
                }
                guard used.kind == .component else {
                    throw StoreError.invalid(
                        "\(used.key) is a \(used.kind.rawValue), not a component: only components are used")
                }
                guard used.id != user.id else { throw StoreError.invalid("\(key) cannot use itself") }
                guard done.insert(used.id).inserted else { continue }
                let changed: Bool
                if isRemoving {
                    changed =
                        try connection.queryValue(
                            "DELETE FROM component_links WHERE user_id = $1 AND component_id = $2 RETURNING 1",
                            [user.id, used.id], as: Int.self) != nil
                } else {
                    if let path = try usePath(from: used.id, to: user.id, on: connection) {
                        throw StoreError.invalid(
                            "\(key) cannot use \(used.key): \(path.joined(separator: " uses ")), and a use cannot go "
                                + "round")
                    }
                    changed =
                        try connection.queryValue(
                            """
                            INSERT INTO component_links (project_id, user_id, component_id) VALUES ($1, $2, $3)
                            ON CONFLICT DO NOTHING RETURNING 1
                            """,
                            [project.id, user.id, used.id], as: Int.self) != nil
                }
                if changed {
                    events.append(
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .screenUses, subject: key,
                            from: isRemoving ? used.key : nil, to: isRemoving ? nil : used.key, actor: actor,
                            screen: key))
                }
            }
            try refreshUses(projectID: project.id, on: connection)
            try EventLog.append(events, on: connection)
            return try require(key, projectID: project.id, on: connection)
        }
    }

    /// The components `from` uses, one after the other, down to `to` (`[A, B, C]`: A uses B, B uses C), when it
    /// uses it directly or through other components; nil when it does not.
    private static func usePath(from: Int64, to: Int64, on connection: PostgresConnection) throws -> [String]? {
        try connection.queryValue(
            """
            WITH RECURSIVE reach (id, path) AS (
                SELECT $1::bigint, ARRAY[$1::bigint]
                UNION ALL
                SELECT l.component_id, r.path || l.component_id FROM reach r JOIN component_links l ON l.user_id = r.id
                WHERE NOT l.component_id = ANY (r.path) AND cardinality(r.path) < 64
            )
            SELECT ARRAY(SELECT s.key FROM unnest(r.path) WITH ORDINALITY AS p (id, n) JOIN screens s ON s.id = p.id
                         ORDER BY p.n)
            FROM reach r WHERE r.id = $2 LIMIT 1
            """,
            [from, to], as: [String].self)
    }

    /// Rewrites the project's `screen_uses` as the closure of its component links: each screen with every component
    /// it uses directly or through other components (Schema/0023). Only the rows that change are written.
    static func refreshUses(projectID: Int64, on connection: PostgresConnection) throws {
        let closure = """
            WITH RECURSIVE reach (screen_id, component_id) AS (
                SELECT l.user_id, l.component_id FROM component_links l JOIN screens s ON s.id = l.user_id
                WHERE l.project_id = $1 AND s.kind = \(ScreenKind.screen.sql)
                UNION
                SELECT r.screen_id, l.component_id FROM reach r JOIN component_links l ON l.user_id = r.component_id
                WHERE l.project_id = $1
            )
            """
        try connection.query(
            """
            \(closure)
            DELETE FROM screen_uses u WHERE u.project_id = $1
              AND NOT EXISTS (SELECT 1 FROM reach r WHERE r.screen_id = u.screen_id AND r.component_id = u.component_id)
            """, [projectID])
        try connection.query(
            """
            \(closure)
            INSERT INTO screen_uses (project_id, screen_id, component_id)
            SELECT DISTINCT $1::bigint, r.screen_id, r.component_id FROM reach r
            JOIN screens c ON c.id = r.component_id AND c.kind = \(ScreenKind.component.sql)
            WHERE r.screen_id <> r.component_id
            ON CONFLICT DO NOTHING
            """, [projectID])
    }

    /// Inside the caller's transaction: makes `screen` a screen or a component, keeping its globs, steps, pose
    /// results and history. A row that becomes a screen is no longer used by others (their uses of it are removed,
    /// a `screen.uses` event each); the uses are rewritten. The app area keeps its kind (`invalid`). Returns the
    /// events of the removed uses.
    static func changeKind(
        of screen: Screen, to kind: ScreenKind, project: Project, actor: String, on connection: PostgresConnection
    ) throws -> [NewEvent] {
        guard screen.kind != .area else { throw StoreError.invalid("the app area is built in: its kind cannot change") }
        guard kind != .area else { throw StoreError.invalid("only the built-in app area is an area") }
        try connection.query("UPDATE screens SET kind = $2 WHERE id = $1", [screen.id, kind.rawValue])
        var events: [NewEvent] = []
        if kind == .screen {
            for row in try connection.query(
                """
                DELETE FROM component_links l USING screens u
                WHERE l.component_id = $1 AND u.id = l.user_id RETURNING u.key
                """, [screen.id])
            {
                let user: String = try row.decode("key")
                events.append(
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .screenUses, subject: user,
                        from: screen.key, actor: actor, screen: user))
            }
        }
        try refreshUses(projectID: project.id, on: connection)
        return events.sorted { $0.subject < $1.subject }
    }

    /// The refusal of a component `text` the project does not have, suggesting its closest component keys.
    private static func notFoundComponent(_ text: String, project: Project, on connection: PostgresConnection) throws
        -> StoreError
    {
        let keys = try connection.query(
            "SELECT key FROM screens WHERE project_id = $1 AND kind = \(ScreenKind.component.sql) ORDER BY key",
            [project.id]
        ).map { try $0.decode(at: 0, as: String.self) }
        return StoreError.notFound(
            "no component \(ValueExcerpt.quoted(text)) in project '\(project.name)'"
                + NameSuggestion.hint(NameSuggestion.closest(to: text, among: keys)))
    }

    /// Whether `text` reads as a glob of files rather than a key: it names a directory, an extension or a wildcard.
    private static func isPathGlob(_ text: String) -> Bool {
        Names.isValidGlob(text) && text.contains { "/.*?".contains($0) }
    }

    /// The component named `text`, or the row owning the glob `text`.
    private static func componentRow(_ text: String, projectID: Int64, on connection: PostgresConnection) throws
        -> Screen?
    {
        try connection.query(
            """
            SELECT \(columns) FROM screens s
            WHERE s.project_id = $1
              AND (s.key = $2 OR s.id IN (SELECT screen_id FROM screen_paths WHERE project_id = $1 AND glob = $2))
            ORDER BY s.key = $2 DESC LIMIT 1
            """,
            [projectID, text]
        ).first.map(Screen.init(row:))
    }

    /// A component owning `glob`, keyed after the glob's last literal name (`Rows/*Cell.swift` → `Cell`), with a
    /// number when that key is taken; its files' findings move to it.
    private static func addComponent(owning glob: String, project: Project, on connection: PostgresConnection)
        throws -> Screen
    {
        let last = glob.split(separator: "/").last.map(String.init) ?? glob
        let stem = last.split(separator: ".").first.map(String.init) ?? last
        var base = String(stem.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "_" })
        if !Names.isValidScreenKey(base) { base = "Component" }
        var key = base
        var number = 1
        while try connection.queryValue(
            "SELECT 1 FROM screens WHERE project_id = $1 AND key = $2", [project.id, key], as: Int.self) != nil
        {
            number += 1
            key = "\(base)-\(number)"
        }
        try refuseTakenGlobs([glob], project: project, except: nil, on: connection)
        guard
            let id = try connection.queryValue(
                "INSERT INTO screens (project_id, key, kind) VALUES ($1, $2, \(ScreenKind.component.sql)) RETURNING id",
                [project.id, key], as: Int64.self)
        else { throw StoreError.invalid("the component was not added") }
        try insertPaths([glob], screenID: id, projectID: project.id, on: connection)
        try ScreenAttributionStore.reattribute(projectID: project.id, changed: [glob], on: connection)
        return try require(key, projectID: project.id, on: connection)
    }

    // MARK: - Dismissals

    /// Keeps discovery from proposing `key` again (a `screen.dismissed` event the first time); with `isUndoing`,
    /// forgets that (a `screen.undismissed` event).
    public static func dismiss(
        project projectName: String,
        key: String,
        isUndoing: Bool,
        actor: String,
        on connection: PostgresConnection
    ) throws {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            if isUndoing {
                guard
                    try connection.queryValue(
                        "DELETE FROM screen_dismissals WHERE project_id = $1 AND key = $2 RETURNING 1",
                        [project.id, key], as: Int.self) != nil
                else {
                    throw StoreError.notFound(
                        "\(ValueExcerpt.quoted(key)) is not dismissed in project '\(project.name)'")
                }
                try EventLog.append(
                    [
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .screenUndismissed, subject: key,
                            actor: actor)
                    ],
                    on: connection)
            } else {
                try dismiss(key, project: project, actor: actor, on: connection)
            }
        }
    }

    /// The project's dismissed keys, by key.
    public static func dismissals(project projectName: String, on connection: PostgresConnection) throws
        -> [ScreenDismissal]
    {
        let project = try ProjectStore.require(projectName, on: connection)
        return try connection.query(
            "SELECT key, actor, dismissed_at FROM screen_dismissals WHERE project_id = $1 ORDER BY key",
            [project.id]
        ).map { row in
            ScreenDismissal(
                key: try row.decode("key"), actor: try row.decode("actor"), dismissedAt: try row.decode("dismissed_at"))
        }
    }

    /// Inside the caller's transaction: records the dismissal of `key`, with its event when it is new.
    static func dismiss(_ key: String, project: Project, actor: String, on connection: PostgresConnection) throws {
        guard
            try connection.queryValue(
                """
                INSERT INTO screen_dismissals (project_id, key, actor) VALUES ($1, $2, $3)
                ON CONFLICT DO NOTHING RETURNING 1
                """,
                [project.id, key, actor], as: Int.self) != nil
        else { return }
        try EventLog.append(
            [
                NewEvent(
                    projectID: project.id, project: project.name, kind: .screenDismissed, subject: key, actor: actor)
            ],
            on: connection)
    }
}
