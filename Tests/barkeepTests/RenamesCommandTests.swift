import BarkeepTestSupport
import Foundation
import Testing

/// `barkeep ingest` and renamed files end to end: git's renames found in a checkout, `--renames FILE`,
/// `--no-renames`, and a list that is not one.
@Suite("renamed files end to end")
struct RenamesCommandTests {
    /// A duo_scan document with one DUO001 finding at `file`, line `line`.
    private func scan(_ file: String, line: Int, in directory: String, named name: String) throws -> String {
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": [
                [
                    "id": "DUO001:\(file):\(line)", "rule": "DUO001", "title": "Main screen bounds", "severity": "high",
                    "file": file, "line": line, "snippet": "let size = UIScreen.main.bounds.size",
                ]
            ],
        ]
        let path = directory + "/" + name
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `barkeep --json ARGUMENTS` run in `directory`: its exit status, JSON object and standard error.
    private func barkeep(_ daemon: TestDaemon, _ arguments: [String], in directory: String) throws -> (
        status: Int32, json: [String: Any], error: String
    ) {
        let result = try Subprocess.run(
            BuildProducts.path("barkeep"), ["--json"] + arguments, environment: daemon.environment(),
            directory: directory)
        let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return (result.status, object ?? [:], result.error)
    }

    private func counts(_ json: [String: Any]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for key in ["new", "fixed", "unchanged", "moved", "changed", "renamed"] { counts[key] = json[key] as? Int }
        return counts
    }

    @Test("in a checkout, ingest sends git's renames by itself; --no-renames does not; --renames FILE works outside")
    func renamesFromGit() throws {
        let daemon = try TestDaemon()
        for project in ["app", "plain", "outside"] {
            #expect(try daemon.barkeep(["project", "create", project]).0 == 0)
        }
        let repository = try TemporaryDirectory.make(prefix: "barkeep-renames-git")
        let scans = try TemporaryDirectory.make(prefix: "barkeep-renames-scans")
        func git(_ arguments: [String]) throws -> String {
            let result = try Subprocess.run(
                "/usr/bin/git",
                ["-C", repository, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments,
                environment: ProcessInfo.processInfo.environment)
            guard result.status == 0 else { throw TestSupportError("git \(arguments): \(result.error)") }
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try git(["init", "-q", "-b", "main"])
        try FileManager.default.createDirectory(atPath: repository + "/Old", withIntermediateDirectories: true)
        try Data("import UIKit\n\nlet size = UIScreen.main.bounds.size\n".utf8).write(
            to: URL(fileURLWithPath: repository + "/Old/Inbox.swift"))
        _ = try git(["add", "-A"])
        _ = try git(["commit", "-q", "-m", "first"])
        let first = try git(["rev-parse", "HEAD"])
        _ = try git(["mv", "Old", "New"])
        _ = try git(["commit", "-q", "-m", "rename"])
        let second = try git(["rev-parse", "HEAD"])
        let before = try scan("Old/Inbox.swift", line: 3, in: scans, named: "before.json")
        let after = try scan("New/Inbox.swift", line: 3, in: scans, named: "after.json")

        // In the checkout: the renames go with the scan, and the finding is renamed, not fixed and new.
        let one = try barkeep(daemon, ["ingest", "app", before, "--commit", first], in: repository)
        #expect(one.status == 0 && one.json["new"] as? Int == 1, "\(one.error)")
        let two = try barkeep(daemon, ["ingest", "app", after, "--commit", second], in: repository)
        #expect(two.status == 0 && two.error.isEmpty, "\(two.error)")
        #expect(counts(two.json) == ["new": 0, "fixed": 0, "unchanged": 1, "moved": 1, "changed": 0, "renamed": 1])
        let findings = try daemon.barkeep(["--json", "findings", "app", "--status", "all"])
        #expect(findings.1.contains("New/Inbox.swift") && !findings.1.contains("Old/Inbox.swift"))
        let history = try daemon.barkeep(["finding", "show", "app", "1"]).1
        #expect(history.contains("file renamed: Old/Inbox.swift:3 → New/Inbox.swift:3"), "\(history)")
        let runs = try daemon.barkeep(["runs", "app"]).1
        #expect(runs.contains("RENAMED"), "\(runs)")

        // --no-renames: fixed and new.
        _ = try barkeep(daemon, ["ingest", "plain", before, "--commit", first], in: repository)
        let plain = try barkeep(
            daemon, ["ingest", "plain", after, "--commit", second, "--no-renames"], in: repository)
        #expect(counts(plain.json) == ["new": 1, "fixed": 1, "unchanged": 0, "moved": 0, "changed": 0, "renamed": 0])

        // Outside git, --renames FILE; a garbage file is refused and stores nothing.
        _ = try barkeep(daemon, ["ingest", "outside", before], in: scans)
        let garbage = scans + "/garbage.txt"
        try Data("R100 Old/Inbox.swift New/Inbox.swift\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let refused = try barkeep(daemon, ["ingest", "outside", after, "--renames", garbage], in: scans)
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "barkeep: --renames \(garbage): not git diff --name-status output: renames line 1: expected "
                + "R<score>, a tab, the old path, a tab and the new path\n")
        // The header and run 1: the refused upload recorded no run.
        #expect(try daemon.barkeep(["runs", "outside"]).1.split(separator: "\n").count == 2)
        let list = scans + "/renames.txt"
        try Data("M\tREADME.md\nR097\tOld/Inbox.swift\tNew/Inbox.swift\n".utf8).write(to: URL(fileURLWithPath: list))
        let given = try barkeep(daemon, ["ingest", "outside", after, "--renames", list], in: scans)
        #expect(counts(given.json) == ["new": 0, "fixed": 0, "unchanged": 1, "moved": 1, "changed": 0, "renamed": 1])
        #expect(
            try daemon.barkeep(["ingest", "outside", after, "--renames", list, "--no-renames"]).0 == 64)
    }

    @Test("a checkout without the latest run's commit (a shallow clone) says so once and sends no renames")
    func missingBase() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let repository = try TemporaryDirectory.make(prefix: "barkeep-renames-shallow")
        for arguments in [["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "only"]] {
            let result = try Subprocess.run(
                "/usr/bin/git",
                ["-C", repository, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments,
                environment: ProcessInfo.processInfo.environment)
            #expect(result.status == 0, "git \(arguments): \(result.error)")
        }
        let scans = try TemporaryDirectory.make(prefix: "barkeep-renames-scans")
        let before = try scan("Old/Inbox.swift", line: 3, in: scans, named: "before.json")
        let after = try scan("New/Inbox.swift", line: 3, in: scans, named: "after.json")
        let missing = "0123456789abcdef0123456789abcdef01234567"
        _ = try barkeep(daemon, ["ingest", "app", before, "--commit", missing], in: scans)
        let second = try barkeep(daemon, ["ingest", "app", after], in: repository)
        #expect(second.status == 0)
        #expect(
            second.error
                == "barkeep: no renames sent: this checkout does not have commit 0123456789ab of the latest run (a "
                + "shallow clone?); a finding in a renamed file will be fixed and new\n")
        #expect(counts(second.json)["renamed"] == 0 && counts(second.json)["fixed"] == 1)
    }
}
