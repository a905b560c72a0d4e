import BarkeepServer
import BarkeepStore
import BarkeepTestSupport
import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Connections against the limits of the pool and of the server: queueing instead of `BUSY`, the connection limit,
/// and commands whose client left before their turn.
@Suite("Server connection limits")
struct ConnectionLimitTests {
    @Test("300 clients with one request each on a pool of 2 all wait for the database: no BUSY")
    func manyClientsQueue() throws {
        let limit = ServerConfiguration(addresses: [], ownerUID: 0).databaseQueueLimit
        let running = try RunningServer.withDatabase(poolSize: 2, queueLimit: limit)
        let clients = try (0..<300).map { _ in try LineClient(socketPath: running.socketPath) }
        for client in clients { try client.send("PROJECT LIST\n") }
        var replies: [String: Int] = [:]
        for client in clients {
            let first = try client.readLine() ?? "closed"
            replies[String(first.split(separator: " ").prefix(2).joined(separator: " ")), default: 0] += 1
        }
        #expect(replies["ERR BUSY"] == nil, "\(replies)")
        #expect(replies.keys.allSatisfy { $0.hasPrefix("OK") }, "\(replies)")
        #expect(running.pool?.usage.rejected == 0)
    }

    @Test("a command whose client disconnected while it waited for the database never runs")
    func abandonedCommandIsSkipped() throws {
        let running = try RunningServer.withDatabase(poolSize: 1)
        let pool = try #require(running.pool)
        // The only worker is held until the abandoned command is queued behind it.
        let gate = DispatchSemaphore(value: 0)
        try pool.submit({ _ in gate.wait() }, completion: { _ in })
        #expect(eventually(.seconds(10)) { pool.usage.busy == 1 })
        var leaving: LineClient? = try running.owner()
        try leaving?.send("PROJECT CREATE abandoned\n")
        #expect(eventually(.seconds(10)) { pool.usage.queued == 1 })
        leaving = nil
        #expect(eventually(.seconds(10)) { running.server.statistics.connections == 0 })
        gate.signal()
        #expect(eventually(.seconds(10)) { pool.usage.busy == 0 && pool.usage.queued == 0 })
        let owner = try running.owner()
        #expect(try owner.request("PROJECT SHOW abandoned")?.hasPrefix("ERR NOTFOUND") == true)
        let created = try owner.request("PROJECT CREATE kept")
        #expect(created?.hasPrefix("* name=kept") == true, "\(created ?? "closed")")
    }

    @Test("past the connection limit a TCP client is answered ERR BUSY and closed; the Unix socket still serves")
    func connectionLimit() throws {
        let running = try RunningServer(maximumConnections: 3)
        var served = try (0..<3).map { _ in try LineClient(port: running.port) }
        for client in served { #expect(try client.request("PING") == "OK PONG") }
        let refused = try LineClient(port: running.port)
        #expect(try refused.readLine() == "ERR BUSY too many connections; retry later")
        #expect(refused.isClosedByServer())
        let owners = try (0..<3).map { _ in try running.owner() }
        for owner in owners { #expect(try owner.request("PING") == "OK PONG") }
        // Room again once a client leaves.
        served.removeLast()
        _ = owners
        #expect(eventually(.seconds(10)) { running.server.statistics.connections == 5 })
        served.append(try LineClient(port: running.port))
        #expect(try served.last?.request("PING") == "OK PONG")
    }

    /// Opens `sys.argv[2]` connections to the Unix socket `sys.argv[1]`, sends each a PING, keeps those answered,
    /// prints how many were answered and refused, and holds them for a minute.
    private static let fillingClient = """
        import socket, sys, time
        held, ok, busy = [], 0, 0
        for _ in range(int(sys.argv[2])):
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            try:
                s.sendall(b"PING\\n")
            except OSError:
                pass  # Refused: the BUSY line came first and the socket is closed.
            line = s.makefile().readline().strip()
            if line == "OK PONG":
                ok += 1
                held.append(s)
            else:
                busy += 1
                s.close()
        print(f"ok={ok} busy={busy}", flush=True)
        time.sleep(60)
        """

    @Test("the reserve is the owner's: another user filling the Unix socket does not keep the owner out")
    func ownerReserveIsTheOwners() throws {
        // Another user is needed: the tests run as root, which setpriv makes nobody for the other client.
        try #require(geteuid() == 0, "connecting as another user needs root")
        let running = try RunningServer(maximumConnections: 5)
        chmod((running.socketPath as NSString).deletingLastPathComponent, 0o755)
        let others = try Subprocess.spawn(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", Self.fillingClient,
                running.socketPath, "23",
            ])
        defer {
            others.signal(SIGKILL)
            _ = others.wait(timeout: .seconds(10))
        }
        #expect(eventually(.seconds(30)) { others.output.contains("ok=") }, "\(others.errorOutput)")
        // Nobody gets the limit, like any TCP client, and not one connection of the reserve.
        #expect(others.output == "ok=5 busy=18\n", "\(others.errorOutput)")
        let tcp = try LineClient(port: running.port)
        #expect(try tcp.readLine() == "ERR BUSY too many connections; retry later")
        // The owner gets in, through the whole reserve, and no further.
        let owners = try (0..<ServerConfiguration.ownerReserve).map { _ in try running.owner() }
        for owner in owners { #expect(try owner.request("PING") == "OK PONG") }
        #expect(try running.owner().readLine() == "ERR BUSY too many connections; retry later")
    }
}
