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

    @Test("in a checkout, ingest and check send git's renames by themselves; --no-renames not; --renames FILE outside")
    func renamesFromGit() throws {
        let daemon = try TestDaemon()
        for project in ["app", "plain", "outside"] {
            #expect(try daemon.barkeep(["project", "create", project]).0 == 0)
        }
        let repository = try TemporaryDirectory.make(prefix: "barkeep-renames-git")
        let scans = try TemporaryDirectory.make(prefix: "barkeep-renames-scans")
        @discardableResult
        func git(_ arguments: [String]) throws -> String { try TestGit.run(repository, arguments) }
        try git(["init", "-q", "-b", "main"])
        try FileManager.default.createDirectory(atPath: repository + "/Old", withIntermediateDirectories: true)
        try Data("import UIKit\n\nlet size = UIScreen.main.bounds.size\n".utf8).write(
            to: URL(fileURLWithPath: repository + "/Old/Inbox.swift"))
        try git(["add", "-A"])
        try git(["commit", "-q", "-m", "first"])
        let first = try git(["rev-parse", "HEAD"])
        try git(["mv", "Old", "New"])
        try git(["commit", "-q", "-m", "rename"])
        let second = try git(["rev-parse", "HEAD"])
        let before = try scan("Old/Inbox.swift", line: 3, in: scans, named: "before.json")
        let after = try scan("New/Inbox.swift", line: 3, in: scans, named: "after.json")

        // In the checkout: the renames go with the scan, and the finding is renamed, not fixed and new.
        let one = try barkeep(daemon, ["ingest", "app", before, "--commit", first], in: repository)
        #expect(one.status == 0 && one.json["new"] as? Int == 1, "\(one.error)")
        // A check of the renamed scan, in the checkout, sends the renames too: the finding is tracked (in its new
        // file), not new and fixed; without them it would be both.
        let checked = try barkeep(daemon, ["check", "app", after, "--commit", second, "--no-record"], in: repository)
        let summary = checked.json["summary"] as? [String: Any] ?? [:]
        #expect(checked.status == 0 && checked.error.isEmpty, "\(checked.error)")
        #expect(["new", "fixes", "tracked"].map { summary[$0] as? Int } == [0, 0, 1], "\(summary)")
        let row = (checked.json["rows"] as? [[String: Any]])?.first
        #expect(row?["class"] as? String == "tracked" && row?["file"] as? String == "New/Inbox.swift")
        let unrenamed = try barkeep(
            daemon, ["check", "app", after, "--commit", second, "--no-record", "--no-renames"], in: repository)
        let unrenamedSummary = unrenamed.json["summary"] as? [String: Any] ?? [:]
        #expect(unrenamed.status == 1, "the new high finding fails the gate")
        #expect(["new", "fixes", "tracked"].map { unrenamedSummary[$0] as? Int } == [1, 1, 0], "\(unrenamedSummary)")

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
        // The scan fits --max-upload, the renames before it do not: refused before sending, nothing stored.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: after)[.size] as? Int)
        let tooLong = try barkeep(
            daemon, ["ingest", "outside", after, "--renames", list, "--max-upload", String(size + 8)], in: scans)
        #expect(tooLong.status == 1 && tooLong.error.contains("renames hold more than the upload limit"))
        #expect(tooLong.error.contains("(TOOLONG)"), "\(tooLong.error)")
        #expect(try daemon.barkeep(["runs", "outside"]).1.split(separator: "\n").count == 2)
        let given = try barkeep(daemon, ["ingest", "outside", after, "--renames", list], in: scans)
        #expect(counts(given.json) == ["new": 0, "fixed": 0, "unchanged": 1, "moved": 1, "changed": 0, "renamed": 1])
        #expect(
            try daemon.barkeep(["ingest", "outside", after, "--renames", list, "--no-renames"]).0 == 64)
    }

    @Test(
        "INGEST renames=N: bad renames, a count past the payload, renames with an SDK check are BADARG; good ones rename"
    )
    func protocolRenames() throws {
        let daemon = try TestDaemon()
        let client = try LineClient(socketPath: daemon.socket)
        try UploadLimitsTests.createProject(client)
        let scans = try TemporaryDirectory.make(prefix: "barkeep-renames-protocol")
        let before = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: scan("Old/A.swift", line: 3, in: scans, named: "1"))))
        let after = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: scan("New/A.swift", line: 3, in: scans, named: "2"))))
        func ingest(_ renames: [UInt8], _ scan: [UInt8], format: String = "duo-scan", count: Int? = nil) throws
            -> String
        {
            try client.send(
                Array(
                    "INGEST app format=\(format) renames=\(count ?? renames.count) \(renames.count + scan.count)\n".utf8
                )
                    + renames + scan)
            return try UploadLimitsTests.reply(client, within: .seconds(60)) ?? "no reply"
        }
        #expect(try ingest([], before).hasPrefix("OK run=1 new=1 "))
        let refusals: [([UInt8], String, Int?, String)] = [
            (
                Array("M\tx\nR100 Old/A.swift New/A.swift\n".utf8), "duo-scan", nil,
                "ERR BADARG the renames are not valid: renames line 2: expected R<score>, a tab, the old path, a tab "
                    + "and the new path"
            ),
            ([0x52, 0x31, 0x09, 0xFF, 0x09, 0x61, 0x0A], "duo-scan", nil, "ERR BADARG the renames are not UTF-8"),
            (
                Array("R100\tOld/A.swift\tNew/A.swift\n".utf8), "duo-scan", 1_000_000,
                "ERR BADARG renames=1000000 is more than"
            ),
            (
                Array("R100\tOld/A.swift\tNew/A.swift\n".utf8), "sdk-check", nil,
                "ERR BADARG an SDK check takes no renames"
            ),
        ]
        for (renames, format, count, refusal) in refusals {
            let answer = try ingest(renames, after, format: format, count: count)
            #expect(answer.hasPrefix(refusal), "\(answer)")
        }
        #expect(try daemon.barkeep(["runs", "app"]).1.split(separator: "\n").count == 2)
        let renamed = try ingest(Array("R100\tOld/A.swift\tNew/A.swift\n".utf8), after)
        #expect(
            renamed.hasPrefix("OK run=2 new=0 fixed=0 reopened=0 unchanged=1 moved=1 changed=0 renamed=1 "),
            "\(renamed)")
    }

    @Test("a checkout without the latest run's commit (a shallow clone) says so once and sends no renames")
    func missingBase() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let repository = try TemporaryDirectory.make(prefix: "barkeep-renames-shallow")
        try TestGit.run(repository, ["init", "-q", "-b", "main"])
        try TestGit.run(repository, ["commit", "-q", "--allow-empty", "-m", "only"])
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
