import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A benchmark's database and release barkeepd: an embedded PostgreSQL cluster in a temporary directory (or the one
/// BARKEEP_BENCH_DATABASE_URL names), migrated, and a connection to it for generating the data; then barkeepd (the
/// executable beside the benchmark's) started on that database, listening on a free TCP port. `stop()` ends both
/// and removes the directory.
public final class BenchDaemon {
    /// The temporary directory holding the cluster, the daemon's data directory and its logs.
    public let root: String
    /// The database, as barkeepd is given it.
    public let configuration: PostgresConfiguration
    /// A connection for generating data and making tokens, as an admin would.
    public let connection: PostgresConnection
    /// The line protocol's TCP port, once `start` ran.
    public private(set) var port: UInt16 = 0
    /// The daemon's process id, once `start` ran.
    public private(set) var pid: pid_t?
    private var cluster: PostgresCluster?

    /// Makes the directory, starts (or connects to) the database and migrates it; `name` names the directory.
    public init(name: String) throws {
        root = FileManager.default.temporaryDirectory.path + "/\(name)-\(getpid())"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chmod(root, 0o755)
        if let url = ProcessInfo.processInfo.environment["BARKEEP_BENCH_DATABASE_URL"], !url.isEmpty {
            configuration = PostgresConfiguration(conninfo: url)
        } else {
            let embedded = try PostgresCluster.startPrivate(in: root, database: "bench")
            cluster = embedded
            configuration = embedded.configuration(database: "bench")
        }
        connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
    }

    /// Starts barkeepd with `arguments` added to its own and returns a line connection once it answers.
    public func start(_ arguments: [String] = []) throws -> LineConnection {
        port = try freePort()
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("barkeepd").path
        var conninfo = configuration.conninfo
        if let database = configuration.database { conninfo += " dbname=\(database)" }
        pid = try ProcessSpawner.spawn(
            [
                executable, "--data-dir", root + "/daemon", "--database-url", conninfo, "--listen",
                "127.0.0.1:\(port)", "--log-level", "warning",
            ] + arguments,
            standardOutput: root + "/barkeepd.out", standardError: root + "/barkeepd.err")
        for _ in 0..<200 {
            if let client = try? LineConnection(port: port) { return client }
            usleep(100_000)
        }
        throw BenchError("barkeepd did not start; see \(root)/barkeepd.err")
    }

    /// Stops the daemon and the cluster and removes the directory.
    public func stop() {
        if let pid {
            kill(pid, SIGTERM)
            _ = try? ProcessSpawner.wait(for: pid)
            self.pid = nil
        }
        try? cluster?.stop()
        cluster = nil
        try? FileManager.default.removeItem(atPath: root)
    }
}
