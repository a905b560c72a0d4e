import BarkeepTestSupport
import Foundation
import Testing

/// STATUS answered from a kept reply (Schema/0017) by two daemons sharing one database: a write through one is in
/// the other's next STATUS, and each reply equals that of a daemon that kept nothing.
@Suite("STATUS replies kept across daemons end to end")
struct StatusCacheTests {
    @Test("after each write through one daemon, both daemons' STATUS equal a fresh daemon's")
    func writesThroughAnotherDaemon() throws {
        let first = try TestDaemon()
        let second = try TestDaemon(url: first.url)
        func status(_ daemon: TestDaemon, _ arguments: [String] = []) throws -> String {
            let (code, output, error) = try daemon.barkeep(["status", "app", "--json"] + arguments)
            #expect(code == 0, "\(error)")
            return output
        }
        let writes = [
            ["project", "create", "app"], ["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"],
            ["screen", "add", "app", "Settings", "--path", "Sources/Settings/**", "--owner", "ana"],
            ["item", "add", "app", "--screen", "Inbox", "--step", "3", "--title", "Fix the bar"],
            ["step", "set", "app", "Inbox", "1", "done"], ["pose", "record", "app", "Inbox", "P1", "passed"],
            ["screen", "add", "app", "Chip", "--path", "Sources/Chip/**", "--kind", "component"],
            ["item", "add", "app", "--screen", "Chip", "--step", "2", "--title", "Chip bar"],
            ["screen", "uses", "app", "Settings", "Chip"],
            ["screen", "set", "app", "Settings", "--title", "Réglages"], ["sdk", "set", "app", "27.1"],
            ["finding", "set", "app", "1", "approved"], ["project", "set", "app", "--deployment-target", "27.0"],
        ]
        var previous: String?
        for (index, write) in writes.enumerated() {
            // Alternately through each daemon; both have answered STATUS before (and kept the reply).
            let writer = index.isMultiple(of: 2) ? second : first
            let (code, _, error) = try writer.barkeep(write)
            #expect(code == 0, "barkeep \(write.joined(separator: " ")): \(error)")
            guard index > 0 else { continue }
            let fresh = try TestDaemon(url: first.url)
            let expected = try status(fresh)
            let expectedOwned = try status(fresh, ["--owner", "ana"])
            fresh.stop()
            for daemon in [first, second] {
                #expect(try status(daemon) == expected, "after barkeep \(write.joined(separator: " "))")
                #expect(try status(daemon) == expected)
                #expect(try status(daemon, ["--owner", "ana"]) == expectedOwned)
            }
            // A component is not a row of its own: only its findings show (as unmapped while no screen uses it).
            #expect(
                (expected != previous) == (write.prefix(4) != ["screen", "add", "app", "Chip"]),
                "barkeep \(write.joined(separator: " ")) changed what STATUS shows")
            previous = expected
        }
    }
}
