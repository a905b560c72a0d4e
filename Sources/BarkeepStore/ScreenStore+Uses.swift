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
    /// created when none does, named after the glob), or with `isRemoving` that it no longer does. The component's
    /// findings count for the screen from then on. A `screen.uses` event (subject the screen, `to` the component
    /// added or `from` the one removed). Returns the screen.
    public static func setUses(
        project projectName: String,
        screen key: String,
        component: String,
        isRemoving: Bool,
        actor: String,
        on connection: PostgresConnection
    ) throws -> Screen {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let screen = try require(key, projectID: project.id, on: connection)
            guard screen.kind == .screen else {
                throw StoreError.invalid("\(key) is a \(screen.kind.rawValue): only a screen uses components")
            }
            let used: Screen
            if let found = try componentRow(component, projectID: project.id, on: connection) {
                used = found
            } else if isRemoving || !isPathGlob(component) {
                throw StoreError.notFound("no component '\(component)' in project '\(project.name)'")
            } else {
                used = try addComponent(owning: component, project: project, on: connection)
            }
            guard used.kind == .component else {
                throw StoreError.invalid(
                    "\(used.key) is a \(used.kind.rawValue), not a component: a screen uses components only")
            }
            let changed: Bool
            if isRemoving {
                changed =
                    try connection.queryValue(
                        "DELETE FROM screen_uses WHERE screen_id = $1 AND component_id = $2 RETURNING 1",
                        [screen.id, used.id], as: Int.self) != nil
            } else {
                changed =
                    try connection.queryValue(
                        """
                        INSERT INTO screen_uses (project_id, screen_id, component_id) VALUES ($1, $2, $3)
                        ON CONFLICT DO NOTHING RETURNING 1
                        """,
                        [project.id, screen.id, used.id], as: Int.self) != nil
            }
            if changed {
                try EventLog.append(
                    [
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .screenUses, subject: key,
                            from: isRemoving ? used.key : nil, to: isRemoving ? nil : used.key, actor: actor,
                            screen: key)
                    ],
                    on: connection)
            }
            return try require(key, projectID: project.id, on: connection)
        }
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
                else { throw StoreError.notFound("'\(key)' is not dismissed in project '\(project.name)'") }
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
