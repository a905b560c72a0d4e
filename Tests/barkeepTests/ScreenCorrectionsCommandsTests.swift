import BarkeepTestSupport
import Foundation
import Testing

/// Correcting what discovery proposed, through the binaries: a row's kind in place, components using components in
/// comma lists, `--unowned`, excluded paths and why each unmapped finding is unmapped.
@Suite("screen corrections end to end")
struct ScreenCorrectionsCommandsTests {
    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    private func array(_ text: String) throws -> [[String: Any]] {
        try #require(try json(text) as? [[String: Any]], "not a JSON array: \(text)")
    }

    /// Project `app` with all-rules.json ingested, screens Inbox (Screens.swift) and Settings (Unlock.swift), the
    /// components MenuRow (MenuView.swift) and Strings (Strings.swift).
    private func project(_ daemon: TestDaemon) throws {
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let scan = try #require(Fixtures.directory) + "/duo_scan/all-rules.json"
        #expect(try daemon.barkeep(["ingest", "app", scan]).0 == 0)
        for (key, path) in [("Inbox", "Sources/Screens.swift"), ("Settings", "Sources/Unlock.swift")] {
            #expect(try daemon.barkeep(["screen", "add", "app", key, "--path", path]).0 == 0)
        }
        for (key, path) in [("MenuRow", "Sources/MenuView.swift"), ("Strings", "Sources/Strings.swift")] {
            #expect(try daemon.barkeep(["screen", "add", "app", key, "--kind", "component", "--path", path]).0 == 0)
        }
    }

    @Test("screen uses takes comma lists and components; screen set --kind changes a row in place")
    func usesAndKind() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        let uses = try daemon.barkeep(["screen", "uses", "app", "Inbox", "MenuRow,Sources/Bar.m"])
        #expect(uses.0 == 0, "\(uses.2)")
        #expect(uses.1 == "Screen Inbox uses Bar MenuRow.\n")
        let nested = try daemon.barkeep(["screen", "uses", "app", "MenuRow", "Strings"])
        #expect(nested.1 == "Component MenuRow uses Strings; its findings count for Inbox.\n")
        let round = try daemon.barkeep(["screen", "uses", "app", "Strings", "MenuRow"])
        #expect(round.0 == 1)
        #expect(
            round.2.contains("Strings cannot use MenuRow: MenuRow uses Strings, and a use cannot go round (BADARG)"))
        let inbox = try #require(
            try json(try daemon.barkeep(["--json", "screen", "show", "app", "Inbox"]).1) as? [String: Any])
        #expect((inbox["screen"] as? [String: Any])?["uses"] as? [String] == ["Bar", "MenuRow", "Strings"])
        #expect(
            (inbox["findings"] as? [[String: Any]])?.contains { $0["file"] as? String == "Sources/Strings.swift" }
                == true)

        // Settings becomes a component and back, keeping its step.
        #expect(try daemon.barkeep(["step", "set", "app", "Settings", "2", "not_applicable"]).0 == 0)
        let component = try daemon.barkeep(["screen", "set", "app", "Settings", "--kind", "component"])
        #expect(component.0 == 0, "\(component.2)")
        #expect(component.1.contains("Kind") && component.1.contains("component"))
        #expect(try daemon.barkeep(["screen", "set", "app", "Settings", "--kind", "screen"]).0 == 0)
        let steps = try #require(
            try json(try daemon.barkeep(["--json", "screen", "show", "app", "Settings"]).1) as? [String: Any])
        #expect(
            (steps["steps"] as? [[String: Any]])?.first { $0["step"] as? Int == 2 }?["state"] as? String
                == "not_applicable")
        let bulk = try daemon.barkeep(["screen", "set", "app", "--screens", "*", "--kind", "component"])
        #expect(bulk.0 == 64 && bulk.2.contains("paths, titles and kinds are set one screen at a time"))
        let area = try daemon.barkeep(["screen", "set", "app", "app", "--kind", "component"])
        #expect(area.0 == 1 && area.2.contains("the app area is built in: its kind cannot change"))
    }

    @Test("screen set --screens GLOB --unowned changes only the rows no one owns")
    func unowned() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        #expect(try daemon.barkeep(["screen", "set", "app", "Inbox", "--owner", "ana"]).0 == 0)
        let changed = try daemon.barkeep([
            "screen", "set", "app", "--screens", "*", "--unowned", "--owner", "bo", "--yes",
        ])
        #expect(changed.0 == 0, "\(changed.2)")
        #expect(changed.1.hasPrefix("Changed 4 of 4 rows matching '*' that no one owned"))
        let owners = try array(try daemon.barkeep(["--json", "screen", "list", "app"]).1).map {
            "\($0["key"] as? String ?? "") \($0["owner"] as? String ?? "-")"
        }
        #expect(Set(owners) == ["Inbox ana", "Settings bo", "app bo", "MenuRow bo", "Strings bo"])
        let alone = try daemon.barkeep(["screen", "set", "app", "Inbox", "--unowned", "--owner", "cy"])
        #expect(alone.0 == 64 && alone.2.contains("--unowned narrows --screens GLOB"))
    }

    @Test("findings --screen unmapped says why each is unmapped, in text and JSON; screen exclude says so")
    func unmappedReasons() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        let excluded = try daemon.barkeep(["screen", "exclude", "app", "App/,Sources/Bar.m", "--why", "tests"])
        #expect(excluded.0 == 0, "\(excluded.2)")
        #expect(excluded.1 == "Excluded from the audit: App, Sources/Bar.m.\n")
        let listed = try daemon.barkeep(["screen", "exclude", "app", "--list"])
        #expect(listed.1.contains("App") && listed.1.contains("tests"))

        let unmapped = try array(try daemon.barkeep(["--json", "findings", "app", "--screen", "unmapped"]).1)
        let reasons = Dictionary(grouping: unmapped) { $0["unmapped"] as? String ?? "none" }.mapValues(\.count)
        #expect(reasons == ["unused-component": 3, "excluded": 3])
        #expect(unmapped.first { $0["file"] as? String == "App/AppDelegate.swift" }?["excluded"] as? String == "App")
        let text = try daemon.barkeep(["findings", "app", "--screen", "unmapped"]).1
        #expect(text.contains("UNMAPPED"))
        #expect(text.contains("excluded (Sources/Bar.m)"))
        #expect(text.contains("\nUnmapped: 6 findings no screen counts.\n"))
        #expect(text.contains("  3 unused-component: its component is used by no screen; say which screens use"))
        // A finding a screen counts has none.
        let inbox = try array(try daemon.barkeep(["--json", "findings", "app", "--screen", "Inbox"]).1)
        #expect(!inbox.isEmpty && inbox.allSatisfy { $0["unmapped"] is NSNull && $0["excluded"] is NSNull })
        #expect(!(try daemon.barkeep(["findings", "app", "--screen", "Inbox"]).1.contains("UNMAPPED")))

        #expect(try daemon.barkeep(["screen", "exclude", "app", "App", "--undo"]).1 == "Included again: App.\n")
        let again = try array(try daemon.barkeep(["--json", "findings", "app", "--screen", "unmapped"]).1)
        #expect(again.first { $0["file"] as? String == "App/AppDelegate.swift" }?["unmapped"] as? String == "no-glob")
    }
}
