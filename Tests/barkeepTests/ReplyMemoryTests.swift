import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end: what a reply that grows with the data costs the daemon when its client does not read it.
@Suite("replies: bounded memory for readers that do not read")
struct ReplyMemoryTests {
    /// Adds `count` items to project `name`, numbered 1 to `count` in the order FINDINGS lists them (file, then line),
    /// in one statement: a million in seconds, where an upload would take minutes in a debug build.
    static func seedItems(_ count: Int, project name: String, database url: String) throws {
        let connection = try PostgresConnection(configuration: PostgresConfiguration(conninfo: url))
        defer { connection.close() }
        try connection.transaction { connection in
            try connection.query(
                """
                INSERT INTO findings (project_id, source, title, severity, file, line, number)
                SELECT p.id, 'manual', 'item ' || i, 'low', 'Sources/F' || lpad((i / 100)::text, 6, '0') || '.swift',
                       i % 100 + 1, i
                FROM projects p, generate_series(1, $2::int) AS i WHERE p.name = $1
                """,
                [name, count])
            try connection.query("UPDATE projects SET findings_numbered = $2 WHERE name = $1", [name, count])
        }
    }

    @Test("two readers of a 1,000,000-finding FINDINGS that do not read: the daemon's RSS stays under their bound")
    func unreadFindings() throws {
        let daemon = try TestDaemon()
        let owner = try LineClient(socketPath: daemon.socket)
        #expect(try owner.request("PROJECT CREATE big")?.hasPrefix("* name=big ") == true)
        #expect(try owner.readLine() == "OK count=1")
        try Self.seedItems(1_000_000, project: "big", database: daemon.url)

        let pid = daemon.process.pid
        try "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
        let before = try UploadLimitsTests.memory("VmRSS", of: pid)
        let readers = try (0..<2).map { _ in try LineClient(socketPath: daemon.socket) }
        for reader in readers {
            reader.shrinkReceiveBuffer()
            try reader.send("FINDINGS big status=all\n")
        }
        // Records reach both; then their reads stop, hold their database connections for the hold (5 s), and give
        // them up: the pool is idle while both replies wait, unread.
        #expect(eventually(.seconds(60)) { readers.allSatisfy { $0.hasUnreadBytes() } })
        let isPoolIdle = try eventually(.seconds(60), every: .milliseconds(100)) {
            let stats = try owner.request("STATS")
            return try owner.readLine() == "OK count=1" && stats?.contains(" pool-busy=0 ") == true
        }
        #expect(isPoolIdle)
        // The unread-reply bound is 1 MiB a connection; a page (256 records), the pages in flight and the daemon's
        // own working memory fit in the margin. Built whole, the two replies took 2.7 GB.
        let growth = (try UploadLimitsTests.memory("VmHWM", of: pid) - before) * 1024
        #expect(growth < 2 * (1 << 20) + 24 << 20, "peak resident memory grew by \(growth) bytes")

        // Read, a reply goes on from where it stopped, through new reads: 20,000 records in order, none twice.
        for number in 1...20_000 {
            let line = try #require(try readers[0].readLine())
            guard line.hasPrefix("* id=\(number) ") else {
                Issue.record("record \(number) is \(line.prefix(80))")
                return
            }
        }
        #expect(try owner.request("PING") == "OK PONG")
    }
}
