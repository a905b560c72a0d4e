import BarkeepStore

/// The team-scale project every dashboard benchmark measures (barkeep-status-bench, barkeep-web-bench): screens, each
/// with its path and owner; scanner findings over the screens' files in five rules and severities, a few hundred
/// unmapped, their statuses spread over the lifecycle (most proposed; some approved, applied, verified, fixed and
/// declined with a reason); items by hand, one in three blocked on the SDK; every screen's twelve step states; and
/// pose results, later ones superseding earlier. Written set-based, directly in PostgreSQL.
public enum BenchProject {
    /// How big the project is.
    public struct Size: Sendable {
        /// Screens (each `ScreenNNNN`, its files under `Sources/ScreenNNNN/`).
        public var screens: Int
        /// Scanner findings; items by hand add a fifth as many.
        public var findings: Int
        /// Pose results.
        public var poses: Int

        /// A project of `screens` screens, `findings` findings and `poses` pose results.
        public init(screens: Int = 1_000, findings: Int = 100_000, poses: Int = 16_000) {
            self.screens = screens
            self.findings = findings
            self.poses = poses
        }
    }

    /// Fills a new project `name` of `size` with the generated audit.
    public static func generate(_ size: Size, project name: String, on connection: PostgresConnection) throws {
        let project = try ProjectStore.create(
            name: name, sdk: "27.0", deploymentTarget: "26.0", actor: "bench", on: connection)
        let id = project.id
        try connection.transaction { connection in
            try connection.query(
                """
                INSERT INTO screens (project_id, key, owner)
                SELECT $1, 'Screen' || lpad(i::text, 4, '0'), 'owner' || (i % 20) FROM generate_series(1, $2::int) AS i
                """,
                [id, size.screens]
            )
            try connection.query(
                """
                INSERT INTO screen_paths (project_id, screen_id, glob)
                SELECT project_id, id, 'Sources/' || key || '/**' FROM screens WHERE project_id = $1
                """,
                [id]
            )
            guard
                let run = try connection.queryValue(
                    """
                    INSERT INTO scan_runs (project_id, format, tool, tool_version, digest, files_scanned, new_count,
                                           actor, lifecycle)
                    VALUES ($1, 'duo-scan', 'duo_scan', '1.2.2', repeat('0', 64), $2, $2, 'bench', 'scene') RETURNING id
                    """,
                    [id, size.findings],
                    as: Int64.self
                )
            else { return }
            // 1 in 200 findings is outside every screen; statuses: mostly proposed, some approved, applied, verified,
            // fixed and declined.
            try connection.query(
                """
                INSERT INTO findings (project_id, source, tool, rule, file, normalized_snippet, occurrence, identity,
                                      line, snippet, severity, screen_id, status, reason, first_seen_run,
                                      last_seen_run, number)
                SELECT $1, 'scanner', 'duo_scan', (ARRAY['DUO001', 'DUO002', 'DUO004', 'DUO007', 'DUO011'])[i % 5 + 1],
                       CASE WHEN i % 200 = 0 THEN 'Vendor/Lib' || (i % 50) || '.swift'
                            ELSE 'Sources/' || s.key || '/File' || (i % 7) || '.swift' END,
                       'x' || i, 0, encode(sha256(i::text::bytea), 'hex'), i % 500 + 1, 'let x = ' || i,
                       (ARRAY['critical', 'high', 'medium', 'low', 'info'])[i % 5 + 1],
                       CASE WHEN i % 200 = 0 THEN NULL ELSE s.id END,
                       (ARRAY['proposed', 'proposed', 'proposed', 'proposed', 'approved', 'applied', 'verified',
                              'fixed', 'declined', 'proposed'])[i % 10 + 1],
                       CASE WHEN i % 10 = 8 THEN 'kept on purpose' END, $2, $2, i
                FROM generate_series(1, $3::int) AS i
                JOIN screens s ON s.project_id = $1 AND s.key = 'Screen' || lpad((i % $4::int + 1)::text, 4, '0')
                """,
                [id, run, size.findings, size.screens]
            )
            // Items by hand: two per ten screens, one in three needing a 27.1 symbol and so blocked.
            try connection.query(
                """
                INSERT INTO findings (project_id, source, title, step, severity, screen_id, status, reason,
                                      status_before_block, needs_symbols, number)
                SELECT $1, 'manual', 'Item ' || i, i % 12 + 1, 'medium', s.id,
                       CASE WHEN i % 3 = 0 THEN 'blocked' ELSE 'proposed' END,
                       CASE WHEN i % 3 = 0 THEN 'needs the iOS 27.1 SDK (axisBehavior)' END,
                       CASE WHEN i % 3 = 0 THEN 'proposed' END,
                       CASE WHEN i % 3 = 0 THEN ARRAY['axisBehavior'] ELSE '{}' END, $2::int + i
                FROM generate_series(1, $2::int / 5) AS i
                JOIN screens s ON s.project_id = $1 AND s.key = 'Screen' || lpad((i * 5 % $3::int + 1)::text, 4, '0')
                """,
                [id, size.findings, size.screens]
            )
            try connection.query(
                """
                UPDATE projects SET findings_numbered = (SELECT max(number) FROM findings WHERE project_id = $1)
                WHERE id = $1
                """,
                [id]
            )
            try connection.query(
                """
                INSERT INTO step_states (project_id, screen_id, step, state, actor)
                SELECT $1, s.id, step, (ARRAY['todo', 'done', 'done', 'not_applicable'])[(s.id + step) % 4 + 1], 'bench'
                FROM screens s CROSS JOIN generate_series(1, 12) AS step WHERE s.project_id = $1
                """,
                [id]
            )
            // Each screen's share of the pose results: its required poses in turn, later results superseding earlier.
            try connection.query(
                """
                INSERT INTO pose_results (project_id, screen_id, pose, result, reason, actor)
                SELECT $1, s.id, (ARRAY['P1', 'P2', 'P3', 'P4', 'P11', 'P12'])[k % 6 + 1],
                       CASE WHEN (s.id + k) % 9 = 0 THEN 'not_run' ELSE 'passed' END,
                       CASE WHEN (s.id + k) % 9 = 0 THEN 'no device' END, 'bench'
                FROM screens s CROSS JOIN generate_series(0, $2::int / $3::int - 1) AS k WHERE s.project_id = $1
                """,
                [id, size.poses, size.screens]
            )
        }
        // As autovacuum would after a load: statistics, and a visibility map for index-only scans.
        for table in ["findings", "screens", "screen_paths", "step_states", "pose_results", "scan_runs"] {
            try connection.query("VACUUM ANALYZE \(table)")
        }
    }
}
