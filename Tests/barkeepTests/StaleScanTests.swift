import BarkeepTestSupport
import Foundation
import Testing

/// Scans of old commits end to end: `barkeep ingest --commit` refuses what would undo triage, and `--force`
/// applies it anyway.
@Suite("old commits end to end")
struct StaleScanTests {
    /// The NetNewsWire history's first five scans: file, commit and committer time, from its INDEX.tsv.
    private func history() throws -> [(file: String, commit: String, time: String)] {
        let directory = try #require(Fixtures.directory) + "/duo_scan/history/NetNewsWire/"
        let index = try String(contentsOfFile: directory + "INDEX.tsv", encoding: .utf8)
        let rows = index.split(separator: "\n").dropFirst().prefix(5).map { $0.split(separator: "\t") }
        return rows.map { (directory + String($0[6]), String($0[1]), String($0[2])) }
    }

    private func json(_ daemon: TestDaemon, _ arguments: [String], in directory: String? = nil) throws -> [String: Any]
    {
        let result = try Subprocess.run(
            BuildProducts.path("barkeep"), ["--json"] + arguments, environment: daemon.environment(),
            directory: directory)
        guard result.status == 0 else { throw TestSupportError("barkeep \(arguments) failed: \(result.error)") }
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    @Test("run 3's commit again is CONFLICT naming run 3 and changes nothing; an older commit too; --force applies")
    func oldCommitsRefused() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let runs = try history()
        #expect(runs.count == 5)
        for (number, run) in runs.enumerated() {
            let ingested = try json(
                daemon, ["ingest", "app", run.file, "--commit", run.commit, "--commit-time", run.time])
            #expect(ingested["run"] as? Int == number + 1)
        }
        let findings = try daemon.barkeep(["--json", "findings", "app", "--status", "all"])
        #expect(findings.0 == 0)

        // Run 3's file and commit again: refused, naming run 3; nothing changed.
        let third = runs[2]
        let refused = try daemon.barkeep([
            "ingest", "app", third.file, "--commit", third.commit, "--commit-time", third.time,
        ])
        #expect(refused.0 == 1 && refused.1.isEmpty)
        #expect(
            refused.2
                == "barkeep: commit 737a4472 was ingested as run 3 (duo_scan, whole project); --force to ingest it "
                + "again (CONFLICT)\n")
        #expect(try daemon.barkeep(["--json", "findings", "app", "--status", "all"]).1 == findings.1)

