import BarkeepCore
import BarkeepHashing
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
        reason: String? = nil,
        identity given: String? = nil
    ) throws {
        // The identity digest as the sync will compute it; here any stable function of the parts will do.
        let identity =
            given ?? SHA256Digest.hex(of: "duo_scan\u{1F}DUO001\u{1F}\(file)\u{1F}\(snippet)\u{1F}\(occurrence)".utf8)
        try connection.query(
            """
            INSERT INTO findings (project_id, source, tool, rule, file, normalized_snippet, occurrence, identity, line,
                                  severity, status, reason, first_seen_run, last_seen_run, number)
            VALUES ($1, 'scanner', 'duo_scan', 'DUO001', $2, $3, $4, $5, 10, 'high', $6, $7, $8, $8,
                    (SELECT coalesce(max(number), 0) + 1 FROM findings WHERE project_id = $1))
            """,
            [project, file, snippet, occurrence, identity, status, reason, run]
        )
    }

    /// Creates a second project, `other`; returns its id.
    private func otherProject() throws -> Int {
        try #require(
            try connection.queryValue("INSERT INTO projects (name) VALUES ('other') RETURNING id", as: Int.self))
    }

    /// Two connections to a migrated database of their own, which the caller closes: a writer, and a deleter that
    /// gives up waiting for a row lock after 200 ms.
    private func writerAndDeleter() throws -> (writer: PostgresConnection, deleter: PostgresConnection) {
        let database = try TestDatabase.makeDatabase()
        let writer = try PostgresConnection(configuration: database)
        try Migrator().migrate(writer)
        let deleter = try PostgresConnection(configuration: database)
        try deleter.query("SET lock_timeout = '200ms'")
        return (writer, deleter)
    }

    /// Expects `deletion` to wait for the rows `write` locks until its transaction on `writer` commits (and to give
    /// up: lock_not_available), as a foreign key made it wait.
    private func expectWait(
        for write: (PostgresConnection) throws -> Void, on writer: PostgresConnection, of deletion: () throws -> Void
    ) throws {
        try writer.transaction { writer in
            try write(writer)
            expectViolation("55P03") { try deletion() }
        }
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

    @Test("a snippet or path longer than a B-tree entry can hold is still a finding")
    func longIdentityParts() throws {
        // Random text does not compress: 8 KB would overflow a unique index on the text itself.
        var generator = SystemRandomNumberGenerator()
        let noise = String(
            (0..<8192).map { _ in Character(Unicode.Scalar(UInt8.random(in: 33...126, using: &generator))) })
        try insertFinding(file: "Sources/" + noise.prefix(3000), snippet: noise)
        try insertFinding(file: "Sources/" + noise.prefix(3000), snippet: noise, occurrence: 1)
        expectViolation(PostgresError.Code.uniqueViolation) {
            try insertFinding(file: "Sources/" + noise.prefix(3000), snippet: noise)
        }
    }

    @Test("statuses outside the list are refused")
    func statusIsChecked() {
        expectViolation(PostgresError.Code.checkViolation) { try insertFinding(status: "done") }
    }

    @Test(
        "the schema's lists of values are Core's: statuses, severities, results, kinds, formats, roles, states, outcomes"
    )
    func vocabularyMatchesCore() throws {
        // The CHECK constraints list the vocabulary in SQL: read them back and compare with Core's types, so a value
        // added on one side only fails here.
        func checked(_ table: String, _ column: String, _ operation: String = "= ANY") throws -> Set<String> {
            let definitions = try connection.query(
                """
                SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
                WHERE c.conrelid = $1::regclass AND c.contype = 'c'
                  AND strpos(pg_get_constraintdef(c.oid), '(' || $2 || ' ' || $3 || ' (ARRAY[') > 0
                """,
                [table, column, operation] as [String]
            ).map { try $0.decode("definition", as: String.self) }
            #expect(definitions.count == 1, "CHECKs on \(table).\(column) \(operation): \(definitions)")
            let definition = try #require(definitions.first, "no CHECK on \(table).\(column)")
            // Only the list that follows the column: a constraint may go on with other conditions.
            let start = try #require(definition.range(of: "(\(column) \(operation) (ARRAY["))
            let list = try #require(definition[start.upperBound...].split(separator: "]").first)
            var values: Set<String> = []
            for part in list.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            where part.offset % 2 == 1 {
                values.insert(String(part.element))
            }
            return values
        }
        func all<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) -> Set<String>
        where Value.RawValue == String { Set(type.allCases.map(\.rawValue)) }

        #expect(try checked("findings", "status") == all(FindingStatus.self))
        #expect(
            try checked("findings", "status", "<> ALL")
                == Set(FindingStatus.allCases.filter(\.isStoredWithReason).map(\.rawValue)))
        #expect(try checked("findings", "severity") == all(Severity.self))
        #expect(try checked("rules", "severity") == all(Severity.self))
        #expect(try checked("findings", "source") == all(FindingSource.self))
        #expect(try checked("pose_results", "result") == all(PoseResult.self))
        #expect(try checked("step_states", "state") == all(StepState.self))
        #expect(try checked("screens", "kind") == all(ScreenKind.self))
        #expect(try checked("scan_runs", "format") == all(ScanFormat.self))
        #expect(try checked("sources", "format") == all(ScanFormat.self))
        #expect(try checked("tokens", "role") == all(Role.self))
        #expect(try checked("sources", "kind") == all(SourceKind.self))
        #expect(try checked("sources", "last_outcome") == all(SourceRunResult.self))
        #expect(try checked("source_files", "outcome") == all(SourceRunResult.self))
        #expect(try checked("screenshots", "media_type") == all(ImageHeader.MediaType.self))
    }

    @Test("a screenshot's sides are bounded by Core's ScreenshotLimit.maximumSide, in the schema too")
    func screenshotSides() throws {
        for column in ["width", "height"] {
            let definition = try connection.queryValue(
                """
                SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c
                WHERE c.conrelid = 'screenshots'::regclass AND c.contype = 'c'
                  AND strpos(pg_get_constraintdef(c.oid), '(' || $1 || ' ') > 0
                """, [column], as: String.self)
            #expect(
                definition == "CHECK (((\(column) >= 1) AND (\(column) <= \(ScreenshotLimit.maximumSide))))",
                "\(definition ?? "no CHECK")")
        }
    }

    @Test("the poses the schema accepts are exactly Core's: the required-poses lists, the pattern and the poses table")
    func posesMatchCore() throws {
        // Each CHECK is read back and evaluated on every pose and on near misses, so a pose added (or a list
        // narrowed) on one side only fails here, whatever the constraint's shape.
        func accepted(_ table: String, _ column: String, as type: String, _ value: String) throws -> Bool {
            let definitions = try connection.query(
                """
                SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
                WHERE c.conrelid = $1::regclass AND c.contype = 'c'
                  AND strpos(pg_get_constraintdef(c.oid), '(' || $2 || ' ') > 0
                """,
                [table, column] as [String]
            ).map { try $0.decode("definition", as: String.self) }
            #expect(definitions.count == 1, "CHECKs on \(table).\(column): \(definitions)")
            let definition = try #require(definitions.first, "no CHECK on \(table).\(column)")
            let expression = try #require(definition.range(of: "CHECK ")).upperBound
            // The constraint's own expression with the candidate in place of the column; the text comes from the
            // catalog, the candidate is bound.
            let test = definition[expression...].replacingOccurrences(of: "(\(column) ", with: "($1::\(type) ")
            return try connection.queryValue(
                "SELECT coalesce(\(test), true)", [type == "text[]" ? [value] as any PostgresEncodable : value],
                as: Bool.self) ?? false
        }
        let poses = Pose.allCases.map(\.rawValue)
        let strangers = ["P0", "P17", "P01", "p1", "P", "Q1", "P1 "]
        for (table, column, type) in [
            ("projects", "required_poses", "text[]"), ("screens", "required_poses", "text[]"),
            ("pose_results", "pose", "text"), ("poses", "id", "text"),
        ] {
            for pose in poses {
                #expect(try accepted(table, column, as: type, pose), "\(table).\(column) refuses \(pose)")
            }
            for stranger in strangers {
                #expect(try !accepted(table, column, as: type, stranger), "\(table).\(column) accepts '\(stranger)'")
            }
        }
        // The reference table holds Core's poses with the same device-only flags and states, in order.
        let rows = try connection.query("SELECT id, device_only, state FROM poses ORDER BY ordinal").map {
            "\(try $0.decode("id", as: String.self)) \(try $0.decode("device_only", as: Bool.self)) "
                + (try $0.decode("state", as: String.self))
        }
        #expect(rows == Pose.allCases.map { "\($0.rawValue) \($0.isDeviceOnly) \($0.state)" })
        let defaults = try connection.queryValue(
            "SELECT required_poses FROM projects WHERE id = $1", [project], as: [String].self)
        #expect(defaults == Pose.defaultRequired.map(\.rawValue))
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
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM events WHERE project = 'app' AND project_id IS NULL", as: Int.self) == 1)
    }

    @Test("an identity is 64 lowercase hexadecimal digits (migration 0020 says it without a bounded repetition)")
    func identityShape() throws {
        let digits = String(repeating: "0123456789abcdef", count: 4)
        try insertFinding(identity: digits)
        for (index, wrong) in [
            String(digits.dropLast()), digits + "0", digits.uppercased(), "g" + digits.dropFirst(),
            String(repeating: "é", count: 32), String(digits.dropLast()) + " ",
        ].enumerated() {
            expectViolation(PostgresError.Code.checkViolation) {
                try insertFinding(file: "Sources/Wrong\(index).swift", identity: wrong)
            }
        }
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 1)
    }

    @Test("a finding's project exists and stays until its writer commits, checked per statement (migration 0019)")
    func findingProjectIsChecked() throws {
        let item = """
            INSERT INTO findings (project_id, source, title, step, severity, number)
            VALUES ($1, 'manual', 'An item', 1, 'low', $2)
            """
        // An item names no run, screen or pose: the project's check alone refuses it, in an INSERT and in an UPDATE
        // that moves a finding to a project that does not exist, even when only one row of the statement is wrong.
        expectViolation(PostgresError.Code.foreignKeyViolation) { try connection.query(item, [project + 1_000, 1]) }
        try connection.query(item, [project, 1])
        try connection.query(item, [project, 2])
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(
                "UPDATE findings SET project_id = CASE WHEN number = 2 THEN $1::bigint ELSE project_id END",
                [project + 1_000])
        }
        let other = try otherProject()
        try connection.query("UPDATE findings SET project_id = $1 WHERE number = 2", [other])
        // The writer holds the project's row, as the foreign key did: its deletion waits for the commit.
        let (writer, deleter) = try writerAndDeleter()
        defer {
            writer.close()
            deleter.close()
        }
        let locked = try #require(
            try writer.queryValue("INSERT INTO projects (name) VALUES ('locked') RETURNING id", as: Int.self))
        try expectWait(for: { try $0.query(item, [locked, 1]) }, on: writer) {
            try deleter.query("DELETE FROM projects WHERE id = $1", [locked])
        }
        #expect(try writer.queryValue("SELECT count(*) FROM findings", as: Int.self) == 1)
        try deleter.query("DELETE FROM projects WHERE id = $1", [locked])
        #expect(try writer.queryValue("SELECT count(*) FROM findings", as: Int.self) == 0)
    }

    @Test("deleting a project deletes its findings, those a failed pose names included, and its runs (migration 0019)")
    func projectDeletionDeletesFindings() throws {
        try insertFinding()
        try insertFinding(file: "Sources/Other.swift")
        let finding = try #require(try connection.queryValue("SELECT min(id) FROM findings", as: Int.self))
        try connection.query(
            """
            INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, finding_id, actor)
            VALUES ($1, $2, 'P3', 'failed', 'shots/p3.png', $3, 'dana')
            """,
            [project, screen, finding])
        try connection.query(
            "INSERT INTO events (project_id, project, finding_id, kind, subject, actor) "
                + "VALUES ($1, 'app', $2, 'finding.new', 'x', 'ci')",
            [project, finding])
        // Another project's findings stay.
        let other = try otherProject()
        try connection.query(
            "INSERT INTO findings (project_id, source, title, step, severity, number) VALUES ($1, 'manual', 'Kept', 1, 'low', 1)",
            [other])
        try connection.query("DELETE FROM projects WHERE id = $1", [project])
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 1)
        #expect(try connection.queryValue("SELECT count(*) FROM pose_results", as: Int.self) == 0)
        #expect(try connection.queryValue("SELECT count(*) FROM scan_runs", as: Int.self) == 0)
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM finding_summaries WHERE project_id = $1", [project], as: Int.self) == 0)
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM events WHERE project_id IS NULL AND finding_id IS NULL", as: Int.self) == 1)
    }

    @Test("a pose result's finding is its project's and stays while named, checked per statement (0031, 0032)")
    func poseResultFindingIsChecked() throws {
        try insertFinding()
        let finding = try #require(try connection.queryValue("SELECT min(id) FROM findings", as: Int.self))
        let other = try otherProject()
        let elsewhere = try #require(
            try connection.queryValue(
                """
                INSERT INTO findings (project_id, source, title, step, severity, number)
                VALUES ($1, 'manual', 'Elsewhere', 1, 'low', 1) RETURNING id
                """,
                [other], as: Int.self))
        let failed = """
            INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, finding_id, actor)
            VALUES ($1, $2, 'P3', 'failed', 'shots/p3.png', $3, 'dana')
            """
        // Another project's finding, a finding that does not exist: refused, in an INSERT as in an UPDATE.
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(failed, [project, screen, elsewhere])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(failed, [project, screen, finding + 1_000])
        }
        // A statement with one wrong row of two is refused whole.
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(
                """
                INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, finding_id, actor)
                VALUES ($1, $2, 'P3', 'failed', 'shots/p3.png', $3, 'dana'),
                       ($1, $2, 'P4', 'failed', 'shots/p4.png', $4, 'dana')
                """,
                [project, screen, finding, elsewhere])
        }
        try connection.query(failed, [project, screen, finding])
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("UPDATE pose_results SET finding_id = $1", [elsewhere])
        }
        // A named finding stays in its project (migration 0032): an item, so that no run or screen of it objects.
        let named = try #require(
            try connection.queryValue(
                """
                INSERT INTO findings (project_id, source, title, step, severity, number)
                VALUES ($1, 'manual', 'Clipped', 1, 'low', 2) RETURNING id
                """,
                [project], as: Int.self))
        try connection.query(failed, [project, screen, named])
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("UPDATE findings SET project_id = $1 WHERE id = $2", [other, named])
        }
        // A named finding stays; one no result names goes.
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("DELETE FROM findings WHERE id = $1", [finding])
        }
        try connection.query("DELETE FROM findings WHERE id = $1", [elsewhere])
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 2)
        // The writer holds the finding's row until it commits, as the foreign key did: its deletion waits.
        let (writer, deleter) = try writerAndDeleter()
        defer {
            writer.close()
            deleter.close()
        }
        let ids = try #require(
            try writer.query(
                """
                WITH p AS (INSERT INTO projects (name) VALUES ('locked') RETURNING id),
                     s AS (INSERT INTO screens (project_id, key) SELECT id, 'Inbox' FROM p RETURNING id, project_id)
                INSERT INTO findings (project_id, source, title, step, severity, screen_id, number)
                SELECT project_id, 'manual', 'Clipped', 1, 'low', id, 1 FROM s RETURNING project_id, screen_id, id
                """
            ).first)
        let (lockedProject, lockedScreen, lockedFinding) = (
            try ids.decode("project_id", as: Int.self), try ids.decode("screen_id", as: Int.self),
            try ids.decode("id", as: Int.self)
        )
        try expectWait(for: { try $0.query(failed, [lockedProject, lockedScreen, lockedFinding]) }, on: writer) {
            try deleter.query("DELETE FROM findings WHERE id = $1", [lockedFinding])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try deleter.query("DELETE FROM findings WHERE id = $1", [lockedFinding])
        }
        #expect(try writer.queryValue("SELECT count(*) FROM pose_results", as: Int.self) == 1)
    }

    @Test("a finding's first and last runs are runs of its project, checked once per statement (migration 0016)")
    func findingRunsAreChecked() throws {
        let other = try otherProject()
        let otherRun = try #require(
            try connection.queryValue(
                """
                INSERT INTO scan_runs (project_id, format, tool, digest, actor)
                VALUES ($1, 'duo-scan', 'duo_scan', repeat('b', 64), 'ci') RETURNING id
                """,
                [other], as: Int.self))
        try insertFinding()
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("UPDATE findings SET last_seen_run = $1", [otherRun])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("UPDATE findings SET first_seen_run = $1", [otherRun + 1_000])
        }
        // A run that a finding names stays while its project does.
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("DELETE FROM scan_runs WHERE id = $1", [run])
        }
        try connection.query("DELETE FROM scan_runs WHERE id = $1", [otherRun])
        #expect(try connection.queryValue("SELECT count(*) FROM scan_runs", as: Int.self) == 1)
    }

    @Test("a finding's screen is one of its project's and its pose exists, checked per statement (migration 0018)")
    func findingScreenAndPoseAreChecked() throws {
        let other = try otherProject()
        let otherScreen = try #require(
            try connection.queryValue(
                "INSERT INTO screens (project_id, key) VALUES ($1, 'Elsewhere') RETURNING id", [other], as: Int.self))
        try insertFinding()
        try insertFinding(file: "Sources/Other.swift")
        // Another project's screen, a screen that does not exist, a pose that does not exist: refused, in an
        // INSERT as in an UPDATE, even when only one row of the statement is wrong.
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(
                "UPDATE findings SET screen_id = CASE WHEN file = 'Sources/Other.swift' THEN $1::bigint ELSE $2::bigint END",
                [otherScreen, screen])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query("UPDATE findings SET screen_id = $1", [otherScreen + 1_000])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(
                """
                INSERT INTO findings (project_id, source, title, step, severity, screen_id, number)
                VALUES ($1, 'manual', 'Wrong screen', 1, 'low', $2, 99)
                """,
                [project, otherScreen])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(
                """
                INSERT INTO findings (project_id, source, title, step, severity, created_by_pose, number)
                VALUES ($1, 'manual', 'No such pose', 1, 'low', 'P99', 99)
                """,
                [project])
        }
        try connection.query(
            """
            INSERT INTO findings (project_id, source, title, step, severity, screen_id, created_by_pose, number)
            VALUES ($1, 'manual', 'Clipped in P3', 1, 'low', $2, 'P3', 99)
            """,
            [project, screen])
        try connection.query("UPDATE findings SET screen_id = $1", [screen])
        // Deleting the screen leaves its findings, no longer attributed (was ON DELETE SET NULL).
        try connection.query("DELETE FROM screens WHERE id = $1", [screen])
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 3)
        #expect(
            try connection.queryValue("SELECT count(*) FROM findings WHERE screen_id IS NULL", as: Int.self) == 3)
    }

    @Test("an event names a project and finding that exist; deleting the finding leaves the event (migration 0016)")
    func eventReferencesAreChecked() throws {
        try insertFinding()
        let finding = try #require(try connection.queryValue("SELECT id FROM findings", as: Int.self))
        let insert =
            "INSERT INTO events (project_id, project, finding_id, kind, subject, actor) "
            + "VALUES ($1, 'app', $2, 'finding.new', 'x', 'ci')"
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(insert, [project, finding + 1_000])
        }
        expectViolation(PostgresError.Code.foreignKeyViolation) {
            try connection.query(insert, [project + 1_000, finding])
        }
        try connection.query(insert, [project, finding])
        try connection.query("DELETE FROM findings WHERE id = $1", [finding])
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM events WHERE kind = 'finding.new' AND finding_id IS NULL", as: Int.self) == 1)
    }

    @Test(
        "versions compare numerically, as Core's SDKVersion does",
        arguments: [
            ("27.10", "27.9", 1), ("27", "27.0", 0), ("27.1", "27.1.0", 0), ("27.0.1", "27", 1), ("26.4", "27.0", -1),
        ]
    )
    func versionsCompareNumerically(left: String, right: String, order: Int) throws {
        let sql =
            "SELECT CASE WHEN barkeep_version($1) > barkeep_version($2) THEN 1 "
            + "WHEN barkeep_version($1) = barkeep_version($2) THEN 0 ELSE -1 END"
        #expect(try connection.queryValue(sql, [left, right], as: Int.self) == order)
        let core =
            try #require(SDKVersion(left)) == (try #require(SDKVersion(right)))
            ? 0 : (try #require(SDKVersion(left)) > (try #require(SDKVersion(right))) ? 1 : -1)
        #expect(core == order)
    }
}
