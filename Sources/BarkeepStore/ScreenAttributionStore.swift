import BarkeepCore

/// Keeps findings attributed to the screen whose glob matches their file most specifically.
public enum ScreenAttributionStore {
    /// Recomputes the screen of every finding of a project from its screens' current globs; call it in the
    /// transaction that changes a screen's globs. Only findings whose screen changes are written (COPY into
    /// a temporary table, one UPDATE). Returns how many changed.
    @discardableResult
    public static func reattribute(projectID: Int64, on connection: PostgresConnection) throws -> Int {
        // An ingest running meanwhile would attribute its new findings with the old globs.
        if connection.isInTransaction { try ScanStore.lockProject(projectID, on: connection) }
        let attribution = ScreenAttribution(
            try connection.query("SELECT screen_id, glob FROM screen_paths WHERE project_id = $1", [projectID])
                .map { (try $0.decode("screen_id", as: Int64.self), try $0.decode("glob", as: String.self)) }
        )
        var changes: [[String?]] = []
        for row in try connection.query(
            "SELECT id, file, screen_id FROM findings WHERE project_id = $1 AND file IS NOT NULL",
            [projectID]
        ) {
            let file: String = try row.decode("file")
            let current: Int64? = try row.decodeIfPresent("screen_id")
            let wanted = attribution.screen(for: file)
            if current != wanted { changes.append([try row.decode("id", as: String.self), wanted.map(String.init)]) }
        }
        guard !changes.isEmpty else { return 0 }
        try connection.query(
            "CREATE TEMPORARY TABLE screen_changes (finding_id bigint, screen_id bigint)"
        )
        try connection.copyIn("COPY screen_changes (finding_id, screen_id) FROM STDIN", rows: changes)
        try connection.query(
            """
            UPDATE findings f SET screen_id = c.screen_id, updated_at = now()
            FROM screen_changes c WHERE c.finding_id = f.id
            """
        )
        try connection.query("DROP TABLE screen_changes")
        return changes.count
    }
}
