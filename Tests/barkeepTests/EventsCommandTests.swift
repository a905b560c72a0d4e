import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

/// `EVENTS PROJECT [after=SEQ] [limit=N]` against a real daemon: pages of the event log, oldest first, that join
/// into the whole log of the project without a gap or a repeat, `OK next=` the cursor.
@Suite("EVENTS pages the event log")
struct EventsCommandTests {
    /// The records and the final line of the reply to `line`.
    private func exchange(_ client: LineClient, _ line: String) throws -> (records: [String], final: String) {
        try client.send(line + "\n")
        var records: [String] = []
        while let reply = try client.readLine() {
            if reply.hasPrefix("OK") || reply.hasPrefix("ERR") { return (records, reply) }
            records.append(reply)
        }
        return (records, "(closed)")
    }

    /// The `seq=` of each event record.
    private func sequenceNumbers(_ records: [String]) -> [Int] {
        records.compactMap { record in
            record.split(separator: " ").first { $0.hasPrefix("seq=") }.flatMap { Int($0.dropFirst(4)) }
        }
    }

    @Test("pages of limit=2 follow next= through the whole log, in order, none twice; bad limits are refused")
    func pages() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        for arguments in [
            ["project", "create", "app"], ["project", "create", "other"],
            ["screen", "add", "app", "Menu", "--path", "Sources/Menu.swift"],
            ["screen", "add", "other", "Bar", "--path", "Sources/Bar.swift"],
            ["screen", "add", "app", "Cart", "--path", "Sources/Cart.swift"],
            ["project", "set", "app", "--poses", "P1,P2"],
        ] {
            let (status, output, error) = try daemon.barkeep(arguments)
            #expect(status == 0, "\(arguments): \(output)\(error)")
        }
        let client = try LineClient(socketPath: daemon.socket)
        let whole = try exchange(client, "EVENTS app")
        let all = sequenceNumbers(whole.records)
        #expect(all.count >= 4 && all == all.sorted(), "\(whole)")
        #expect(whole.records.allSatisfy { $0.contains("project=app") })
        #expect(whole.final == "OK next=\(all.last ?? 0) count=\(all.count)")
        var paged: [Int] = []
        var after = 0
        for _ in 0..<all.count {
            let page = try exchange(client, "EVENTS app after=\(after) limit=2")
            let numbers = sequenceNumbers(page.records)
            #expect(numbers.count <= 2)
            paged += numbers
            after = numbers.last ?? after
            #expect(page.final == "OK next=\(after) count=\(numbers.count)")
            if numbers.isEmpty { break }
        }
        #expect(paged == all)
        #expect(try exchange(client, "EVENTS app after=\(after)").final == "OK next=\(after) count=0")
        let tooMany = try exchange(client, "EVENTS app limit=\(EventPage.maximumLimit + 1)")
        #expect(tooMany.final.hasPrefix("ERR BADARG limit must be a number from 1 to \(EventPage.maximumLimit)"))
        #expect(try exchange(client, "EVENTS nowhere").final.hasPrefix("ERR NOTFOUND"))
        // barkeep events: the same page, its JSON the API's body; the next page's command on the last line.
        let json = try daemon.barkeep(["--json", "events", "app", "--limit", "2"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.1.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["seq"] as? Int } == Array(all.prefix(2)))
        #expect((object["summary"] as? [String: Any])?["next"] as? Int == all[1])
        let text = try daemon.barkeep(["events", "app", "--after", String(all[1]), "--limit", "1"])
        #expect(text.0 == 0 && text.1.hasSuffix("Next page: barkeep events app --after \(all[2])\n"), "\(text)")
        for limit in ["0", "1001"] {
            let refused = try daemon.barkeep(["events", "app", "--limit", limit])
            #expect(refused.0 == 64 && refused.2.contains("--limit must be a number from 1 to 1000"), "\(refused)")
        }
        #expect(try exchange(client, "EVENTS app limit=0").final.hasPrefix("ERR BADARG limit must be a number"))
    }
}
