import BarkeepCore

/// Keeps findings attributed to the screen whose glob matches their file most specifically.
public enum ScreenAttributionStore {
    /// Recomputes the screen of every finding of a project from its screens' current globs; call it in the
    /// transaction that changes a screen's globs. Only findings whose screen changes are written (COPY into
    /// a temporary table, one UPDATE). Returns how many changed.
    @discardableResult
    public static func reattribute(projectID: Int64, on connection: PostgresConnection) throws -> Int {
        try reattribute(projectID: projectID, within: nil, on: connection)
    }

    /// Recomputes the screen of the findings that `changed` globs (added, removed or moved to another screen) may
    /// match, from the project's current globs: only findings whose file starts with a changed glob's literal
    /// prefix and ends with its literal suffix are read, since no other finding's answer can change. Call it in
    /// the transaction that changes the globs. Returns how many findings changed screen.
    @discardableResult
    public static func reattribute(
        projectID: Int64, changed globs: some Collection<String>, on connection: PostgresConnection
    ) throws -> Int {
        guard !globs.isEmpty else { return 0 }
        return try reattribute(projectID: projectID, within: Set(globs).sorted().map(likePattern), on: connection)
    }

    /// A LIKE pattern every file `glob` matches also matches: its literal ends around a `%`. Only the ASCII
    /// characters at the ends count (a glob compares characters up to Unicode equivalence, LIKE compares
    /// code points), and `\`, `%` and `_` are escaped.
    public static func likePattern(_ pattern: String) -> String {
        let glob = PathGlob(pattern)
        let prefix = glob.literalPrefix.prefix(while: \.isASCII)
        let suffix = glob.literalSuffix.reversed().prefix(while: \.isASCII).reversed()
        func escaped(_ characters: some Sequence<Character>) -> String {
            var text = ""
            for character in characters {
                if character == "\\" || character == "%" || character == "_" { text.append("\\") }
                text.append(character)
            }
            return text
        }
        let isExact = !glob.hasWildcards && prefix.count == glob.literalPrefix.count
        return isExact ? escaped(prefix) : escaped(prefix) + "%" + escaped(suffix)
    }

    /// Re-attributes every finding, or with `patterns` the findings whose file is LIKE one of them.
    private static func reattribute(projectID: Int64, within patterns: [String]?, on connection: PostgresConnection)
        throws -> Int
    {
        // An ingest running meanwhile would attribute its new findings with the old globs.
        if connection.isInTransaction { try ScanStore.lockProject(projectID, on: connection) }
        let attribution = try ScreenAttribution(projectID: projectID, on: connection)
        var changes: [[String?]] = []
        let rows =
            if let patterns {
                try connection.query(
                    """
                    SELECT id, file, screen_id FROM findings
                    WHERE project_id = $1 AND file IS NOT NULL AND file LIKE ANY($2::text[])
                    """,
                    [projectID, patterns]
                )
            } else {
                try connection.query(
                    "SELECT id, file, screen_id FROM findings WHERE project_id = $1 AND file IS NOT NULL", [projectID])
            }
        for row in rows {
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

extension ScreenAttribution {
    /// The attribution of a project's current globs.
    init(projectID: Int64, on connection: PostgresConnection) throws {
        self.init(
            try connection.query("SELECT screen_id, glob FROM screen_paths WHERE project_id = $1", [projectID])
                .map { (try $0.decode("screen_id", as: Int64.self), try $0.decode("glob", as: String.self)) }
        )
    }
}
