import BarkeepTestSupport
import Foundation
import Testing

/// The project-wide counts of findings needing work by severity, end to end: the store counts each finding once,
/// STATUS's `type=totals` carries the counts, and the web overview and `barkeep status --json` show them, while a
/// screen's row counts the findings of the components it uses.
@Suite("project totals by severity end to end")
struct OverviewTotalsTests {
    @Test("a component shared by two screens counts its findings once in the totals, under each screen in the rows")
    func sharedComponentOnce() throws {
        let daemon = try TestDaemon(http: true)
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        // Inbox has a high finding of its own; the Menu component, used by Inbox and Feed, a high and a medium one.
        let findings = [
            #"{"rule":"DUO007","severity":"high","file":"Sources/Inbox/View.swift","line":7,"snippet":"a"}"#,
            #"{"rule":"DUO007","severity":"high","file":"Sources/Menu/Menu.swift","line":3,"snippet":"b"}"#,
            #"{"rule":"DUO003","severity":"medium","file":"Sources/Menu/Menu.swift","line":9,"snippet":"c"}"#,
        ]
        let scan = try TemporaryDirectory.make(prefix: "barkeep-totals") + "/scan.json"
        try #"{"tool":"duo_scan","version":"1.2.2","findings":[\#(findings.joined(separator: ","))]}"#.write(
            toFile: scan, atomically: true, encoding: .utf8)
        let commands = [
            ["ingest", "app", scan],
            ["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"],
            ["screen", "add", "app", "Feed", "--path", "Sources/Feed/**"],
            ["screen", "add", "app", "Menu", "--kind", "component", "--path", "Sources/Menu/**"],
            ["screen", "uses", "app", "Inbox", "Menu"],
            ["screen", "uses", "app", "Feed", "Menu"],
        ]
        for command in commands {
            let result = try daemon.barkeep(command)
            #expect(result.0 == 0, "\(command): \(result)")
        }

        let status = try daemon.barkeep(["status", "app", "--json"])
        #expect(status.0 == 0, "\(status)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(status.1.utf8)) as? [String: Any], "\(status)")
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(totals["needs_work"] as? Int == 3)
        #expect(totals["needs_work_high"] as? Int == 2, "\(totals)")
        #expect(totals["needs_work_medium"] as? Int == 1, "\(totals)")
        #expect(totals["needs_work_critical"] as? Int == 0, "\(totals)")
        // The rows, by design, count the component's findings under each screen that uses it: 3 high, 2 medium.
        let rows = try #require(object["screens"] as? [[String: Any]])
        let high = rows.compactMap { $0["high"] as? Int }.reduce(0, +)
        let medium = rows.compactMap { $0["medium"] as? Int }.reduce(0, +)
        #expect(high == 3 && medium == 2, "\(rows)")

        let base = try #require(daemon.httpURL)
        let reader = try HTTPAPITests.token(daemon, "rita", role: "reader")
        let page = try HTTPAPITests.request("GET", base + "/projects/app", token: reader)
        #expect(page.status == 200)
        #expect(page.text.contains("<dt>Needing work</dt><dd>3 findings</dd>"), "\(page.text)")
        #expect(page.text.contains("<dt>By severity</dt><dd>2 high, 1 medium</dd>"), "\(page.text)")
    }
}
