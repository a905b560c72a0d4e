import BarkeepCore
import Foundation

/// A path (a directory, or a file) excluded from the audit: the findings there that no glob takes are unmapped
/// because of it (`UnmappedReason.excluded`).
public struct ScreenExclusion: Sendable, Equatable {
    /// The path, relative to the scanner's root, without a trailing `/`.
    public var path: String
    /// Why: discovery's rule (`tests`, `previews`, `other-target`, `exclude`) or the team's words; nil: not said.
    public var why: String?
    /// Who excluded it.
    public var actor: String
    /// When.
    public var excludedAt: Date
}

extension ScreenStore {
    /// The longest `why` of an exclusion, in bytes (the schema checks the same).
    public static let maximumExclusionWhy = 200

    /// Excludes `paths` from the audit with `why` (a path already excluded takes the new `why`), or with
    /// `isUndoing` includes them again (`notFound` for one that is not excluded), in one transaction: a
    /// `screen.excluded` event per change. Paths are relative to the scanner's root, a trailing `/` dropped; an
    /// empty or absolute one, or one a glob could not be (a comma, a control character, over 1,024 bytes), is
    /// `invalid`. Returns the exclusions changed, by path.
    @discardableResult
    public static func exclude(
        project projectName: String,
        paths: [String],
        why: String?,
        isUndoing: Bool,
        actor: String,
        on connection: PostgresConnection
    ) throws -> [ScreenExclusion] {
        let normalized = try paths.map(exclusionPath)
        if let why, why.utf8.count > maximumExclusionWhy || why.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw StoreError.invalid("why must be one line of at most \(maximumExclusionWhy) bytes")
        }
        return try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            var changed: [ScreenExclusion] = []
            var events: [NewEvent] = []
            for path in Set(normalized).sorted() {
                if isUndoing {
                    guard
                        let row = try connection.query(
                            """
                            DELETE FROM screen_exclusions WHERE project_id = $1 AND path = $2
                            RETURNING path, why, actor, excluded_at
                            """, [project.id, path]
                        ).first
                    else {
                        throw StoreError.notFound(
                            "\(ValueExcerpt.quoted(path)) is not excluded in project '\(project.name)'")
                    }
                    let exclusion = try ScreenExclusion(row: row)
                    changed.append(exclusion)
                    events.append(
                        NewEvent(
                            projectID: project.id, project: project.name, kind: .screenExcluded, subject: path,
                            from: exclusion.why ?? "excluded", actor: actor))
                    continue
                }
                let before = try connection.query(
                    "SELECT why FROM screen_exclusions WHERE project_id = $1 AND path = $2", [project.id, path]
                ).first.map { try $0.decodeIfPresent("why", as: String.self) }
                if let before, before == why { continue }
                guard
                    let row = try connection.query(
                        """
                        INSERT INTO screen_exclusions (project_id, path, why, actor) VALUES ($1, $2, $3, $4)
                        ON CONFLICT (project_id, path) DO UPDATE SET why = excluded.why, actor = excluded.actor,
                                                                     excluded_at = now()
                        RETURNING path, why, actor, excluded_at
                        """, [project.id, path, why, actor]
                    ).first
                else { continue }
                changed.append(try ScreenExclusion(row: row))
                events.append(
                    NewEvent(
                        projectID: project.id, project: project.name, kind: .screenExcluded, subject: path,
                        from: before.map { $0 ?? "excluded" }, to: why ?? "excluded", actor: actor))
            }
            try EventLog.append(events, on: connection)
            return changed
        }
    }

    /// The project's excluded paths, by path.
    public static func exclusions(project projectName: String, on connection: PostgresConnection) throws
        -> [ScreenExclusion]
    {
        let project = try ProjectStore.require(projectName, on: connection)
        return try connection.query(
            "SELECT path, why, actor, excluded_at FROM screen_exclusions WHERE project_id = $1 ORDER BY path",
            [project.id]
        ).map(ScreenExclusion.init(row:))
    }

    /// `path` as exclusions keep it: without a trailing `/`; `invalid` when it cannot name a path of the scan.
    private static func exclusionPath(_ path: String) throws -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard Names.isValidGlob(trimmed), !trimmed.hasPrefix("/"), trimmed != "/" else {
            throw StoreError.invalid(
                "an excluded path is relative to the scanner's root, 1 to 1024 bytes without commas or control "
                    + "characters: \(ValueExcerpt.quoted(path))")
        }
        return trimmed
    }
}

extension ScreenExclusion {
    init(row: PostgresRow) throws {
        path = try row.decode("path")
        why = try row.decodeIfPresent("why")
        actor = try row.decode("actor")
        excludedAt = try row.decode("excluded_at")
    }
}
