import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

@Suite("Migrator")
struct MigratorTests {
    private let tables = [
        "projects", "screens", "screen_paths", "findings", "scan_runs", "pose_results", "step_states", "events",
        "tokens",
    ]

    @Test("migrates an empty database to the latest version, creating every entity")
    func migratesEmptyDatabase() throws {
        let connection = try TestDatabase.makeConnection()
        let migrator = Migrator()
        #expect(try migrator.currentVersion(connection) == 0)

        let applied = try migrator.migrate(connection)

        #expect(applied.map(\.version) == Migration.embedded.map(\.version))
        #expect(try migrator.currentVersion(connection) == migrator.latestVersion)
        for table in tables {
            let exists = try connection.queryValue("SELECT to_regclass($1) IS NOT NULL", [table], as: Bool.self)
            #expect(exists == true, "table \(table) missing")
        }
    }

    @Test("applying twice is a no-op")
    func secondRunIsNoop() throws {
        let connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        let before = try connection.query("SELECT version, applied_at FROM schema_migrations ORDER BY version")

        let applied = try Migrator().migrate(connection)

        let after = try connection.query("SELECT version, applied_at FROM schema_migrations ORDER BY version")
        #expect(applied.isEmpty)
        #expect(before.map(\.values) == after.map(\.values))
    }

    @Test("refuses a database whose schema is newer than the binary")
    func refusesNewerSchema() throws {
        let connection = try TestDatabase.makeConnection()
        let migrator = Migrator()
        try migrator.migrate(connection)
        let newer = migrator.latestVersion + 1
        try connection.query(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, 'from_the_future', 'x')",
            [newer]
        )

