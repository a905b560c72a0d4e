import BarkeepCore

/// One way a stored summary differs from the summary recomputed from the base tables.
public struct SummaryDifference: Sendable, Equatable, CustomStringConvertible {
    /// The project.
    public var project: String
    /// The screen's key, or `AuditArea.unmapped` for the findings no screen owns; nil for the project itself.
    public var screen: String?
    /// What differs: `findings proposed high rule-step=1 item-step=0 symbols=`, `progress` or `status version`.
    public var key: String
    /// The stored value (`none` when there is no row).
    public var stored: String
    /// The recomputed value (`none` when there should be no row).
    public var recomputed: String

    /// `project app screen Inbox: findings proposed high rule-step=1 item-step=0 symbols=: stored 3, recomputed 4`,
    /// or `project app: status version: stored none, recomputed any`.
    public var description: String {
        "project \(project)\(screen.map { " screen " + $0 } ?? ""): \(key): stored \(stored), recomputed \(recomputed)"
    }
}

/// Checks and repairs the dashboard's summaries (Schema/0014: `finding_summaries`, `screen_progress`) against a
/// recomputation from findings, step states and pose results, the same one that filled them; and that the project
/// has a status version (Schema/0017: without one, no STATUS reply is kept).
public enum SummaryStore {
    static let findingDifferencesQuery = """
        SELECT screen_id, status, severity, rule_step, item_step, needs_symbols, s.findings AS stored,
               r.findings AS recomputed
        FROM (SELECT * FROM finding_summaries WHERE project_id = $1) s
        FULL JOIN barkeep_finding_summary_rows($1) r
            USING (screen_id, status, severity, rule_step, item_step, needs_symbols)
        WHERE s.findings IS DISTINCT FROM r.findings
        ORDER BY screen_id, status, severity, rule_step, item_step, needs_symbols
        """
    static let progressDifferencesQuery = """
        SELECT screen_id, array_to_string(s.step_states || s.latest_poses, ' ') AS stored,
               array_to_string(r.step_states || r.latest_poses, ' ') AS recomputed
        FROM (SELECT * FROM screen_progress WHERE project_id = $1) s
        FULL JOIN barkeep_screen_progress_rows(ARRAY(SELECT id FROM screens WHERE project_id = $1)) r
            USING (screen_id)
        WHERE (s.step_states, s.latest_poses) IS DISTINCT FROM (r.step_states, r.latest_poses)
        ORDER BY screen_id
        """

    /// How the stored summaries of `project` differ from a recomputation; empty when they agree. One snapshot.
    public static func differences(project: Project, on connection: PostgresConnection) throws -> [SummaryDifference] {
        try connection.transaction { connection in
            try connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            var keys: [Int64: String] = [0: AuditArea.unmapped]
            for row in try connection.query("SELECT id, key FROM screens WHERE project_id = $1", [project.id]) {
                keys[try row.decode(at: 0)] = try row.decode(at: 1, as: String.self)
            }
            func screen(_ id: Int64) -> String { keys[id] ?? "#\(id) (removed)" }
            var differences: [SummaryDifference] = []
            for row in try connection.query(findingDifferencesQuery, [project.id]) {
                let symbols = try row.decode("needs_symbols", as: [String].self).joined(separator: ",")
                let key = try [
                    "findings", row.decode("status", as: String.self), row.decode("severity", as: String.self),
                    "rule-step=\(row.decode("rule_step", as: Int.self))",
                    "item-step=\(row.decode("item_step", as: Int.self))", "symbols=\(symbols)",
                ].joined(separator: " ")
                differences.append(
                    SummaryDifference(
                        project: project.name, screen: screen(try row.decode("screen_id")), key: key,
                        stored: try row.decodeIfPresent("stored", as: Int.self).map(String.init) ?? "none",
                        recomputed: try row.decodeIfPresent("recomputed", as: Int.self).map(String.init) ?? "none"))
            }
            for row in try connection.query(progressDifferencesQuery, [project.id]) {
                differences.append(
                    SummaryDifference(
                        project: project.name, screen: screen(try row.decode("screen_id")), key: "progress",
                        stored: try row.decodeIfPresent("stored", as: String.self).map { "[\($0)]" } ?? "none",
                        recomputed: try row.decodeIfPresent("recomputed", as: String.self).map { "[\($0)]" }
                            ?? "none"))
            }
            if try connection.queryValue(
                "SELECT count(*) FROM status_versions WHERE project_id = $1", [project.id], as: Int.self) == 0
            {
                differences.append(
                    SummaryDifference(
                        project: project.name, screen: nil, key: "status version", stored: "none", recomputed: "any"))
            }
            return differences
        }
    }

    /// Replaces the stored summaries of `project` with a recomputation. Holds writers of findings, step states and
    /// pose results of every project back meanwhile (their triggers wait for the lock), so nothing is lost.
    public static func repair(project: Project, on connection: PostgresConnection) throws {
        try connection.transaction { connection in
            try connection.query("LOCK TABLE finding_summaries, screen_progress IN SHARE ROW EXCLUSIVE MODE")
            try connection.query("DELETE FROM finding_summaries WHERE project_id = $1", [project.id])
            try connection.query(
                "INSERT INTO finding_summaries SELECT $1, r.* FROM barkeep_finding_summary_rows($1) r", [project.id])
            try connection.query("DELETE FROM screen_progress WHERE project_id = $1", [project.id])
            try connection.query(
                """
                INSERT INTO screen_progress
                SELECT * FROM barkeep_screen_progress_rows(ARRAY(SELECT id FROM screens WHERE project_id = $1))
                """,
                [project.id])
            // A new version in any case: replies kept from the summaries replaced are not used again.
            try connection.query(
                "INSERT INTO status_versions (project_id) VALUES ($1) "
                    + "ON CONFLICT (project_id) DO UPDATE SET version = gen_random_uuid()", [project.id])
        }
    }
}
