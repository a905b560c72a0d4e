import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

@Suite("PostgresConnection")
struct PostgresConnectionTests {
    @Test("parameters and typed decoding round-trip")
    func parametersRoundTrip() throws {
        let connection = try TestDatabase.makeConnection()
        let text = "it's \"quoted\"; DROP TABLE x; -- ünïcødé ✓ \\ back\tslash"
        let date = Date(timeIntervalSince1970: 1_795_000_000.123456)
        let row = try #require(
            try connection.query(
                "SELECT $1::text AS t, $2::bigint AS i, $3::boolean AS b, $4::float8 AS d, $5::timestamptz AS at, "
                    + "$6::text[] AS list, $7::text AS missing",
                [text, Int.max, true, 2.5, date, ["a", "b c", "\"q\"", "NULL", ""], nil]
            ).first
        )

        #expect(try row.decode("t", as: String.self) == text)
        #expect(try row.decode("i", as: Int.self) == Int.max)
        #expect(try row.decode("b", as: Bool.self))
        #expect(try row.decode("d", as: Double.self) == 2.5)
        let decoded = try row.decode("at", as: Date.self)
        #expect(abs(decoded.timeIntervalSince(date)) < 0.000_001)
        #expect(try row.decode("list", as: [String].self) == ["a", "b c", "\"q\"", "NULL", ""])
        #expect(try row.decodeIfPresent("missing", as: String.self) == nil)
        #expect(throws: StoreError.decoding(column: "missing", expected: "non-null String")) {
            try row.decode("missing", as: String.self)
        }
        #expect(throws: StoreError.decoding(column: "t", expected: "Int")) { try row.decode("t", as: Int.self) }
        #expect(throws: StoreError.noSuchColumn("nope")) { try row.decode("nope", as: Int.self) }
    }

    @Test("a result read in place gives the same values as decoded rows")
    func resultInPlace() throws {
        let connection = try TestDatabase.makeConnection()
        let sql = """
            SELECT * FROM (VALUES (1, '-9223372036854775808'::bigint, 'ünï\tcødé', NULL::text),
                                  (2, 9223372036854775807, '', 'x'), (3, -42, 'abc', NULL)) AS v (n, i, t, missing)
            ORDER BY n
            """
        let rows = try connection.query(sql)
        let result = try connection.queryResult(sql)
        #expect(result.rowCount == rows.count)
        for (index, row) in rows.enumerated() {
            #expect(result.integer(index, 1) == Int64(try row.decode("i", as: Int.self)))
            #expect(result.string(index, 2) == (try row.decode("t", as: String.self)))
            #expect(result.withBytes(index, 2) { Array($0) } == Array((try row.decode("t", as: String.self)).utf8))
            #expect(result.string(index, 3) == (try row.decodeIfPresent("missing", as: String.self)))
            #expect(result.isNull(index, 3) == (try row.decodeIfPresent("missing", as: String.self) == nil))
        }
        #expect(result.integer(0, 2) == nil)
        #expect(result.integer(0, 3) == nil)
        #expect(try connection.queryResult("SELECT 1 WHERE false").rowCount == 0)
        #expect(throws: StoreError.self) { try connection.queryResult("SELECT * FROM no_such_table") }
    }

    @Test("server errors carry SQLSTATE and keep values out of the description")
    func errorsCarrySQLState() throws {
        let connection = try TestDatabase.makeConnection()
        try connection.query("CREATE TABLE t (name text UNIQUE)")
        try connection.query("INSERT INTO t VALUES ($1)", ["secret-value"])

        #expect {
            try connection.query("INSERT INTO t VALUES ($1)", ["secret-value"])
        } throws: { error in
            guard case StoreError.server(let server) = error else { return false }
            return server.sqlState == PostgresError.Code.uniqueViolation && server.constraint == "t_name_key"
                && !"\(error)".contains("secret-value") && (server.detail ?? "").contains("secret-value")
        }
        // The connection is still usable after an error.
        #expect(try connection.queryValue("SELECT count(*) FROM t", as: Int.self) == 1)
    }

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func transactions() throws {
        let connection = try TestDatabase.makeConnection()
        try connection.query("CREATE TABLE t (id int)")
        struct Abort: Error {}

        try connection.transaction { try $0.query("INSERT INTO t VALUES (1)") }
        #expect(throws: Abort.self) {
            try connection.transaction { connection in
                try connection.query("INSERT INTO t VALUES (2)")
                throw Abort()
            }
        }

        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT id FROM t").map { try $0.decode("id", as: Int.self) } == [1])
    }

    @Test("COPY FROM STDIN round-trips every byte, NULLs included")
    func copyRoundTrip() throws {
        let connection = try TestDatabase.makeConnection()
        try connection.query("CREATE TABLE c (id int, body text, note text)")
        let tricky = ["tab\there", "line\nbreak", "cr\rhere", "back\\slash", "\\N", "ünïcødé ✓", "", "\"quoted\""]
        let rows: [[String?]] = (0..<20_000).map { index in
            [String(index), tricky[index % tricky.count] + String(index), index % 3 == 0 ? nil : "n\(index)"]
        }

        let stored = try connection.copyIn("COPY c (id, body, note) FROM STDIN", rows: rows)

        #expect(stored == rows.count)
        let back = try connection.query("SELECT c.id::text, body, note FROM c ORDER BY c.id").map(\.values)
        // One Boolean: a failure would otherwise print 20,000 rows.
        let isIdentical = back == rows
        #expect(isIdentical, "first difference at row \(back.indices.first { back[$0] != rows[$0] } ?? -1)")
    }

    @Test("a COPY whose rows fail part-way stores nothing and leaves the connection usable")
    func copyAbort() throws {
        let connection = try TestDatabase.makeConnection()
        try connection.query("CREATE TABLE c (id int)")
        struct Broken: Error {}

        #expect(throws: Broken.self) {
            try connection.copyIn("COPY c (id) FROM STDIN") { writer in
                for index in 0..<50_000 {
                    // A parser that finds garbage part-way through a large upload.
                    if index == 40_000 { throw Broken() }
                    try writer.write([String(index)])
                }
            }
        }
        #expect(try connection.queryValue("SELECT count(*) FROM c", as: Int.self) == 0)
        #expect(throws: StoreError.self) {
            try connection.copyIn("COPY c (id) FROM STDIN", rows: [["not a number"]])
        }
        #expect(try connection.queryValue("SELECT count(*) FROM c", as: Int.self) == 0)
    }

    @Test("a failed statement that the body swallowed fails the whole transaction: nothing is committed")
    func swallowedFailure() throws {
        let connection = try TestDatabase.makeConnection()
        try connection.query("CREATE TABLE t (id int PRIMARY KEY)")
        #expect {
            try connection.transaction { connection in
                try connection.query("INSERT INTO t VALUES (1)")
                _ = try? connection.query("INSERT INTO t VALUES (1)")
            }
        } throws: { error in
            (error as? StoreError)?.sqlState == "25P02"
        }
        #expect(try connection.queryValue("SELECT count(*) FROM t", as: Int.self) == 0)
    }

    @Test("a connection lost inside a transaction never reconnects under it, even when the body carries on")
    func noReconnectInsideTransaction() throws {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        let admin = try PostgresConnection(configuration: configuration)
        try connection.query("CREATE TABLE t (id int)")
        #expect {
            try connection.transaction { connection in
                try connection.query("INSERT INTO t VALUES (1)")
                _ = try admin.query("SELECT pg_terminate_backend($1)", [connection.backendPID])
                try waitForBackendToGo(admin, pid: connection.backendPID)
                _ = try? connection.query("INSERT INTO t VALUES (2)")
                try connection.query("INSERT INTO t VALUES (3)")
            }
        } throws: { error in
            if case StoreError.connectionLost = error { return true }
            return false
        }
        #expect(try connection.queryValue("SELECT count(*) FROM t", as: Int.self) == 0)
    }

    @Test("transactions do not nest")
    func noNesting() throws {
        let connection = try TestDatabase.makeConnection()
        #expect(throws: StoreError.invalid("transactions do not nest")) {
            try connection.transaction { connection in try connection.transaction { _ in } }
        }
        #expect(!connection.isInTransaction)
    }

    @Test("a NUL in a value is refused, not cut short")
    func nulRefused() throws {
        let connection = try TestDatabase.makeConnection()
        #expect(throws: StoreError.invalid("a value holds a NUL character")) {
            try connection.query("SELECT $1::text", ["a\u{0}b"])
        }
        try connection.query("CREATE TABLE c (body text)")
        #expect(throws: StoreError.invalid("a value holds a NUL character")) {
            try connection.copyIn("COPY c (body) FROM STDIN", rows: [["a\u{0}b"]])
        }
    }

    @Test("a connection killed by the server is re-established on its next use")
    func killedConnectionRecovers() throws {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        let admin = try PostgresConnection(configuration: configuration)
        let before = connection.backendPID

        let terminated = try admin.queryValue("SELECT pg_terminate_backend($1)", [before], as: Bool.self)
        #expect(terminated == true)
        try waitForBackendToGo(admin, pid: before)

        #expect(try connection.queryValue("SELECT 1", as: Int.self) == 1)
        #expect(connection.backendPID != before)
    }

    @Test("a lock timeout and JIT off hold on every session of a connection, one re-established after a kill too")
    func sessionSettingsSurviveReconnect() throws {
        var configuration = try TestDatabase.makeDatabase()
        let admin = try PostgresConnection(configuration: configuration)
        // The server's own default is on: what the sessions show is the connection's doing.
        #expect(try admin.queryValue("SELECT boot_val FROM pg_settings WHERE name = 'jit'", as: String.self) == "on")
        configuration.lockTimeoutMilliseconds = 250
        let connection = try PostgresConnection(configuration: configuration)
        #expect(try connection.queryValue("SHOW lock_timeout", as: String.self) == "250ms")
        #expect(try connection.queryValue("SHOW jit", as: String.self) == "off")
        let before = connection.backendPID
        #expect(try admin.queryValue("SELECT pg_terminate_backend($1)", [before], as: Bool.self) == true)
        try waitForBackendToGo(admin, pid: before)
        #expect(try connection.queryValue("SHOW lock_timeout", as: String.self) == "250ms")
        #expect(try connection.queryValue("SHOW jit", as: String.self) == "off")
        #expect(connection.backendPID != before)
    }

    @Test("a connection lost inside a transaction says so, and works again afterwards")
    func lostInsideTransaction() throws {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        let admin = try PostgresConnection(configuration: configuration)

        #expect {
            try connection.transaction { connection in
                _ = try admin.query("SELECT pg_terminate_backend($1)", [connection.backendPID])
                try waitForBackendToGo(admin, pid: connection.backendPID)
                try connection.query("SELECT 1")
            }
        } throws: { error in
            if case StoreError.connectionLost = error { return true }
            return false
        }
        #expect(try connection.queryValue("SELECT 2", as: Int.self) == 2)
    }

    @Test("connecting to a server that is not there fails with a clear error")
    func connectFailure() {
        let configuration = PostgresConfiguration(
            conninfo: "host=/nonexistent-barkeep-dir port=5999",
            connectTimeoutSeconds: 2
        )
        #expect {
            _ = try PostgresConnection(configuration: configuration)
        } throws: { error in
            guard case StoreError.connectionFailed(let message) = error else { return false }
            return message.contains("nonexistent-barkeep-dir")
        }
    }
}

/// Waits until the server has ended backend `pid` (pg_terminate_backend only asks it to), then a moment more: the
/// backend leaves pg_stat_activity just before its process exits and its socket closes.
private func waitForBackendToGo(_ admin: PostgresConnection, pid: Int32) throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while try admin.queryValue("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", [pid], as: Int.self) != 0 {
        guard ContinuousClock.now < deadline else { return }
        Thread.sleep(forTimeInterval: 0.02)
    }
    Thread.sleep(forTimeInterval: 0.2)
}
