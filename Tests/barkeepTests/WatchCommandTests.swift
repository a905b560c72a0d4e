import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep watch` with filters, through the binaries: the events of a triage done with the CLI name their finding
/// by number and screen.
@Suite("barkeep watch end to end")
struct WatchCommandTests {
    /// Every key an event object of `watch --json` may have.
    static let jsonKeys: Set = [
        "seq", "project", "kind", "subject", "from", "to", "reason", "actor", "at", "finding", "screen", "screens",
    ]

    /// A watcher's JSON lines so far.
    private func events(_ watcher: Subprocess) -> [[String: Any]] {
        watcher.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits until `watcher` printed at least `count` JSON lines, or 20 seconds passed; returns them.
    private func events(_ watcher: Subprocess, count: Int) -> [[String: Any]] {
        let deadline = ContinuousClock.now + .seconds(20)
        var seen = events(watcher)
        while seen.count < count, ContinuousClock.now < deadline {
            usleep(50_000)
            seen = events(watcher)
        }
        return seen
    }

    /// Waits until `watcher` printed `count` lines, or 20 seconds passed; returns them.
    private func lines(_ watcher: Subprocess, count: Int) -> [String] {
        let deadline = ContinuousClock.now + .seconds(20)
        var seen = watcher.output.split(separator: "\n").map(String.init)
        while seen.count < count, ContinuousClock.now < deadline {
            usleep(50_000)
            seen = watcher.output.split(separator: "\n").map(String.init)
        }
        return seen
    }

    /// The number of the finding of `rule` in `file`.
    private func number(_ daemon: TestDaemon, _ rule: String, _ file: String) throws -> Int {
        let output = try daemon.barkeep(["--json", "findings", "app", "--rule", rule, "--file", file]).1
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        return try #require(findings.first?["id"] as? Int, "\(output)")
    }

    private func watch(_ daemon: TestDaemon, _ arguments: [String]) throws -> Subprocess {
        try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["watch", "app", "--since", "0"] + arguments,
            environment: daemon.environment())
    }

    @Test("watch --kind, --screen and --finding follow a triage done with the CLI, each event naming its finding")
    func filteredTriage() throws {
        let daemon = try TestDaemon()
        let fixture = try #require(Fixtures.directory) + "/duo_scan/all-rules.json"
        for command in [
            ["project", "create", "app"], ["ingest", "app", fixture],
            ["screen", "add", "app", "Inbox", "--path", "Sources/Screens.swift"],
            ["screen", "add", "app", "Settings", "--path", "Sources/Unlock.swift"],
            ["screen", "add", "app", "MenuRow", "--path", "Sources/MenuView.swift", "--kind", "component"],
            ["screen", "uses", "app", "Inbox", "MenuRow"], ["screen", "uses", "app", "Settings", "MenuRow"],
        ] {
            let (status, _, error) = try daemon.barkeep(command)
            #expect(status == 0, "\(command): \(error)")
        }
        let triage = [
            (try number(daemon, "DUO007", "Sources/Screens.swift"), "Inbox", ["Inbox"]),
            (try number(daemon, "DUO008", "Sources/MenuView.swift"), "MenuRow", ["Inbox", "Settings"]),
            (try number(daemon, "DUO013", "Sources/Unlock.swift"), "Settings", ["Settings"]),
            (try number(daemon, "DUO002", "Sources/Bar.m"), "unmapped", []),
        ]
        let menu = triage[1].0

        let statuses = try watch(daemon, ["--json", "--kind", "finding.status"])
        let settings = try watch(daemon, ["--json", "--screen", "Settings"])
        let finding = try watch(daemon, ["--json", "--finding", String(menu)])
        let text = try watch(daemon, ["--finding", String(menu), "--kind", "finding.status"])
        defer {
            for watcher in [statuses, settings, finding, text] {
                watcher.signal(SIGKILL)
                _ = watcher.wait(timeout: .seconds(5))
            }
        }
        for (number, _, _) in triage {
            let (status, _, error) = try daemon.barkeep(["finding", "set", "app", String(number), "approved"])
            #expect(status == 0, "\(error)")
        }

        let changed = events(statuses, count: triage.count)
        #expect(changed.count == triage.count, "\(statuses.output)\(statuses.errorOutput)")
        #expect(changed.allSatisfy { Set($0.keys).isSubset(of: Self.jsonKeys) })
        for (event, (number, screen, screens)) in zip(changed, triage) {
            #expect(event["kind"] as? String == "finding.status" && event["to"] as? String == "approved")
            #expect(event["finding"] as? Int == number, "\(event)")
            #expect(event["screen"] as? String == screen && event["screens"] as? [String] == screens, "\(event)")
            #expect(event["project"] as? String == "app" && event["actor"] is String)
        }

        // Settings' own events, and its findings: its file's and the component's it uses.
        let ofSettings = events(settings, count: 4)
        #expect(
            ofSettings.map { "\($0["kind"] as? String ?? "") \($0["finding"] as? Int ?? 0)" } == [
                "screen.added 0", "screen.uses 0", "finding.status \(menu)", "finding.status \(triage[2].0)",
            ])

        // One finding: found by the first import (whose run's event alone announces it), then triaged as the
        // component's.
        let ofMenu = events(finding, count: 1)
        #expect(ofMenu.map { $0["kind"] as? String } == ["finding.status"])
        #expect(ofMenu.map { $0["screen"] as? String } == ["MenuRow"])
        #expect(ofMenu.allSatisfy { $0["finding"] as? Int == menu })

        let printed = lines(text, count: 1)
        #expect(printed.count == 1)
        #expect(
            printed.first?.contains(
                "finding.status  #\(menu) MenuRow  DUO008:Sources/MenuView.swift:4  proposed → approved")
                == true, "\(printed)")
    }

    /// The `barkeep watch` section of docs/cli.md.
    private func documented() throws -> Substring {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/cli.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let start = try #require(text.range(of: "### `barkeep watch`"))
        let end = try #require(text.range(of: "\n### ", range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound]
    }

    @Test("docs/cli.md gives watch's own flags in its synopsis and every key --json prints in its table")
    func docsMatch() throws {
        let section = try documented()
        let synopsis = try #require(section.split(separator: "\n").first { $0.hasPrefix("barkeep watch PROJECT") })
        let help = try Subprocess.run(BuildProducts.path("barkeep"), ["watch", "--help"]).output
        let global: Set = ["--server", "--token", "--tls", "--ca", "--json", "--version", "--help"]
        let flags = Set(help.matches(of: /\n  (--[a-z-]+)/).map { String($0.output.1) }).subtracting(global)
        #expect(Set(synopsis.matches(of: /--[a-z-]+/).map { String($0.output) }) == flags)
        let keys = Set(
            section.matches(of: /\n\| `([a-z_]+)`(, `([a-z_]+)`)? \|/).flatMap { match in
                [String(match.output.1)] + (match.output.3.map { [String($0)] } ?? [])
            })
        #expect(Self.jsonKeys.isSubset(of: keys), "\(Self.jsonKeys.subtracting(keys))")
    }

    @Test("watch refuses an unknown kind before it connects, and the daemon an unknown screen or a bad number")
    func badFilters() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        let kind = try daemon.barkeep(["watch", "app", "--kind", "finding.status,finding.snoozed"])
        #expect(kind.0 == 64 && kind.2.contains("unknown event kind 'finding.snoozed'"), "\(kind)")
        let screen = try daemon.barkeep(["watch", "app", "--screen", "Ghost"])
        #expect(screen.0 == 1 && screen.2.contains("no screen 'Ghost' in project 'app'"), "\(screen)")
        let number = try daemon.barkeep(["watch", "app", "--finding", "x"])
        #expect(number.0 != 0 && number.2.contains("a finding is named by its number"), "\(number)")
    }
}
