import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

/// FINDINGS `limit=`/`after=` against a real daemon: pages by number that join into the whole list without a gap or
/// a repeat, `OK limit=N next=N` the cursor only while findings follow, bad values `BADARG`; without either key the
/// reply is as it always was. And `barkeep findings --limit/--after`.
@Suite("FINDINGS pages by number")
struct FindingPagesTests {
    /// A daemon with project `app` holding five findings: the first scan's two under Z/ (numbers 1 and 2), then
    /// the second's three under A/ (3 to 5), so that by file and line is not by number; one screen owns them.
    private func makeProject() throws -> TestDaemon {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let directory = try TemporaryDirectory.make(prefix: "barkeep-pages")
        let scan = directory + "/scan.json"
        for files in [["Z/D.swift", "Z/E.swift"], ["Z/D.swift", "Z/E.swift", "A/A.swift", "A/B.swift", "A/C.swift"]] {
            let findings = files.map { file in
                #"{"rule":"DUO003","severity":"medium","file":"\#(file)","line":1,"snippet":"s \#(file)"}"#
            }
            try #"{"tool":"duo_scan","version":"1.2.2","findings":[\#(findings.joined(separator: ","))]}"#.write(
                toFile: scan, atomically: true, encoding: .utf8)
            let ingested = try daemon.barkeep(["ingest", "app", scan])
            #expect(ingested.0 == 0, "\(ingested)")
        }
        #expect(try daemon.barkeep(["screen", "add", "app", "Home", "--path", "**"]).0 == 0)
        return daemon
    }

    /// The records and the final line of the reply to `line`.
    private func exchange(_ client: LineClient, _ line: String) throws -> (numbers: [Int], final: String) {
        try client.send(line + "\n")
        var numbers: [Int] = []
        while let reply = try client.readLine() {
            if reply.hasPrefix("OK") || reply.hasPrefix("ERR") { return (numbers, reply) }
            if let match = reply.firstMatch(of: /\sid=([0-9]+)/), let number = Int(match.1) { numbers.append(number) }
        }
        return (numbers, "(closed)")
    }

    @Test("limit=2 pages follow next= by number through every finding; without limit= the reply is unchanged")
    func wirePages() throws {
        let daemon = try makeProject()
        defer { daemon.stop() }
        let client = try LineClient(socketPath: daemon.socket)
        let whole = try exchange(client, "FINDINGS app")
        #expect(whole.final == "OK count=5" && whole.numbers.count == 5, "\(whole)")
        #expect(whole.numbers != whole.numbers.sorted(), "by file and line, not by number: \(whole)")
        var paged: [Int] = []
        var after: Int?
        var finals: [String] = []
        for _ in 0..<5 {
            let page = try exchange(client, "FINDINGS app limit=2" + (after.map { " after=\($0)" } ?? ""))
            paged += page.numbers
            finals.append(page.final)
            guard let next = page.final.firstMatch(of: /next=([0-9]+)/).flatMap({ Int($0.1) }) else { break }
            #expect(next == page.numbers.last)
            after = next
        }
        #expect(paged == whole.numbers.sorted(), "\(paged)")
        #expect(finals == ["OK limit=2 next=2 count=2", "OK limit=2 next=4 count=2", "OK limit=2 count=1"])
        // after= alone: the default page; a filter narrows the page; after past the last: an empty last page.
        let rest = try exchange(client, "FINDINGS app after=3")
        #expect(rest.numbers == [4, 5] && rest.final == "OK limit=\(FindingPage.defaultLimit) count=2", "\(rest)")
        let filtered = try exchange(client, "FINDINGS app file=A limit=1")
        #expect(filtered.numbers == [3] && filtered.final == "OK limit=1 next=3 count=1", "\(filtered)")
        #expect(try exchange(client, "FINDINGS app after=99").final == "OK limit=500 count=0")
        for (key, value) in [
            ("limit", "0"), ("limit", "-1"), ("limit", String(FindingPage.maximumLimit + 1)), ("limit", "ten"),
            ("after", "0"), ("after", "-3"), ("after", "x"), ("after", "2147483648"),
        ] {
            let refused = try exchange(client, "FINDINGS app \(key)=\(value)")
            #expect(refused.final.hasPrefix("ERR BADARG \(key) "), "\(key)=\(value): \(refused)")
        }
        let tooLarge = try exchange(client, "FINDINGS app limit=\(FindingPage.maximumLimit + 1)").final
        #expect(tooLarge.contains("must be a number from 1 to \(FindingPage.maximumLimit)"), "\(tooLarge)")
    }

    @Test("barkeep findings --limit --after: a page and the next one's --after; --json rows and summary.next")
    func cliPages() throws {
        let daemon = try makeProject()
        defer { daemon.stop() }
        let first = try daemon.barkeep(["findings", "app", "--limit", "2"])
        let lines = first.1.split(separator: "\n")
        #expect(first.0 == 0 && lines.count == 4, "\(first)")
        #expect(lines.last == "More follow: the next page is --after 2.", "\(first.1)")
        let last = try daemon.barkeep(["findings", "app", "--after", "4", "--limit", "2"])
        #expect(last.0 == 0 && last.1.split(separator: "\n").count == 2 && !last.1.contains("More follow"), "\(last)")
        let json = try daemon.barkeep(["findings", "app", "--limit", "2", "--after", "1", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.1.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(rows.compactMap { $0["id"] as? Int } == [2, 3] && summary["next"] as? Int == 3, "\(json.1)")
        #expect(summary["limit"] as? Int == 2)
        let end = try daemon.barkeep(["findings", "app", "--after", "3", "--json"])
        let endObject = try #require(try JSONSerialization.jsonObject(with: Data(end.1.utf8)) as? [String: Any])
        #expect((endObject["summary"] as? [String: Any])?["next"] is NSNull, "\(end.1)")
        // Without a flag: every finding, the array as before.
        let all = try daemon.barkeep(["findings", "app", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(all.1.utf8)) as? [[String: Any]])?.count == 5)
        for limit in ["0", String(FindingPage.maximumLimit + 1), "x"] {
            let refused = try daemon.barkeep(["findings", "app", "--limit", limit])
            #expect(refused.0 == 64 && refused.2.contains("--limit must be a number from 1 to"), "\(refused)")
        }
        #expect(try daemon.barkeep(["findings", "app", "--after", "0"]).0 == 64)
        #expect(try daemon.barkeep(["findings", "app", "--limit", "2", "--format", "csv"]).0 == 64)
    }
}