        // A commit never ingested, but older than the latest run's: refused, naming run 5.
        let older = "0123456789abcdef0123456789abcdef01234567"
        let stale = try daemon.barkeep([
            "ingest", "app", runs[1].file, "--commit", older, "--commit-time", "2018-01-01T00:00:00-08:00",
        ])
        #expect(stale.0 == 1)
        #expect(
            stale.2
                == "barkeep: commit 01234567 (committed 2018-01-01T08:00:00Z) is older than commit e54056ce "
                + "(committed 2019-04-22T23:14:42Z) of run 5, the latest run (duo_scan, whole project); --force to "
                + "ingest it anyway (CONFLICT)\n")
        #expect(try daemon.barkeep(["--json", "findings", "app", "--status", "all"]).1 == findings.1)

        // --force applies both, as new runs.
        let forced = try json(
            daemon, ["ingest", "app", third.file, "--commit", third.commit, "--commit-time", third.time, "--force"])
        #expect(forced["run"] as? Int == 6 && forced["repeat"] as? Bool == false)
        #expect(try daemon.barkeep(["--json", "findings", "app", "--status", "all"]).1 != findings.1)
        let shown = try json(daemon, ["run", "show", "app", "6"])
        #expect(shown["commit"] as? String == third.commit)
        #expect(shown["commit_time"] as? String == "2018-02-04T00:07:21.000000Z")
        let olderForced = try json(
            daemon,
            ["ingest", "app", runs[1].file, "--commit", older, "--commit-time", "2018-01-01T00:00:00Z", "--force"])
        #expect(olderForced["run"] as? Int == 7)

        // The runs table shows the commit time beside the commit.
        let table = try daemon.barkeep(["runs", "app", "--limit", "1"]).1.split(separator: "\n")
        #expect(table.first?.contains("COMMIT    COMMITTED") == true)
        #expect(table.last?.contains("01234567  2018-01-01T00:00") == true, "\(table)")
    }

    @Test("inside a git repository the commit time comes from git; --commit-time wins; garbage is BADARG")
    func commitTimeFromGit() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let repository = try TemporaryDirectory.make(prefix: "barkeep-git")
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_COMMITTER_DATE"] = "2026-11-30T10:00:00+01:00"
        environment["GIT_AUTHOR_DATE"] = "2026-11-01T10:00:00+01:00"
        func git(_ arguments: [String]) throws -> String {
            try TestGit.run(repository, arguments, environment: environment)
        }
        _ = try git(["init", "-q", "-b", "main"])
        let scan = repository + "/scan.json"
        try Data(try Fixtures.bytes("duo_scan/history/NetNewsWire/07-1caaf3c1.json")).write(
            to: URL(fileURLWithPath: scan))
        _ = try git(["add", "-A"])
        _ = try git(["commit", "-q", "-m", "scan"])
        let head = try git(["rev-parse", "HEAD"])

        #expect(try json(daemon, ["ingest", "app", scan, "--commit", head], in: repository)["run"] as? Int == 1)
        let run = try json(daemon, ["run", "show", "app", "1"])
        // The committer time, not the author's.
        #expect(run["commit_time"] as? String == "2026-11-30T09:00:00.000000Z")
        let human = try daemon.barkeep(["run", "show", "app", "1"]).1
        #expect(human.contains("Commit time:") && human.contains("2026-11-30T09:00:00.000000Z"))

        // A commit git does not know: no time, so it cannot be ordered after run 1 and is refused, naming how to
        // give the time; forced, it goes in without one. A given time wins over git's.
        let fixtures = try #require(Fixtures.directory) + "/duo_scan/history/NetNewsWire/"
        let second = fixtures + "08-69aeacd9.json"
        let unordered = try Subprocess.run(
            BuildProducts.path("barkeep"), ["ingest", "app", second, "--commit", "abcdef12345"],
            environment: daemon.environment(), directory: repository)
        #expect(unordered.status == 1 && unordered.error.contains("commit abcdef12 came without its commit time"))
        #expect(unordered.error.contains("of run 1") && unordered.error.hasSuffix("(CONFLICT)\n"), "\(unordered.error)")
        #expect(
            try json(daemon, ["ingest", "app", second, "--commit", "abcdef12345", "--force"], in: repository)["run"]
                as? Int == 2)
        #expect(try json(daemon, ["run", "show", "app", "2"])["commit_time"] == nil)
        let third = fixtures + "09-95a8f6d7.json"
        _ = try json(
            daemon, ["ingest", "app", third, "--commit", head, "--commit-time", "2027-01-01T00:00:00Z", "--force"],
            in: repository)
        #expect(
            try json(daemon, ["run", "show", "app", "3"])["commit_time"] as? String == "2027-01-01T00:00:00.000000Z")

        let garbage = try daemon.barkeep(["ingest", "app", scan, "--commit", head, "--commit-time", "yesterday"])
        #expect(garbage.0 == 1 && garbage.2.contains("commit-time") && garbage.2.hasSuffix("(BADARG)\n"))
        // A local time whose offset carries it past year 9999 names no moment the daemon can store.
        let beyond = try daemon.barkeep([
            "ingest", "app", scan, "--commit", head, "--commit-time", "9999-12-31T20:00:00-05:00",
        ])
        #expect(beyond.0 == 1 && beyond.2.hasSuffix("(BADARG)\n"), "\(beyond.2)")
        #expect(try daemon.barkeep(["ingest", "app", scan, "--commit-time", "2026-11-30T10:00:00Z"]).0 == 64)
    }
}
