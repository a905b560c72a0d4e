import BarkeepTestSupport
import Foundation
import Testing

/// What a new user types, through the binaries: `run PROJECT N`, the `F-N` the CLI prints taken back, errors that
/// name the option to give, usage errors exiting 64, and the system's reason when a file cannot be read.
@Suite("barkeep commands take what the CLI prints end to end")
struct CLIUsageTests {
    /// A duo_scan report with one finding of the Inbox screen.
    private static func scan() throws -> String {
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": [
                [
                    "rule": "DUO011", "severity": "low", "file": "Sources/Inbox/Menu.swift", "line": 20,
                    "snippet": "Menu { more }", "title": "Title", "advice": "Advice.",
                ] as [String: Any]
            ],
        ]
        let path = try TemporaryDirectory.make(prefix: "barkeep-cli-usage") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A daemon with project `app`, screen `Inbox` and one ingested run.
    private static func project() throws -> TestDaemon {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"]).0 == 0)
        #expect(try daemon.barkeep(["ingest", "app", try scan()]).0 == 0)
        return daemon
    }

    @Test("run PROJECT N shows a run as run show does; the help lists both")
    func runNumber() throws {
        let daemon = try Self.project()
        let shown = try daemon.barkeep(["run", "app", "1"])
        #expect(shown.0 == 0 && shown.1.hasPrefix("Run:"), "\(shown)")
        #expect(try daemon.barkeep(["run", "show", "app", "1"]).1 == shown.1)
        #expect(
            try daemon.barkeep(["--json", "run", "app", "1"]).1
                == daemon.barkeep(["--json", "run", "show", "app", "1"]).1)
        #expect(try daemon.barkeep(["run", "app"]).0 == 64)
        #expect(try daemon.barkeep(["run", "app", "9"]).2 == "barkeep: no run 9 in project 'app' (NOTFOUND)\n")
        let help = try daemon.barkeep(["run", "--help"])
        #expect(help.0 == 0 && help.1.contains("USAGE: barkeep run <command> [options] PROJECT NUMBER"))
    }

    @Test("item add prints F-N; finding show, set, comment, item set and pose record --finding take it back")
    func findingLabels() throws {
        let daemon = try Self.project()
        let added = try daemon.barkeep(["item", "add", "app", "--screen", "Inbox", "--step", "3", "--title", "T"])
        let label = try #require(added.1.split(separator: " ").dropFirst(2).first.map(String.init), "\(added)")
        #expect(added.0 == 0 && label.hasPrefix("F-"), "\(added)")
        let number = String(label.dropFirst(2))
        let shown = try daemon.barkeep(["finding", "show", "app", label])
        #expect(shown.0 == 0 && shown.1.hasPrefix("Finding:  \(number)\n"), "\(shown)")
        #expect(try daemon.barkeep(["finding", "show", "app", "f-\(number)"]).1 == shown.1)
        let set = try daemon.barkeep(["finding", "set", "app", "\(label),F-1", "approved"])
        #expect(set.0 == 0, "\(set)")
        #expect(try daemon.barkeep(["finding", "comment", "app", label, "seen"]).0 == 0)
        #expect(try daemon.barkeep(["item", "set", "app", label, "--title", "U"]).0 == 0)
        let pose = try daemon.barkeep([
            "pose", "record", "app", "Inbox", "P3", "failed", "--screenshot", try SampleImages.temporaryFile(),
            "--finding", label,
        ])
        #expect(pose.0 == 0 && pose.1.contains("mapped to finding \(number)"), "\(pose)")
        for bad in ["F-", "F-x", "G-1", "0", "12a"] {
            let refused = try daemon.barkeep(["finding", "show", "app", bad])
            #expect(refused.0 == 64, "\(bad): \(refused)")
            #expect(refused.2.contains("a finding is named by its number in the project, 12 or F-12, not '\(bad)'"))
        }
        #expect(try daemon.barkeep(["finding", "set", "app", "\(label),x", "approved"]).0 == 64)
    }

    @Test("an unknown SDK symbol without --sdk names the option")
    func unknownSymbolNamesOption() throws {
        let daemon = try Self.project()
        let refused = try daemon.barkeep([
            "item", "add", "app", "--screen", "Inbox", "--step", "5", "--title", "T", "--needs", "axisBehaviour",
        ])
        #expect(refused.0 == 1 && refused.2.contains("--sdk VERSION"), "\(refused)")
    }

    @Test("a step or a state the CLI can tell is wrong is a usage error, 64, both alike")
    func badStepIsUsage() throws {
        let daemon = try Self.project()
        for arguments in [
            ["step", "set", "app", "Inbox", "13", "done"], ["step", "set", "app", "Inbox", "order", "finished"],
            ["step", "set", "app", "13", "done", "--all"], ["step", "set", "app", "Inbox", "Order!", "done"],
            ["item", "add", "app", "--screen", "Inbox", "--step", "0", "--title", "T"],
        ] {
            let refused = try daemon.barkeep(arguments)
            #expect(refused.0 == 64, "\(arguments): \(refused)")
        }
        #expect(
            try daemon.barkeep(["step", "set", "app", "Inbox", "13", "done"]).2
                == "barkeep: '13' is not a checklist step: steps are 1 to 12, or a step's key (order)\n"
                + "See 'barkeep step set --help'.\n")
        #expect(try daemon.barkeep(["step", "set", "app", "Inbox", "2", "done"]).0 == 0)
    }

    @Test("ingest of a file it cannot read gives the system's reason")
    func unreadableFile() throws {
        let daemon = try Self.project()
        let directory = try TemporaryDirectory.make(prefix: "barkeep-cli-usage")
        let missing = try daemon.barkeep(["ingest", "app", directory + "/nonexistent.json"])
        #expect(missing.0 == 1)
        #expect(missing.2 == "barkeep: cannot read \(directory)/nonexistent.json: No such file or directory\n")
        let folder = try daemon.barkeep(["ingest", "app", directory])
        #expect(folder.2 == "barkeep: cannot read \(directory): Is a directory\n", "\(folder)")
    }
}
