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
}
