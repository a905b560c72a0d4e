import BarkeepTestSupport
import Foundation
import Testing

/// Bulk screen and step changes and the filtered dashboard through the binaries, on a project of 150 screens.
@Suite("bulk screen and step commands on 150 screens end to end")
struct BulkCommandsTests {
    /// Five families of thirty screens: Account1…Account30, Inbox…, Settings…, Feed…, Profile….
    static let families = ["Account", "Inbox", "Settings", "Feed", "Profile"]
    static let keys = families.flatMap { family in (1...30).map { "\(family)\($0)" } }

    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// A duo_scan document with a finding in each screen's view: a standalone bar (DUO007, which keeps step 1 open)
    /// in Account1…Account5, a main screen reference (DUO001) in every other screen.
    private func scan() throws -> String {
        let findings = Self.keys.map { key -> [String: Any] in
            let isBar = ["Account1", "Account2", "Account3", "Account4", "Account5"].contains(key)
            return [
                "rule": isBar ? "DUO007" : "DUO001", "severity": isBar ? "medium" : "high",
                "title": isBar ? "Standalone bar instance" : "Main screen reference",
                "file": "Sources/\(key)/\(key)View.swift", "line": 12,
                "snippet": isBar ? "let bar = UIToolbar()" : "let width = UIScreen.main.bounds.width",
            ]
        }
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2", "source_files_scanned": 150, "findings": findings,
        ]
        let file = try TemporaryDirectory.make(prefix: "barkeep-bulk") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("step set --all and screen set --screens in one command each; status --owner holds only that owner's")
    func bulk() throws {
        let daemon = try TestDaemon()
        func run(_ arguments: [String]) throws -> (Int32, String, String) {
            let result = try daemon.barkeep(arguments)
            return (result.0, result.1, result.2)
        }
        #expect(try run(["project", "create", "P"]).0 == 0)
        for key in Self.keys {
            let added = try run(["screen", "add", "P", key, "--path", "Sources/\(key)/**", "--title", "The \(key)"])
            #expect(added.0 == 0, "\(added.2)")
        }
        #expect(try run(["ingest", "P", try scan()]).0 == 0)

        // Step 10 of every screen, in one command.
        let all = try run(["--json", "step", "set", "P", "--all", "10", "not_applicable", "--yes"])
        #expect(all.0 == 0, "\(all.2)")
        let allSteps = try #require(try json(all.1) as? [[String: Any]])
        // The app area has no steps: skipped, with why.
        #expect(allSteps.count == 151)
        #expect(allSteps.filter { $0["outcome"] as? String == "skipped" }.map { $0["screen"] as? String } == ["app"])
        #expect(
            allSteps.filter { $0["outcome"] as? String != "skipped" }.allSatisfy {
                $0["outcome"] as? String == "changed" && $0["state"] as? String == "not_applicable"
            })

        // Step 1 done on the Account screens: the five with an open DUO007 are refused and listed, the rest change.
        let container = try run(["step", "set", "P", "--screens", "Account*", "container", "done", "--yes"])
        #expect(container.0 == 1)
        #expect(container.1.contains("Set step 1 (container) to done on 25 screens; 0 already so; 5 refused."))
        #expect(container.1.contains("Account3  "))
        #expect(container.2.contains("5 screens left as they were"))

        // Owners in one command.
        let owners = try run(["--json", "screen", "set", "P", "--screens", "Account*", "--owner", "ana", "--yes"])
        #expect(owners.0 == 0, "\(owners.2)")
        let owned = try #require(try json(owners.1) as? [[String: Any]])
        #expect(owned.count == 30 && owned.allSatisfy { $0["owner"] as? String == "ana" })

        // The dashboard of ana: only her screens, the owner summary, the project's totals.
        let status = try run(["--json", "status", "P", "--owner", "ana"])
        #expect(status.0 == 0, "\(status.2)")
        let dashboard = try #require(try json(status.1) as? [String: Any])
        let screens = try #require(dashboard["screens"] as? [[String: Any]])
        #expect(screens.count == 30)
        #expect(
            screens.allSatisfy {
                $0["owner"] as? String == "ana" && ($0["key"] as? String)?.hasPrefix("Account") == true
            })
        #expect(screens.first?["title"] as? String == "The Account1")
        let ownerRows = try #require(dashboard["owners"] as? [[String: Any]])
        #expect(ownerRows.count == 1)
        #expect(ownerRows.first?["owner"] as? String == "ana" && ownerRows.first?["screens"] as? Int == 30)
        #expect(ownerRows.first?["needs_work"] as? Int == 30)
        #expect((ownerRows.first?["untriaged"] as? [String: Any])?["medium"] as? Int == 5)
        #expect((ownerRows.first?["untriaged"] as? [String: Any])?["high"] as? Int == 25)
        let selection = try #require(dashboard["selection"] as? [String: Any])
        #expect(selection["owner"] as? String == "ana" && selection["matched"] as? Int == 30)
        let totals = try #require(dashboard["totals"] as? [String: Any])
        #expect(totals["screens"] as? Int == 150 && totals["needs_work"] as? Int == 150)

        // Filters in text: the rows with the most work first, at most five; keys whole in a pipe.
        let top = try run(["status", "P", "--not-done", "--sort", "work", "--limit", "5"])
        #expect(top.0 == 0, "\(top.2)")
        #expect(top.1.contains("Showing    5 of 150 rows · not done · by work"))
        #expect(top.1.contains("Poses      0/900 settled (0%)"))

        // Removing by glob: one command, each key dismissed; a glob that matches nothing is NOTFOUND.
        let removed = try run(["screen", "remove", "P", "--screens", "Profile*", "--yes"])
        #expect(removed.0 == 0, "\(removed.2)")
        #expect(removed.1.hasPrefix("Removed 30 rows matching 'Profile*' with 0 steps done and 0 pose results;"))
        #expect(removed.1.contains("\nProfile10  "))
        let list = try #require(
            try json(try run(["--json", "screen", "list", "P", "--kind", "screen"]).1) as? [[String: Any]])
        #expect(list.count == 120)
        let missing = try run(["step", "set", "P", "--screens", "Profile*", "1", "done", "--yes"])
        #expect(missing.0 == 1 && missing.2.contains("NOTFOUND"))
        let dismissed = try run(["screen", "dismiss", "P", "--list"])
        #expect(dismissed.1.components(separatedBy: "\n").filter { $0.hasPrefix("Profile") }.count == 30)
    }
}
