import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A barkeepd on its own embedded PostgreSQL cluster in a fresh data directory, for tests of the cluster's
/// supervision. Stopped (SIGTERM) when released.
public final class EmbeddedDaemon: Sendable {
    /// The daemon process.
    public let process: Subprocess
    /// Its TCP port.
    public let port: UInt16
    /// Its data directory (the cluster is in `pg` inside it).
    public let root: String
    /// Its HTTP listener's address (`127.0.0.1:PORT`), when started with `http: true`; nil otherwise.
    public let httpAddress: String?

    /// Starts a daemon with more barkeepd `arguments`, with at most `fileLimit` descriptors when given; `http`: it
    /// serves HTTP on an ephemeral port too (otherwise none).
    public init(arguments: [String] = [], fileLimit: Int? = nil, http: Bool = false) throws {
        root = try TemporaryDirectory.make(prefix: "barkeep-embedded")
        // The embedded server may run as another user, who must reach its directory.
        chmod(root, 0o755)
        (process, port) = try Subprocess.startDaemon(
            ["--data-dir", root] + (http ? ["--http", "127.0.0.1:0"] : []) + arguments, fileLimit: fileLimit)
        httpAddress = http ? Subprocess.readyField(process, "http") : nil
    }

    /// Runs `barkeep arguments` on the daemon's Unix socket: exit status and standard output.
    public func barkeep(_ arguments: [String]) throws -> (Int32, String) {
        var environment = ProcessInfo.processInfo.environment
        environment["BARKEEP_SERVER"] = "unix:\(root)/barkeep.sock"
        let result = try Subprocess.run(BuildProducts.path("barkeep"), arguments, environment: environment)
        return (result.status, result.output)
    }

    /// The pid in the cluster's postmaster.pid.
    public func postmasterPID() throws -> pid_t {
        let text = try String(contentsOfFile: root + "/pg/postmaster.pid", encoding: .utf8)
        guard let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
            throw TestSupportError("postmaster.pid names no pid: \(text)")
        }
        return pid
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.wait(timeout: .seconds(30))
    }
}
