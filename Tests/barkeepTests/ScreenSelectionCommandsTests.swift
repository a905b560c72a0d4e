import BarkeepTestSupport
import Foundation
import Testing

/// One selection rule for every `--screens` command, their previews, pose results over many screens and a token's
/// person, through the binaries, on a project with debug screens and a debug component (as a real app has).
@Suite("--screens commands: one selection rule, previews before changes, bulk poses, a token's person")
struct ScreenSelectionCommandsTests {
    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// Screens DebugMenu and DebugLogs and Inbox, the component DebugDatabaseTransferSection (used by DebugMenu).
    private func project(_ daemon: TestDaemon) throws {
        #expect(try daemon.barkeep(["project", "create", "P"]).0 == 0)
        for key in ["DebugMenu", "DebugLogs", "Inbox"] {
            #expect(try daemon.barkeep(["screen", "add", "P", key, "--path", "Sources/\(key)/**"]).0 == 0)
        }
        let component = try daemon.barkeep([
            "screen", "add", "P", "DebugDatabaseTransferSection", "--kind", "component", "--path",
            "Sources/DebugDatabaseTransferSection.swift",
        ])
        #expect(component.0 == 0, "\(component.2)")
        #expect(try daemon.barkeep(["screen", "uses", "P", "DebugMenu", "DebugDatabaseTransferSection"]).0 == 0)
    }

