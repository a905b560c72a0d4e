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
    /// Its HTTP listener's address (`127.0.0.1:PORT`), when started with `http: true`; nil otherwise.
    public let httpAddress: String?

    /// Starts a daemon on `url`, or on a new database; on `port`, or on any free one; with more barkeepd
    /// `arguments` (`--tls-cert FILE --tls-key FILE`); `http`: it serves HTTP on an ephemeral port too (otherwise
    /// none, so that parallel daemons never fight over the default port).
    public init(url: String? = nil, port: UInt16 = 0, http: Bool = false, arguments: [String] = []) throws {
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
            ["--data-dir", root, "--database-url", database] + (http ? ["--http", "127.0.0.1:0"] : []) + arguments,
            port: port)
        httpAddress = http ? Subprocess.readyField(process, "http") : nil
    }

    /// The base URL of its HTTP listener (`http://127.0.0.1:PORT`, `https://…` under TLS), when it serves HTTP.
    public var httpURL: String? {
        guard let httpAddress else { return nil }
        let scheme = Subprocess.readyField(process, "http_tls") == "yes" ? "https" : "http"
        return "\(scheme)://\(httpAddress)"
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

    /// A TCP connection that said HELLO with `token`, once the daemon serves its database alone (STATS `sole=yes`,
    /// polled for up to 30 s; it throws when the daemon does not).
    public func connectionWhenSole(token: String) throws -> LineClient {
        let client = try LineClient(port: port)
        guard try client.request("HELLO token=\(token)")?.hasPrefix("OK") == true else {
            throw TestSupportError("HELLO refused")
        }
        guard eventually(.seconds(30), { (try? Self.stats("sole", on: client)) == "yes" }) else {
            throw TestSupportError("the daemon did not come to serve its database alone")
        }
        return client
    }

    /// The field `name` of the STATS record on `client`; nil when it has none.
    public static func stats(_ name: String, on client: LineClient) throws -> String? {
        let record = try client.reply("STATS").first ?? ""
        return record.split(separator: " ").first { $0.hasPrefix(name + "=") }.map {
            String($0.dropFirst(name.count + 1))
        }
    }

    /// Stops the daemon and waits for it.
    public func stop() {
        process.signal(SIGTERM)
        _ = process.wait(timeout: .seconds(30))
    }

    deinit { stop() }
}