        #expect(throws: StoreError.schemaTooNew(database: newer, binary: migrator.latestVersion)) {
            try migrator.migrate(connection)
        }
    }

    @Test("refuses a migration whose text changed after it was applied")
    func refusesChangedMigration() throws {
        let connection = try TestDatabase.makeConnection()
        let original = Migration(version: 1, name: "first", sql: "CREATE TABLE a (id int)")
        try Migrator(migrations: [original]).migrate(connection)
        let edited = Migration(version: 1, name: "first", sql: "CREATE TABLE a (id bigint)")

        #expect(throws: StoreError.migrationChanged(version: 1, name: "first")) {
            try Migrator(migrations: [edited]).migrate(connection)
        }
    }

    @Test("a failing migration leaves nothing of itself and keeps the ones before it")
    func failedMigrationRollsBack() throws {
        let connection = try TestDatabase.makeConnection()
        let migrations = [
            Migration(version: 1, name: "good", sql: "CREATE TABLE good (id int)"),
            Migration(version: 2, name: "bad", sql: "CREATE TABLE half (id int); SELECT * FROM no_such_table"),
        ]

        #expect {
            try Migrator(migrations: migrations).migrate(connection)
        } throws: { error in
            guard case StoreError.migrationFailed(2, "bad", let reason) = error else { return false }
            return reason.contains("42P01")
        }
        #expect(try Migrator(migrations: migrations).currentVersion(connection) == 1)
        #expect(try connection.queryValue("SELECT to_regclass('half') IS NULL", as: Bool.self) == true)
        #expect(try connection.queryValue("SELECT to_regclass('good') IS NOT NULL", as: Bool.self) == true)
    }

    @Test("two migrators starting together apply each migration once")
    func concurrentMigratorsApplyOnce() async throws {
        let configuration = try TestDatabase.makeDatabase()
        // A slow first migration widens the window in which both would run it without the advisory lock.
        let migrations = [
            Migration(version: 1, name: "slow", sql: "SELECT pg_sleep(0.3); CREATE TABLE once (id int)"),
            Migration(version: 2, name: "second", sql: "INSERT INTO once VALUES (1)"),
        ]
        let results = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await Task.detached {
                        let connection = try PostgresConnection(configuration: configuration)
                        defer { connection.close() }
                        return try Migrator(migrations: migrations).migrate(connection).map(\.version)
                    }.value
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.flatMap { $0 }.sorted() == [1, 2])
        let connection = try PostgresConnection(configuration: configuration)
        #expect(try connection.queryValue("SELECT count(*) FROM once", as: Int.self) == 1)
        #expect(try connection.queryValue("SELECT count(*) FROM schema_migrations", as: Int.self) == 2)
    }

    @Test("migration 0007 numbers each project's existing runs from 1, in order, and renames them in the history")
    func runsNumberedPerProject() throws {
        let connection = try TestDatabase.makeConnection()
        try Migrator(migrations: Migration.embedded.filter { $0.version < 7 }).migrate(connection)
        // Two projects whose runs interleave, as on a daemon serving both before numbers were per project.
        try connection.query("INSERT INTO projects (name) VALUES ('a'), ('b')")
        for project in ["a", "b", "a", "a", "b"] {
            try connection.query(
                """
                WITH run AS (
                    INSERT INTO scan_runs (project_id, format, tool, digest, actor)
                    SELECT id, 'duo-scan', 'duo_scan', repeat('0', 64), 'ci' FROM projects WHERE name = $1
                    RETURNING id, project_id
                )
                INSERT INTO events (project_id, project, kind, subject, actor)
                SELECT project_id, $1, 'scan.ingested', 'run ' || id, 'ci' FROM run
                """,
                [project])
        }
        try Migrator().migrate(connection)
        let runs = try connection.query(
            "SELECT p.name, r.number FROM scan_runs r JOIN projects p ON p.id = r.project_id ORDER BY r.id"
        ).map { "\(try $0.decode("name", as: String.self)) \(try $0.decode("number", as: Int.self))" }
        #expect(runs == ["a 1", "b 1", "a 2", "a 3", "b 2"])
        let history = try connection.query("SELECT project, subject FROM events ORDER BY seq").map {
            "\(try $0.decode("project", as: String.self)) \(try $0.decode("subject", as: String.self))"
        }
        #expect(history == ["a run 1", "b run 1", "a run 2", "a run 3", "b run 2"])
        // The next run of each project takes its next number.
        try connection.query(
            """
            INSERT INTO scan_runs (project_id, format, tool, digest, actor)
            SELECT id, 'duo-scan', 'duo_scan', repeat('1', 64), 'ci' FROM projects ORDER BY name
            """)
        #expect(
            try connection.queryValue(
                "SELECT string_agg(number::text, ',' ORDER BY id) FROM scan_runs WHERE digest = repeat('1', 64)",
                as: String.self) == "4,3")
    }

    /// A database migrated up to the migration before `version`, holding one project, `old`.
    private func oldProject(before version: Int) throws -> PostgresConnection {
        let connection = try TestDatabase.makeConnection()
        try Migrator(migrations: Migration.embedded.filter { $0.version < version }).migrate(connection)
        try connection.query("INSERT INTO projects (name) VALUES ('old')")
        return connection
    }

    @Test("migration 0011 gives every existing project the app area with Core's default globs, and moves its findings")
    func appAreaForExistingProjects() throws {
        let connection = try oldProject(before: 11)
        try connection.query(
            """
            INSERT INTO findings (project_id, source, title, severity, number, file)
            SELECT id, 'manual', 'plist', 'low', 1, 'App/Info.plist' FROM projects
            """)
        try Migrator().migrate(connection)
        let globs = try connection.query(
            """
            SELECT p.glob FROM screen_paths p JOIN screens s ON s.id = p.screen_id
            WHERE s.kind = 'area' AND s.key = $1 ORDER BY p.glob
            """,
            [AuditArea.app]
        ).map { try $0.decode("glob", as: String.self) }
        #expect(globs == AuditArea.defaultGlobs.sorted())
        #expect(
            try connection.queryValue(
                "SELECT s.key FROM findings f JOIN screens s ON s.id = f.screen_id", as: String.self) == AuditArea.app)
    }

    @Test("migration 0013 gives the stored events their finding's number, its owner now and the screens it counts for")
    func eventFieldsBackfilled() throws {
        let connection = try oldProject(before: 13)
        // A screen, a component both screens use, and the app area (0011 adds it to projects it finds only).
        try connection.query(
            """
            INSERT INTO screens (project_id, key, kind)
            SELECT id, key, kind FROM projects,
                (VALUES ('Inbox', 'screen'), ('Settings', 'screen'), ('MenuRow', 'component'), ('app', 'area'))
                AS s (key, kind)
            """)
        try connection.query(
            """
            INSERT INTO screen_uses (project_id, screen_id, component_id)
            SELECT c.project_id, s.id, c.id FROM screens s JOIN screens c ON c.project_id = s.project_id
            WHERE c.key = 'MenuRow' AND s.key IN ('Inbox', 'Settings')
            """)
        // Findings 1 to 4: of Inbox, of the component, of the app area, of no screen.
        try connection.query(
            """
            INSERT INTO findings (project_id, source, title, severity, number, screen_id)
            SELECT p.id, 'manual', 'item ' || f.number, 'low', f.number,
                   (SELECT s.id FROM screens s WHERE s.project_id = p.id AND s.key = f.screen)
            FROM projects p, (VALUES (1, 'Inbox'), (2, 'MenuRow'), (3, 'app'), (4, NULL)) AS f (number, screen)
            """)
        try connection.query(
            """
            INSERT INTO events (project_id, project, finding_id, kind, subject, to_value, actor)
            SELECT f.project_id, 'old', f.id, 'finding.new', f.title, 'proposed', 'ana' FROM findings f ORDER BY f.number
            """)
        // A pose of Settings mapped to the component's finding; a screen's step; the project's SDK.
        try connection.query(
            """
            INSERT INTO events (project_id, project, finding_id, kind, subject, to_value, actor)
            SELECT project_id, 'old', id, 'pose.recorded', 'Settings P3', 'failed', 'qa' FROM findings WHERE number = 2
            """)
        try connection.query(
            """
            INSERT INTO events (project_id, project, kind, subject, from_value, to_value, actor)
            SELECT id, 'old', 'step.state', 'Inbox step 2 (order)', 'todo', 'done', 'ana' FROM projects
            UNION ALL
            SELECT id, 'old', 'project.updated', 'sdk', '27.0', '27.1', 'ana' FROM projects
            """)

        try Migrator().migrate(connection)

        let rows = try connection.query(
            """
            SELECT kind, coalesce(finding_number::text, '-') || ' ' || coalesce(screen, '-') || ' '
                         || coalesce(array_to_string(screens, ','), '-') AS about
            FROM events ORDER BY seq
            """
        ).map { "\(try $0.decode("kind", as: String.self)) \(try $0.decode("about", as: String.self))" }
        #expect(
            rows == [
                "finding.new 1 Inbox Inbox", "finding.new 2 MenuRow Inbox,Settings", "finding.new 3 app app",
                "finding.new 4 unmapped ", "pose.recorded 2 Settings Settings", "step.state - Inbox Inbox",
                "project.updated - - -",
            ])
    }

    @Test("migration 0023 keeps every use a screen had as given, so that the closure the store rewrites is the same")
    func componentLinksOfExistingUses() throws {
        let connection = try oldProject(before: 23)
        try connection.query(
            """
            INSERT INTO screens (project_id, key, kind)
            SELECT id, k.key, k.kind FROM projects, (VALUES ('Inbox', 'screen'), ('Row', 'component'),
                                                            ('Avatar', 'component')) AS k (key, kind)
            """)
        try connection.query(
            """
            INSERT INTO screen_uses (project_id, screen_id, component_id)
            SELECT s.project_id, s.id, c.id FROM screens s JOIN screens c ON c.project_id = s.project_id
            WHERE s.key = 'Inbox' AND c.kind = 'component'
            """)
        try Migrator().migrate(connection)
        let links = try connection.query(
            """
            SELECT u.key || ' ' || c.key AS link FROM component_links l JOIN screens u ON u.id = l.user_id
            JOIN screens c ON c.id = l.component_id ORDER BY 1
            """
        ).map { try $0.decode("link", as: String.self) }
        #expect(links == ["Inbox Avatar", "Inbox Row"])
        #expect(try connection.queryValue("SELECT count(*) FROM screen_exclusions", as: Int.self) == 0)
    }
    @Test(
        "migration 0027 indexes an existing project's findings by screen, status, severity and rule, and still checks runs"
    )
    func screenIndexOfExistingFindings() throws {
        let connection = try oldProject(before: 27)
        try connection.query(
            """
            INSERT INTO findings (project_id, source, title, severity, number, file, step, rule)
            SELECT id, 'manual', 'plist ' || n, 'low', n, 'App/Info.plist', 1, 'DUO00' || n % 3
            FROM projects, generate_series(1, 30) AS n
            """)
        try Migrator().migrate(connection)
        let indexes = try connection.query(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'findings' AND indexname LIKE 'findings_by_s%'"
        ).map { (try $0.decode("indexname", as: String.self), try $0.decode("indexdef", as: String.self)) }
        let definitions = Dictionary(uniqueKeysWithValues: indexes)
        // Migration 0030 keeps the columns and leaves out the findings no screen owns.
        #expect(
            definitions["findings_by_screen"]?.contains("(project_id, screen_id, status, severity, rule)") == true,
            "\(indexes)")
        #expect(definitions["findings_by_screen_severity"] == nil)
        // Migration 0028: by status and rule again, without the included id.
        #expect(definitions["findings_by_status_rule"]?.hasSuffix("(project_id, status, rule)") == true, "\(indexes)")
        try connection.query("SET enable_seqscan = off")
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM findings WHERE project_id = (SELECT id FROM projects) AND rule = 'DUO001'",
                as: Int.self) == 10)
        // The runs check, replaced by the migration, still refuses a run of no project.
        #expect {
            try connection.query("UPDATE findings SET first_seen_run = 1000, last_seen_run = 1000")
        } throws: { error in
            (error as? StoreError)?.sqlState == PostgresError.Code.foreignKeyViolation
        }
    }

    @Test("migration 0030 indexes by screen only the findings a screen owns, and a screen's findings still read it")
    func screenIndexOfOwnedFindings() throws {
        let connection = try oldProject(before: 30)
        // Thirty findings of a screen, thirty of none (an area's globs own no Swift file).
        try connection.query(
            """
            INSERT INTO screens (project_id, key, kind) SELECT id, 'Inbox', 'screen' FROM projects
            """)
        try connection.query(
            """
            INSERT INTO findings (project_id, source, title, severity, number, file, step, rule, screen_id)
            SELECT p.id, 'manual', 'finding ' || n, 'low', n, 'App/Inbox.swift', 1, 'DUO00' || n % 3,
                   CASE WHEN n <= 30 THEN s.id END
            FROM projects p JOIN screens s ON s.project_id = p.id AND s.key = 'Inbox', generate_series(1, 60) AS n
            """)
        try Migrator().migrate(connection)
        let definition = try connection.queryValue(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'findings_by_screen'", as: String.self)
        #expect(definition?.hasSuffix("WHERE (screen_id IS NOT NULL)") == true, "\(definition ?? "none")")
        let entries = try connection.queryValue(
            "SELECT reltuples::bigint FROM pg_class WHERE relname = 'findings_by_screen'", as: Int.self)
        #expect(entries == 30)
        // A screen's findings, by the index alone.
        let screensFindings = """
            SELECT count(*) FROM findings
            WHERE project_id = (SELECT id FROM projects) AND screen_id = (SELECT id FROM screens WHERE key = 'Inbox')
            """
        try connection.query("SET enable_seqscan = off")
        try connection.query("SET enable_bitmapscan = off")
        let plan = try connection.query("EXPLAIN " + screensFindings)
            .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
        #expect(plan.contains("findings_by_screen"), "\(plan)")
        #expect(try connection.queryValue(screensFindings, as: Int.self) == 30)
    }
}