    /// The poses each screen must pass, by key (absent: the project's).
    private func poses(_ daemon: TestDaemon) throws -> [String: [String]] {
        let screens = try #require(
            try json(try daemon.barkeep(["--json", "screen", "list", "P"]).1) as? [[String: Any]])
        var poses: [String: [String]] = [:]
        for screen in screens {
            if let key = screen["key"] as? String, let list = screen["poses"] as? [String] { poses[key] = list }
        }
        return poses
    }

    @Test("screen set --screens skips what a component cannot take, after a preview; neither flag changes nothing")
    func screenSet() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        let command = ["screen", "set", "P", "--screens", "*Debug*", "--poses", "none"]

        let preview = try daemon.barkeep(command)
        #expect(preview.0 == 1, "\(preview.2)")
        #expect(preview.1.hasPrefix("Would change 2 of 3 rows matching '*Debug*' (1 skipped in part or whole"))
        #expect(preview.1.contains("DebugDatabaseTransferSection  component"))
        #expect(preview.1.contains("poses skipped: DebugDatabaseTransferSection is a component"))
        #expect(preview.2.contains("nothing changed") && preview.2.contains("--yes"))
        #expect(try poses(daemon).isEmpty)
        let dry = try daemon.barkeep(command + ["--dry-run"])
        #expect(dry.0 == 0 && dry.1 == preview.1)
        #expect(try poses(daemon).isEmpty)

        let done = try daemon.barkeep(command + ["--yes"])
        #expect(done.0 == 0, "\(done.2)")
        #expect(done.1.hasPrefix("Changed 2 of 3 rows matching '*Debug*'"))
        #expect(try poses(daemon) == ["DebugLogs": [], "DebugMenu": []])

        // An owner applies to the component too; one key that cannot take the change is still refused outright.
        let owners = try daemon.barkeep([
            "--json", "screen", "set", "P", "--screens", "Debug*", "--owner", "ana", "--yes",
        ])
        let owned = try #require(try json(owners.1) as? [[String: Any]])
        #expect(owned.count == 3 && owned.allSatisfy { $0["owner"] as? String == "ana" })
        let one = try daemon.barkeep(["screen", "set", "P", "DebugDatabaseTransferSection", "--poses", "none"])
        #expect(one.0 == 1 && one.2.contains("is a component") && one.2.contains("(BADARG)"))
    }

    @Test("screen remove lists keys, kinds, paths and what is lost before removing; the app area is skipped")
    func screenRemove() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        #expect(try daemon.barkeep(["step", "set", "P", "DebugLogs", "1", "done"]).0 == 0)
        #expect(try daemon.barkeep(["pose", "record", "P", "DebugLogs", "P1", "passed"]).0 == 0)

        let preview = try daemon.barkeep(["screen", "remove", "P", "--screens", "Debug*"])
        #expect(preview.0 == 1, "\(preview.2)")
        #expect(preview.1.hasPrefix("Would remove 3 rows matching 'Debug*' with 1 step done and 1 pose result;"))
        let line = try #require(preview.1.split(separator: "\n").first { $0.hasPrefix("DebugLogs ") })
        #expect(line.contains("screen") && line.contains("Sources/DebugLogs/**"))
        #expect(line.split(separator: " ").suffix(3) == ["0", "1", "1"])
        #expect(preview.1.contains("DebugDatabaseTransferSection  component"))
        #expect(preview.2.contains("--yes"))
        #expect(try daemon.barkeep(["screen", "show", "P", "DebugLogs"]).0 == 0)

        let one = try daemon.barkeep(["screen", "remove", "P", "Inbox", "--dry-run"])
        #expect(one.0 == 0 && one.1.hasPrefix("Would remove 1 row Inbox with 0 steps done and 0 pose results;"))

        let all = try daemon.barkeep(["--json", "screen", "remove", "P", "--screens", "*", "--yes"])
        #expect(all.0 == 0, "\(all.2)")
        let removed = try #require(try json(all.1) as? [String: Any])
        #expect((removed["removed"] as? [[String: Any]])?.count == 4)
        let skipped = try #require(removed["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["key"] as? String } == ["app"])
        #expect(try daemon.barkeep(["screen", "show", "P", "DebugLogs"]).0 == 1)
    }

    @Test("step set over a glob lists components as skipped, previews first, and one screen stays direct")
    func stepSet() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        let preview = try daemon.barkeep(["step", "set", "P", "--screens", "Debug*", "container", "not_applicable"])
        #expect(preview.0 == 1)
        #expect(
            preview.1.hasPrefix(
                "Would set step 1 (container) to not_applicable on 2 screens; 0 already so; "
                    + "0 refused; 1 skipped."))
        #expect(preview.1.contains("DebugLogs  todo → not_applicable"))
        #expect(preview.1.contains("the screens that use it have the checklist steps"))
        let done = try daemon.barkeep([
            "--json", "step", "set", "P", "--screens", "Debug*", "container", "not_applicable", "--yes",
        ])
        #expect(done.0 == 0, "\(done.2)")
        let outcomes = try #require(try json(done.1) as? [[String: Any]])
        #expect(outcomes.map { $0["outcome"] as? String } == ["skipped", "changed", "changed"])
        #expect(try daemon.barkeep(["step", "set", "P", "Inbox", "2", "done"]).0 == 0)
        #expect(try daemon.barkeep(["step", "set", "P", "Inbox", "2", "done", "--yes"]).0 == 64)
    }

    @Test("pose record: a component is refused naming its screens; several poses on many screens in one command")
    func poseRecord() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        let component = try daemon.barkeep(["pose", "record", "P", "DebugDatabaseTransferSection", "P1", "passed"])
        #expect(component.0 == 1)
        #expect(component.2.contains("is a component") && component.2.contains("record the result for DebugMenu"))

        let command = ["pose", "record", "P", "--screens", "*Debug*", "P1,P2", "passed"]
        let preview = try daemon.barkeep(command)
        #expect(preview.0 == 1)
        #expect(preview.1.hasPrefix("Would record 4 results (passed); 1 row skipped:\n"))
        let lines = preview.1.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("DebugLogs P2 none → passed"))
        #expect(lines.contains { $0.hasPrefix("DebugDatabaseTransferSection P1,P2 - skipped: ") })
        let recorded = try daemon.barkeep(["--json"] + command + ["--yes"])
        #expect(recorded.0 == 0, "\(recorded.2)")
        let reply = try #require(try json(recorded.1) as? [String: Any])
        #expect(reply["recorded"] as? Int == 4 && reply["skipped"] as? Int == 1)
        let matrix = try daemon.barkeep(["--json", "poses", "P"]).1
        let shown = try #require(try json(matrix) as? [[String: Any]])
        let passed = shown.filter { $0["result"] as? String == "passed" }.compactMap { $0["screen"] as? String }
        #expect(passed.sorted() == ["DebugLogs", "DebugLogs", "DebugMenu", "DebugMenu"])
        // Several poses on one screen preview too.
        #expect(try daemon.barkeep(["pose", "record", "P", "Inbox", "P1,P3", "passed"]).0 == 1)
        #expect(try daemon.barkeep(["pose", "record", "P", "Inbox", "P1,P3", "passed", "--yes"]).0 == 0)
        // The same pose twice is one result: the daemon records it alone, and the CLI says so from its reply.
        let twice = try daemon.barkeep(["pose", "record", "P", "Inbox", "P2,p2", "passed", "--yes"])
        #expect(twice.0 == 0 && twice.1 == "Recorded P2 passed for Inbox.\n", "\(twice)")
    }

    @Test("a token named bo@laptop stands for bo: mine lists bo's screens; --as looks as someone else")
    func tokenPerson() throws {
        let daemon = try TestDaemon()
        try project(daemon)
        #expect(try daemon.barkeep(["screen", "set", "P", "Inbox", "--owner", "bo"]).0 == 0)
        let created = try daemon.barkeep(["token", "create", "bo@laptop", "--role", "reader"])
        let secret = created.1.trimmingCharacters(in: .whitespacesAndNewlines)
        let mine = try daemon.barkeep(["mine", "P"], token: secret, tcp: true)
        #expect(mine.0 == 0, "\(mine.2)")
        #expect(mine.1.hasPrefix("Screens bo owns in P: 1\n") && mine.1.contains("Inbox"))
        let other = try daemon.barkeep(["mine", "P", "--as", "ana"], token: secret, tcp: true)
        #expect(other.1.hasPrefix("Screens ana owns in P: 0\n"))
    }
}
