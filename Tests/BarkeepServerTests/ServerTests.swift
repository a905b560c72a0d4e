import BarkeepCore
import BarkeepProtocol
import BarkeepServer
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A server on an ephemeral TCP port and a Unix socket in a temporary directory, stopped when the test ends; with
/// `database`, a real migrated PostgreSQL database behind a pool.
final class RunningServer {
    let server: Server
    let port: UInt16
    let socketPath: String
    let pool: PostgresPool?
    let database: PostgresConfiguration?
    /// The server's presence on the database; nil without one.
    let presence: Presence?

    init(
        maximumLineLength: Int = 1024,
        maximumPendingOutput: Int = 1 << 20,
        maximumWatcherBacklog: Int = 4 << 20,
        maximumPayload: Int = 1 << 20,
        streamHold: Duration = .seconds(5),
        commands: CommandTable = .basic,
        database: PostgresConfiguration? = nil,
        poolSize: Int = 2,
        queueLimit: Int = 64,
        maximumConnections: Int = 1024,
        tls: TLSConfiguration? = nil,
        logger: Logger = Logger(level: .error, clock: { Date() }) { _ in }
    ) throws {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-server")
        let requested = [ServerAddress.tcp(host: "127.0.0.1", port: 0), .unix(path: directory + "/test.sock")]
        self.database = database
        // Its connections say which server they are of, as a daemon's do (`PostgresConfiguration.instance`).
        let instance = String(UUID().uuidString.prefix(8)).lowercased()
        pool = database.map { database in
            var tagged = database
            tagged.instance = instance
            return PostgresPool(configuration: tagged, size: poolSize, queueLimit: queueLimit)
        }
        var configuration = ServerConfiguration(
            addresses: requested,
            maximumLineLength: maximumLineLength,
            maximumPayload: maximumPayload,
            maximumPendingOutput: maximumPendingOutput,
            maximumWatcherBacklog: maximumWatcherBacklog,
            maximumConnections: maximumConnections,
            ownerUID: geteuid(),
            serverID: "test",
            tls: tls
        )
        configuration.streamHold = streamHold
        // The daemon's presence on the database, as `barkeepd` makes it: stopped after the pool drained (`deinit`).
        presence = pool.map { Presence(configuration: $0.configuration, logger: logger) }
        server = try Server(
            configuration: configuration, commands: commands, pool: pool, presence: presence, logger: logger)
        var port: UInt16 = 0
        for address in try server.start() {
            if case .tcp(_, let bound) = address { port = bound }
        }
        self.port = port
        self.socketPath = directory + "/test.sock"
    }

    /// A server with every standard command on a fresh migrated database.
    static func withDatabase(
        commands: CommandTable = .standard,
        poolSize: Int = 2,
        queueLimit: Int = 64,
        maximumPendingOutput: Int = 1 << 20,
        maximumWatcherBacklog: Int = 4 << 20,
        maximumLineLength: Int = 4096,
        streamHold: Duration = .seconds(5),
        logger: Logger = Logger(level: .error, clock: { Date() }) { _ in }
    ) throws -> RunningServer {
        let configuration = try TestDatabase.makeDatabase()
        let connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
        connection.close()
        return try RunningServer(
            maximumLineLength: maximumLineLength,
            maximumPendingOutput: maximumPendingOutput,
            maximumWatcherBacklog: maximumWatcherBacklog,
            streamHold: streamHold,
            commands: commands,
            database: configuration,
            poolSize: poolSize,
            queueLimit: queueLimit,
            logger: logger
        )
    }

    /// A connection as the daemon's owner (admin without a token).
    func owner() throws -> LineClient { try LineClient(socketPath: socketPath) }

    /// A TCP connection, authenticated with `token` when given.
    func tcp(token: String? = nil) throws -> LineClient {
        let client = try LineClient(port: port)
        if let token { _ = try client.request("HELLO token=\(token)") }
        return client
    }

    deinit {
        server.shutdown()
        pool?.shutdown()
        presence?.stop()
    }
}

