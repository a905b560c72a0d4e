import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

@Suite("PostgresPool")
struct PostgresPoolTests {
    @Test("runs many concurrent bodies on its bounded set of connections")
    func concurrentWork() async throws {
        let pool = PostgresPool(configuration: try TestDatabase.makeDatabase(), size: 3, queueLimit: 100)
        defer { pool.shutdown() }

        let answers = try await withThrowingTaskGroup(of: (Int, Int?, Int32).self) { group in
            for index in 0..<60 {
                group.addTask {
                    try await pool.withConnection { connection in
                        let doubled = try connection.queryValue("SELECT $1::int * 2", [index], as: Int.self)
                        return (index, doubled, connection.backendPID)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(answers.count == 60)
        #expect(answers.allSatisfy { $0.1 == $0.0 * 2 })
        #expect(Set(answers.map(\.2)).count <= 3)
        #expect(pool.usage == .init(size: 3, busy: 0, queued: 0, rejected: 0))
    }

    @Test("refuses work with poolBusy once its queue is full, and recovers")
    func backpressure() async throws {
        let pool = PostgresPool(configuration: try TestDatabase.makeDatabase(), size: 1, queueLimit: 1)
        defer { pool.shutdown() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)

        let blocker = Task {
            try await pool.withConnection { _ in
                started.signal()
                release.wait()
            }
        }
        await Task.detached { started.wait() }.value
        let queued = Task { try await pool.withConnection { try $0.queryValue("SELECT 1", as: Int.self) } }
        while pool.usage.queued < 1 { try await Task.sleep(for: .milliseconds(5)) }

        await #expect(throws: StoreError.poolBusy) {
            try await pool.withConnection { _ in 0 }
        }
        #expect(pool.usage.rejected == 1)

        release.signal()
        try await blocker.value
        #expect(try await queued.value == 1)
    }

    @Test("a body's error reaches the caller and the worker carries on")
    func errorsPropagate() async throws {
        let pool = PostgresPool(configuration: try TestDatabase.makeDatabase(), size: 1)
        defer { pool.shutdown() }

        await #expect {
            try await pool.withConnection { try $0.query("SELECT * FROM missing_table") }
        } throws: { error in
            (error as? StoreError)?.sqlState == "42P01"
        }
        #expect(try await pool.withConnection { try $0.queryValue("SELECT 7", as: Int.self) } == 7)
    }

    @Test("a job that leaves a transaction open does not hand it to the next job")
    func resetBetweenJobs() async throws {
        let pool = PostgresPool(configuration: try TestDatabase.makeDatabase(), size: 1)
        defer { pool.shutdown() }
        struct Oops: Error {}
        try await pool.withConnection { try $0.query("CREATE TABLE t (id int)") }
        await #expect(throws: Oops.self) {
            try await pool.withConnection { connection in
                try connection.query("BEGIN")
                try connection.query("INSERT INTO t VALUES (1)")
                throw Oops()
            }
        }
        #expect(try await pool.withConnection { $0.isInTransaction } == false)
        #expect(try await pool.withConnection { try $0.queryValue("SELECT count(*) FROM t", as: Int.self) } == 0)
    }

    @Test("after shutdown, work is refused with poolClosed")
    func shutdownRefusesWork() async throws {
        let pool = PostgresPool(configuration: try TestDatabase.makeDatabase(), size: 2)
        #expect(try await pool.withConnection { try $0.queryValue("SELECT 1", as: Int.self) } == 1)
        pool.shutdown()

        await #expect(throws: StoreError.poolClosed) {
            try await pool.withConnection { _ in 0 }
        }
    }

    @Test("transactions through the pool commit or roll back")
    func transactions() async throws {
        let pool = PostgresPool(configuration: try TestDatabase.makeDatabase(), size: 1)
        defer { pool.shutdown() }
        struct Abort: Error {}
        try await pool.withConnection { try $0.query("CREATE TABLE t (id int)") }

        try await pool.withTransaction { try $0.query("INSERT INTO t VALUES (1)") }
        await #expect(throws: Abort.self) {
            try await pool.withTransaction { connection in
                try connection.query("INSERT INTO t VALUES (2)")
                throw Abort()
            }
        }

        #expect(try await pool.withConnection { try $0.queryValue("SELECT count(*) FROM t", as: Int.self) } == 1)
    }
}
