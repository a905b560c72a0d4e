import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A daemon out of file descriptors, and one at its connection limit: the event loop stays idle, the owner still
/// gets in on the Unix socket, the embedded cluster is left alone, and everything recovers. docs/reliability.md.
@Suite("descriptors and connection limits", .serialized)
struct DescriptorTests {
    /// Descriptors the process holds now.
    private func descriptorCount(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// The process's CPU time so far (user and system), in seconds.
    private func cpuSeconds(_ pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses: state is field 3, utime 14, stime 15.
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        let ticks = try #require(Double(fields[11])) + #require(Double(fields[12]))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test(
        "400 idle TCP connections against a limit of 256 descriptors: idle loop, owner served, cluster kept, recovery")
    func outOfDescriptors() throws {
        // A connection limit above what the descriptors allow, so that the daemon really runs out.
        let daemon = try EmbeddedDaemon(arguments: ["--max-connections", "1000"], fileLimit: 256)
        let pid = daemon.process.pid
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let postmasterBefore = try daemon.postmasterPID()

        var idle = try (0..<400).map { _ in try LineClient(port: daemon.port) }
        #expect(eventually { descriptorCount(pid) >= 250 }, "the daemon never ran out of descriptors")

        let started = ContinuousClock.now
        let (status, output) = try daemon.barkeep(["ping"])
        let pingTime = ContinuousClock.now - started
        #expect(status == 0, "\(output)")
        #expect(pingTime < .seconds(1), "barkeep ping took \(pingTime)")

        // A measuring window: the daemon's CPU time over 3 s of saturation, during which the cluster stays the same.
        let cpuBefore = try cpuSeconds(pid)
        #expect(try holds(for: .seconds(3)) { try daemon.postmasterPID() == postmasterBefore })
        let cpu = try cpuSeconds(pid) - cpuBefore
        #expect(cpu < 0.75, "the daemon used \(cpu) s of CPU in 3 s")

        #expect(try daemon.postmasterPID() == postmasterBefore)
        let log = daemon.process.errorOutput
        #expect(!log.contains("is gone; restarting"), "\(log.suffix(2000))")

        idle.removeAll()
        // What the last try saw, so that a failure says where the daemon stood.
        var seen = ""
        let recovered = eventually {
            do {
                let reply = try LineClient(port: daemon.port).request("PING")
                seen = reply ?? "the connection ended"
                return reply == "OK PONG"
            } catch {
                seen = "\(error)"
                return false
            }
        }
        #expect(
            recovered,
            "last try: \(seen); descriptors: \(descriptorCount(pid)); log: \(daemon.process.errorOutput.suffix(3000))")
        let after = try daemon.barkeep(["project", "create", "after"])
        #expect(after.0 == 0, "\(after.1)")
        #expect(try daemon.postmasterPID() == postmasterBefore)
    }

    @Test("past --max-connections a TCP client is answered ERR BUSY and closed; barkeep ping on the socket works")
    func connectionLimit() throws {
        let daemon = try TestDaemon(arguments: ["--max-connections", "3"])
        let served = try (0..<3).map { _ in try LineClient(port: daemon.port) }
        for client in served { #expect(try client.request("PING") == "OK PONG") }
        let refused = try LineClient(port: daemon.port)
        #expect(try refused.readLine() == "ERR BUSY too many connections; retry later")
        #expect(refused.isClosedByServer())
        #expect(try daemon.barkeep(["ping"]).0 == 0)
        #expect(daemon.process.errorOutput.contains("max_connections=3"))
    }
}