@Suite("Server")
struct ServerTests {
    @Test("answers PING over TCP and over the Unix socket")
    func pingOnBothListeners() throws {
        let running = try RunningServer()
        #expect(running.port != 0)
        #expect(try LineClient(port: running.port).request("PING") == "OK PONG")
        #expect(try LineClient(socketPath: running.socketPath).request("ping") == "OK PONG")
    }

    @Test("replies to pipelined requests strictly in order")
    func pipelining() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        let requests = (0..<2000).map { $0 % 3 == 0 ? "NOPE \($0)" : "PING" }
        try client.send(requests.joined(separator: "\r\n") + "\r\n")

        for request in requests {
            let expected = request == "PING" ? "OK PONG" : "ERR UNKNOWN unknown command 'NOPE'"
            #expect(try client.readLine() == expected)
        }
        // Counters are published once per batch of events, just after the replies went out.
        let deadline = ContinuousClock.now + .seconds(2)
        while running.server.statistics.commandsServed < 2000 && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(running.server.statistics.commandsServed >= 2000)
    }

    /// Bad input, named so that test output shows the name rather than the bytes.
    private static let badInputs: [String: (bytes: [UInt8], expectedPrefix: String)] = [
        "extra argument": (Array("PING extra\n".utf8), "ERR BADARG"),
        "invalid UTF-8": ([0xff, 0xfe, 0x0a], "ERR BADLINE"),
        "control character": (Array("PI\u{1}NG\n".utf8), "ERR BADLINE"),
        "one byte over the limit": ([UInt8](repeating: UInt8(ascii: "x"), count: 1025) + [0x0a], "ERR TOOLONG"),
        "300 KB line": ([UInt8](repeating: UInt8(ascii: "x"), count: 300_000) + [0x0a], "ERR TOOLONG"),
        "unknown command": (Array("HELO\n".utf8), "ERR UNKNOWN"),
    ]

    @Test("bad lines get a stable error code and the connection stays usable", arguments: badInputs.keys.sorted())
    func badInput(name: String) throws {
        let (bytes, expectedPrefix) = try #require(Self.badInputs[name])
        let running = try RunningServer(maximumLineLength: 1024)
        let client = try LineClient(port: running.port)
        try client.send(bytes)
        let reply = try #require(try client.readLine())
        #expect(reply.hasPrefix(expectedPrefix), "got \(reply)")
        #expect(try client.request("PING") == "OK PONG")
    }

    @Test("an unknown verb is echoed only in part")
    func unknownVerbIsTruncated() throws {
        let running = try RunningServer(maximumLineLength: 8192)
        let reply = try #require(try LineClient(port: running.port).request(String(repeating: "Z", count: 5000)))
        #expect(reply == "ERR UNKNOWN unknown command '\(String(repeating: "Z", count: 40))…' (5000 bytes)")
    }

    @Test("blank lines are ignored")
    func blankLines() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        try client.send("\n\r\n   \nPING\n")
        #expect(try client.readLine() == "OK PONG")
    }

    @Test("a client that half-closes after its requests still gets every reply")
    func halfClose() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        try client.send(String(repeating: "PING\n", count: 50_000) + "PI")
        client.shutdownWrite()
        var replies = 0
        while let line = try client.readLine() {
            #expect(line == "OK PONG")
            replies += 1
        }
        // Every complete request answered; the partial "PI" at the end of the stream dropped; then closed.
        #expect(replies == 50_000)
    }

    @Test("--socket never replaces a file that is not a socket")
    func socketPathIsChecked() throws {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-sock")
        let path = directory + "/notes.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let server = try Server(
            configuration: ServerConfiguration(addresses: [.unix(path: path)], ownerUID: geteuid()),
            commands: .basic,
            logger: Logger(level: .error, clock: { Date() }) { _ in }
        )
        #expect(throws: ServerError.cannotListen(address: "unix:\(path)", reason: "\(path) exists and is not a socket"))
        {
            _ = try server.start()
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test("QUIT answers, then closes the connection")
    func quit() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        #expect(try client.request("QUIT") == "OK BYE")
        #expect(client.isClosedByServer())
    }

    @Test("a client that does not read its replies gets no more than a bounded backlog, then all of them in order")
    func slowReaderIsBounded() throws {
        let bound = 64 * 1024
        let running = try RunningServer(maximumPendingOutput: bound)
        let client = try LineClient(port: running.port)
        // 4.8 MB of replies: more than the kernel's socket buffers hold, so the server's own bound must act.
        let count = 600_000
        let burst = [UInt8](String(repeating: "PING\n", count: count).utf8)
        let writer = Thread { try? client.send(burst) }
        writer.start()
        // The server has stopped reading from the client: its backlog of replies reached the bound.
        #expect(eventually(.seconds(30)) { running.server.statistics.peakPendingOutput >= bound })

        var answered = 0
        while answered < count, let line = try client.readLine() {
            if line != "OK PONG" { break }
            answered += 1
        }
        #expect(answered == count)
        #expect(try client.request("PING") == "OK PONG")
        let peak = running.server.statistics.peakPendingOutput
        // The backlog reached the bound (the test exercised it) and never went past it by more than a reply.
        #expect(peak >= bound && peak < bound + 64, "peak pending output \(peak)")
    }

    @Test("a Unix socket left by a dead server is replaced; one a live server answers on is refused")
    func socketFileHandling() throws {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-sock")
        let path = directory + "/stale.sock"
        // A socket file with nobody behind it, as a crash leaves.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))

        let configuration = ServerConfiguration(addresses: [.unix(path: path)], ownerUID: geteuid())
        let first = try Server(
            configuration: configuration, commands: .basic, logger: Logger(level: .error, clock: { Date() }) { _ in })
        _ = try first.start()
        defer { first.shutdown() }
        #expect(try LineClient(socketPath: path).request("PING") == "OK PONG")

        let second = try Server(
            configuration: configuration, commands: .basic, logger: Logger(level: .error, clock: { Date() }) { _ in })
        #expect(throws: ServerError.socketInUse(path: path)) { _ = try second.start() }
        // The refused server did not take the live server's socket away.
        #expect(try LineClient(socketPath: path).request("PING") == "OK PONG")
    }

    @Test("a TCP port in use is refused with the address in the error, and nothing stays open")
    func portInUse() throws {
        let running = try RunningServer()
        let directory = try TemporaryDirectory.make(prefix: "barkeep-sock")
        let configuration = ServerConfiguration(
            addresses: [.unix(path: directory + "/other.sock"), .tcp(host: "127.0.0.1", port: running.port)],
            ownerUID: geteuid()
        )
        let second = try Server(
            configuration: configuration, commands: .basic, logger: Logger(level: .error, clock: { Date() }) { _ in })
        #expect {
            _ = try second.start()
        } throws: { error in
            guard case ServerError.cannotListen(let address, _) = error else { return false }
            return address == "127.0.0.1:\(running.port)"
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/other.sock"))
    }

    @Test("commands that need a role are refused before their handler runs")
    func rolesAreChecked() throws {
        let table = CommandTable([
            Command("SECRET", minimumRole: .admin) { _ in .done(CommandResult(.ok("classified"))) }
        ])
        let running = try RunningServer(commands: table)
        // TCP peers have no role until they authenticate; the owner on the Unix socket is admin.
        #expect(
            try LineClient(port: running.port).request("SECRET")
                == "ERR NOAUTH SECRET needs a token: send HELLO token=… first"
        )
        #expect(try LineClient(socketPath: running.socketPath).request("SECRET") == "OK classified")
    }

    @Test("shutdown closes every connection and stops listening")
    func shutdown() throws {
        let running = try RunningServer()
        let client = try LineClient(port: running.port)
        #expect(try client.request("PING") == "OK PONG")

        running.server.shutdown()

        #expect(client.isClosedByServer())
        #expect(throws: (any Error).self) { _ = try LineClient(port: running.port) }
        #expect(!FileManager.default.fileExists(atPath: running.socketPath))
        #expect(running.server.statistics.connections == 0)
    }
}
