import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A barkeepd on a fresh test database, for end-to-end tests of the CLI; its data directory holds only the socket
/// and the lock. Stopped (SIGTERM) when released.
public final class TestDaemon: Sendable {
    /// The daemon process.
    public let process: Subprocess
    /// Its TCP port.
    public let port: UInt16
    /// Its Unix socket.
    public let socket: String
    /// Its database, to start another daemon on the same one.
    public let url: String

    /// Starts a daemon on `url`, or on a new database; on `port`, or on any free one; with more barkeepd
    /// `arguments` (`--tls-cert FILE --tls-key FILE`).
    public init(url: String? = nil, port: UInt16 = 0, arguments: [String] = []) throws {
        let database: String
        if let url {
            database = url
        } else {
            let configuration = try TestDatabase.makeDatabase()
            database = configuration.conninfo + " dbname=\(configuration.database ?? "")"
        }
        let root = try TemporaryDirectory.make(prefix: "barkeep-cli")
        socket = root + "/barkeep.sock"
        self.url = database
        (process, self.port) = try Subprocess.startDaemon(
            ["--data-dir", root, "--database-url", database] + arguments, port: port)
    }

    /// The environment a CLI run against this daemon gets: its socket (or TCP port), the token, no colour.
    public func environment(token: String? = nil, tcp: Bool = false) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["BARKEEP_SERVER"] = tcp ? "127.0.0.1:\(port)" : "unix:\(socket)"
        environment["BARKEEP_TOKEN"] = token
        environment["NO_COLOR"] = "1"
        return environment
    }

    /// Runs `barkeep arguments` against this daemon: exit status, standard output, standard error.
    public func barkeep(_ arguments: [String], token: String? = nil, tcp: Bool = false) throws -> (
        Int32, String, String
    ) {
        let result = try Subprocess.run(
            BuildProducts.path("barkeep"), arguments, environment: environment(token: token, tcp: tcp))
        return (result.status, result.output, result.error)
    }

    /// Stops the daemon and waits for it.
    public func stop() {
        process.signal(SIGTERM)
        _ = process.wait(timeout: .seconds(30))
    }

    deinit { stop() }
}
