import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("PostgresCluster")
struct PostgresClusterTests {
    private func makeCluster() throws -> (PostgresCluster, String) {
        let root = try TemporaryDirectory.make(prefix: "barkeep-cluster")
        chmod(root, 0o755)
        let cluster = try PostgresCluster(
            binaries: try PostgresBinaries.locate(),
            options: .init(dataDirectory: root + "/pg", isEphemeral: true)
        )
        return (cluster, root)
    }

    private func postmasterPID(_ cluster: PostgresCluster) throws -> pid_t {
        let text = try String(contentsOfFile: cluster.options.dataDirectory + "/postmaster.pid", encoding: .utf8)
        return try #require(text.split(separator: "\n").first.flatMap { pid_t($0) })
    }

    @Test("creates, starts, serves on its socket only, stops; a second initialize keeps the data")
    func lifecycle() throws {
        let (cluster, root) = try makeCluster()
        defer { try? FileManager.default.removeItem(atPath: root) }

        #expect(try cluster.initializeIfNeeded())
        try cluster.start()
        #expect(cluster.isRunning())
        #expect(try cluster.createDatabaseIfNeeded("barkeep"))
        #expect(try !cluster.createDatabaseIfNeeded("barkeep"))
        let connection = try PostgresConnection(configuration: cluster.configuration(database: "barkeep"))
        #expect(try connection.queryValue("SHOW listen_addresses", as: String.self) == "")
        try connection.query("CREATE TABLE kept (id int)")
        connection.close()

        try cluster.stop()
        #expect(!cluster.isRunning())
        #expect(try !cluster.initializeIfNeeded())
        try cluster.start()
        let again = try PostgresConnection(configuration: cluster.configuration(database: "barkeep"))
        #expect(try again.queryValue("SELECT to_regclass('kept') IS NOT NULL", as: Bool.self) == true)
        again.close()
        try cluster.stop()
    }

    @Test("starts again after its postmaster was killed with SIGKILL, leaving a stale postmaster.pid")
    func recoversFromKilledPostmaster() throws {
        let (cluster, root) = try makeCluster()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try cluster.initializeIfNeeded()
        try cluster.start()
        let pid = try postmasterPID(cluster)

        kill(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while kill(pid, 0) == 0 && ContinuousClock.now < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: cluster.options.dataDirectory + "/postmaster.pid"))
        #expect(!cluster.isRunning())

        try cluster.start()
        let connection = try PostgresConnection(configuration: cluster.configuration())
        #expect(try connection.queryValue("SELECT 1", as: Int.self) == 1)
        connection.close()
        try cluster.stop()
    }

    @Test("refuses a data directory that holds something other than a cluster")
    func refusesForeignDirectory() throws {
        let (cluster, root) = try makeCluster()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(
            atPath: cluster.options.dataDirectory, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: cluster.options.dataDirectory + "/notes.txt"))

        #expect {
            try cluster.initializeIfNeeded()
        } throws: { error in
            guard case StoreError.cluster(let message) = error else { return false }
            return message.contains("is not empty but holds no PostgreSQL cluster")
        }
    }
}
