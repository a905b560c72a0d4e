import BarkeepStore
import BarkeepTestSupport
import Testing

/// The schema's constraints refuse data that would not make sense, whatever the code above it does.
@Suite("Schema constraints")
struct SchemaTests {
    private let connection: PostgresConnection
    private let project: Int
    private let screen: Int
    private let run: Int

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        project = try #require(
            try connection.queryValue("INSERT INTO projects (name) VALUES ('app') RETURNING id", as: Int.self)
        )
        screen = try #require(
            try connection.queryValue(
                "INSERT INTO screens (project_id, key) VALUES ($1, 'Inbox') RETURNING id",
                [project],
                as: Int.self
            )
        )
        run = try #require(
            try connection.queryValue(
                """
                INSERT INTO scan_runs (project_id, format, tool, digest, actor)
                VALUES ($1, 'duo-scan', 'duo_scan', repeat('a', 64), 'ci') RETURNING id
                """,
                [project],
                as: Int.self
            )
        )
    }

    private func insertFinding(
        file: String = "Sources/Inbox.swift",
        snippet: String = "UIScreen.main",
        occurrence: Int = 0,
        status: String = "proposed",
        reason: String? = nil
    ) throws {
        try connection.query(
            """
            INSERT INTO findings (project_id, source, tool, rule, file, normalized_snippet, occurrence, line, severity,
                                  status, reason, first_seen_run, last_seen_run)
            VALUES ($1, 'scanner', 'duo_scan', 'DUO001', $2, $3, $4, 10, 'high', $5, $6, $7, $7)
            """,
            [project, file, snippet, occurrence, status, reason, run]
        )
    }

    private func expectViolation(_ sqlState: String, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            (error as? StoreError)?.sqlState == sqlState
        }
    }

    @Test("a finding's identity is unique per project; another occurrence is another finding")
    func findingIdentityIsUnique() throws {
        try insertFinding()
        try insertFinding(occurrence: 1)
        expectViolation(PostgresError.Code.uniqueViolation) { try insertFinding() }
    }

    @Test("statuses outside the list are refused")
    func statusIsChecked() {
        expectViolation(PostgresError.Code.checkViolation) { try insertFinding(status: "done") }
    }

    @Test("declined, kept and blocked need a reason", arguments: ["declined", "kept"])
    func verdictsNeedReason(status: String) throws {
        expectViolation(PostgresError.Code.checkViolation) { try insertFinding(status: status) }
        try insertFinding(status: status, reason: "the design team asked for it")
    }

    @Test("a failed pose needs its screenshot and finding; not run needs a reason")
    func poseResultsCarryEvidence() throws {
        let insert = """
            INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, reason, actor)
            VALUES ($1, $2, $3, $4, $5, $6, 'dana')
            """
        expectViolation(PostgresError.Code.checkViolation) {
            try connection.query(insert, [project, screen, "P3", "failed", "shots/p3.png", nil])
        }
        expectViolation(PostgresError.Code.checkViolation) {
            try connection.query(insert, [project, screen, "P3", "not_run", nil, nil])
        }
        expectViolation(PostgresError.Code.checkViolation) {
            try connection.query(insert, [project, screen, "P17", "passed", nil, nil])
        }
        try connection.query(insert, [project, screen, "P7", "not_run", nil, "device only"])
    }

    @Test("a screen of one project cannot own findings of another")
    func noCrossProjectLinks() throws {
        let other = try #require(
            try connection.queryValue("INSERT INTO projects (name) VALUES ('other') RETURNING id", as: Int.self)
        )
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(
                "INSERT INTO screen_paths (project_id, screen_id, glob) VALUES ($1, $2, 'Sources/**')",
                [other, screen]
            )
        }
    }

    @Test("project and screen names are checked; unmapped is reserved")
    func namesAreChecked() {
        expectViolation(PostgresError.Code.checkViolation) {
            try connection.query("INSERT INTO projects (name) VALUES ('has space')")
        }
        expectViolation(PostgresError.Code.checkViolation) {
            try connection.query("INSERT INTO screens (project_id, key) VALUES ($1, 'unmapped')", [project])
        }
    }

    @Test("deleting a project removes its data but keeps its events")
    func projectDeletionKeepsHistory() throws {
        try insertFinding()
        try connection.query(
            "INSERT INTO events (project_id, project, kind, subject, actor) VALUES ($1, 'app', 'project.created', "
                + "'app', 'admin')",
            [project]
        )
        try connection.query("DELETE FROM projects WHERE id = $1", [project])

        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 0)
        #expect(try connection.queryValue("SELECT count(*) FROM screens", as: Int.self) == 0)
        #expect(try connection.queryValue("SELECT count(*) FROM events WHERE project = 'app'", as: Int.self) == 1)
    }

    @Test("versions compare numerically")
    func versionsCompareNumerically() throws {
        let newer = try connection.queryValue(
            "SELECT barkeep_version($1) > barkeep_version($2)",
            ["27.10", "27.9"],
            as: Bool.self
        )
        #expect(newer == true)
    }
}
