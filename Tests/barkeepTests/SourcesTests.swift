import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Sync sources end to end: real daemons on a real database, a real inbox folder and a real git repository made by
/// the test, driven through the CLI as a user would.
@Suite("sync sources end to end")
struct SourcesTests {
    /// Short leases, so a takeover happens within seconds (a claim every second).
    static let daemonArguments = ["--source-lease", "3"]

    // MARK: - Helpers

    private func run(_ daemon: TestDaemon, _ arguments: [String]) throws -> (Int32, String, String) {
        try daemon.barkeep(arguments)
    }

    private func json(_ daemon: TestDaemon, _ arguments: [String]) throws -> Any {
        let (status, output, error) = try run(daemon, ["--json"] + arguments)
        guard status == 0 else { throw TestSupportError("barkeep \(arguments) failed: \(error)") }
        return try JSONSerialization.jsonObject(with: Data(output.utf8))
    }

    private func source(_ daemon: TestDaemon, _ id: Int) throws -> [String: Any] {
        try #require(try json(daemon, ["source", "show", String(id)]) as? [String: Any])
    }

    private func runs(_ daemon: TestDaemon, _ project: String) throws -> [[String: Any]] {
        try #require(try json(daemon, ["runs", project]) as? [[String: Any]])
    }

    /// Polls `condition` every 100 ms (a look may run the CLI) until it holds or `timeout` passes; whether it held.
    private func eventually(_ timeout: Duration = .seconds(20), _ condition: () throws -> Bool) rethrows -> Bool {
        try BarkeepTestSupport.eventually(timeout, every: .milliseconds(100), condition)
    }

    /// Asks source `id` for a run and waits until its runner has taken the request (an inbox lists its folder right
    /// after): `run-requested` is gone from `source show`.
    private func runNow(_ daemon: TestDaemon, _ id: Int) throws {
        #expect(try run(daemon, ["source", "run-now", String(id)]).0 == 0)
        #expect(try eventually { try source(daemon, id)["run_requested"] == nil })
    }

    /// Drops a scan no other step of a test uses, under `name`, and waits until the inbox has taken it: a file the
    /// source reads after everything it was already doing, so what it would have done wrong before is done by then.
    private func dropBarrier(as name: String, in inbox: String) throws {
        try drop(try fixture("all-rules.json"), as: name, in: inbox)
        #expect(eventually { exists(inbox + "/done/" + name) })
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private func fixture(_ name: String) throws -> Data {
        Data(try Fixtures.bytes("duo_scan/" + name))
    }

    /// Writes `data` as a cooperative producer does: under a temporary name, then renamed into place.
    private func drop(_ data: Data, as name: String, in directory: String) throws {
        let temporary = directory + "/." + name + ".part"
        try data.write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, directory + "/" + name) == 0)
    }

    /// A daemon with a project `app` and an inbox source (id 1) reading a new folder; the folder.
    private func inboxDaemon(settle: String = "1s") throws -> (TestDaemon, String) {
        let daemon = try TestDaemon(arguments: Self.daemonArguments)
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        let added = try run(daemon, ["source", "add", "app", "--inbox", inbox, "--settle", settle])
        #expect(added.0 == 0 && added.1.hasPrefix("Added source 1 to app: inbox \(inbox) (duo-scan)."), "\(added)")
        return (daemon, inbox)
    }

    // MARK: - Drop folder

    @Test("a dropped file is ingested once and moved to done/, across a restart and a file dropped while down")
    func droppedFileIngestedOnce() throws {
        var (daemon, inbox) = try inboxDaemon()
        try drop(try fixture("gilrodar_ToolBar.json"), as: "toolbar.json", in: inbox)
        #expect(eventually { exists(inbox + "/done/toolbar.json") })
        #expect(!exists(inbox + "/toolbar.json"))
        let first = try runs(daemon, "app")
        #expect(first.count == 1 && first.first?["actor"] as? String == "source:1")
        let shown = try source(daemon, 1)
        #expect(shown["last_outcome"] as? String == "ok")
        #expect(shown["last_scan_run"] as? Int == first.first?["id"] as? Int)
        let history = try #require(shown["history"] as? [[String: Any]])
        #expect(history.map { $0["kind"] as? String } == ["source.added", "source.run"])
        #expect(history.last?["reason"] as? String == "toolbar.json: run \(first.first?["id"] as? Int ?? 0)")

        // A run asked for lists the folder again: nothing new, nothing ingested twice (a file dropped after the
        // listing is taken after it).
        try runNow(daemon, 1)
        try dropBarrier(as: "barrier.json", in: inbox)
        #expect(try runs(daemon, "app").count == 2)

        // Down: a file dropped meanwhile waits; the next daemon ingests it, and only it.
        let url = daemon.url
        daemon.stop()
        try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json").write(
            to: URL(fileURLWithPath: inbox + "/chat.json"))
        daemon = try TestDaemon(url: url, arguments: Self.daemonArguments)
        #expect(eventually { exists(inbox + "/done/chat.json") })
        #expect(names(in: inbox + "/done") == ["barrier.json", "chat.json", "toolbar.json"])
        #expect(names(in: inbox) == ["done"])
        #expect(try runs(daemon, "app").count == 3)

        // The same bytes dropped again are a repeat: moved to done/ under a free name, no new run.
        try drop(try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json"), as: "chat.json", in: inbox)
        #expect(eventually { exists(inbox + "/done/chat-2.json") })
        #expect(try runs(daemon, "app").count == 3)
    }

    @Test("alone on its database, a daemon's ingest from its inbox shows in the next STATUS of a kept connection")
    func ingestVoidsKeptChecks() throws {
        let (daemon, inbox) = try inboxDaemon()
        let created = try run(daemon, ["token", "create", "dash", "--role", "reader"])
        let token = try #require(created.1.split(separator: "\n").first.map(String.init))
        let client = try daemon.connectionWhenSole(token: token)
        func stats() throws -> String? { try TestDaemon.stats("status-lookups", on: client) }
        // A connection's first STATUS goes to the pool, its second looks the status version up on the loop; the next
        // ones use what that lookup kept.
        let made = try client.reply("STATUS app")
        #expect(try client.reply("STATUS app") == made)
        let lookups = try stats()
        #expect(try client.reply("STATUS app") == made)
        #expect(try stats() == lookups)
        try drop(try fixture("gilrodar_ToolBar.json"), as: "toolbar.json", in: inbox)
        #expect(eventually { exists(inbox + "/done/toolbar.json") })
        let after = try client.reply("STATUS app")
        #expect(after != made && after.last?.hasPrefix("OK") == true)
        #expect(try stats() != lookups)
    }

    @Test("a half-written file is not ingested until it is complete")
    func halfWrittenFileWaits() throws {
        let (daemon, inbox) = try inboxDaemon(settle: "3s")
        let data = try fixture("gilrodar_ToolBar.json")
        let path = inbox + "/toolbar.json"
        // Created in place (FileManager.createFile would write a temporary file and rename it in: complete at once).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(descriptor >= 0)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // Written in place, a small piece every 100 ms for 4 s: longer than the 3 s settle time, but never still for
        // it until the last piece. The file must stay where it is all along.
        let pieces = 40
        let size = data.count / pieces
        for index in 0..<pieces - 1 {
            handle.write(data[(index * size)..<((index + 1) * size)])
            try handle.synchronize()
            #expect(holds(for: .milliseconds(100)) { exists(path) && !exists(inbox + "/done") })
        }
        #expect(!exists(inbox + "/failed"))
        handle.write(data[((pieces - 1) * size)...])
        try handle.close()
        #expect(try runs(daemon, "app").isEmpty)
        #expect(eventually { exists(inbox + "/done/toolbar.json") })
        #expect(!exists(inbox + "/failed"))
        #expect(try runs(daemon, "app").count == 1)

        // Under a temporary name a file is never taken, however long it stays, not even by a listing asked for;
        // renamed, it is taken at once.
        let temporary = inbox + "/chat.json.tmp"
        try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json").write(to: URL(fileURLWithPath: temporary))
        #expect(holds(for: .seconds(1)) { exists(temporary) })
        try runNow(daemon, 1)
        try dropBarrier(as: "barrier.json", in: inbox)
        #expect(exists(temporary))
        #expect(try runs(daemon, "app").count == 2)
        #expect(rename(temporary, inbox + "/chat.json") == 0)
        #expect(eventually(.seconds(2.5)) { exists(inbox + "/done/chat.json") })
    }

    @Test("a garbage file lands in failed/ with a .error saying what barkeep ingest would say")
    func garbageFileFails() throws {
        let (daemon, inbox) = try inboxDaemon()
        let garbage = Data(#"{"tool": "duo_scan", "findings": [{"rule": 7}]"#.utf8)
        let elsewhere = try TemporaryDirectory.make(prefix: "barkeep-garbage") + "/scan.json"
        try garbage.write(to: URL(fileURLWithPath: elsewhere))
        try drop(garbage, as: "scan.json", in: inbox)
        #expect(eventually { exists(inbox + "/failed/scan.json") })
        let error = try String(contentsOfFile: inbox + "/failed/scan.json.error", encoding: .utf8)
        let cli = try run(daemon, ["ingest", "app", elsewhere, "--format", "duo-scan"])
        #expect(cli.0 == 1)
        #expect(cli.2 == "barkeep: " + error, "\(cli.2) vs \(error)")
        #expect(error.hasSuffix("(BADARG)\n") && error.contains("not valid"))

        let shown = try source(daemon, 1)
        #expect(shown["last_outcome"] as? String == "failed")
        #expect(shown["last_error"] as? String == "scan.json: " + error.dropLast())
        #expect(try runs(daemon, "app").isEmpty)
        // The inbox goes on: a good file after the bad one is ingested.
        try drop(try fixture("gilrodar_ToolBar.json"), as: "good.json", in: inbox)
        #expect(eventually { exists(inbox + "/done/good.json") })
        #expect(try source(daemon, 1)["last_outcome"] as? String == "ok")
    }

    @Test("a source added, paused or resumed through another daemon is acted on at once by the one running sources")
    func commandsWakeTheRunner() throws {
        // A long lease: the next renewal is 20 s away, so only the wake-up can explain a take-up within 12 s (room for
        // a loaded machine). The commands go to a second daemon that runs no sources, so the wake-up crosses daemons.
        let runner = try TestDaemon(arguments: ["--source-lease", "60"])
        let daemon = try TestDaemon(url: runner.url, arguments: ["--no-sources"])
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        // A first source, taken by the runner: its claims have begun, so the next one is 20 s away.
        let first = try TemporaryDirectory.make(prefix: "barkeep-inbox-first")
        #expect(try run(daemon, ["source", "add", "app", "--inbox", first]).0 == 0)
        #expect(try eventually(.seconds(10)) { try source(daemon, 1)["holder"] != nil })
        #expect(try run(daemon, ["source", "add", "app", "--inbox", inbox, "--settle", "1s"]).0 == 0)
        try drop(try fixture("gilrodar_ToolBar.json"), as: "toolbar.json", in: inbox)
        #expect(eventually(.seconds(12)) { exists(inbox + "/done/toolbar.json") })

        #expect(try run(daemon, ["source", "pause", "2"]).0 == 0)
        #expect(try eventually(.seconds(12)) { try source(daemon, 2)["holder"] == nil })
        try drop(try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json"), as: "chat.json", in: inbox)
        #expect(holds(for: .seconds(1)) { exists(inbox + "/chat.json") })
        #expect(try run(daemon, ["source", "resume", "2"]).0 == 0)
        #expect(eventually(.seconds(12)) { exists(inbox + "/done/chat.json") })
        #expect(try runs(daemon, "app").count == 2)

        // A repository scanned once; asked through the other daemon, it is scanned again at once although its head
        // did not move.
        let repository = try makeRepository()
        let scanner = "cat {root}/scan.json"
        #expect(
            try run(daemon, ["source", "add", "app", "--repo", repository, "--scanner", scanner, "--every", "1h"]).0
                == 0)
        func scans() throws -> Int {
            try #require(try source(daemon, 3)["history"] as? [[String: Any]])
                .filter { $0["kind"] as? String == "source.run" }.count
        }
        #expect(try eventually(.seconds(12)) { try scans() == 1 })
        #expect(try run(daemon, ["source", "run-now", "3"]).0 == 0)
        #expect(try eventually(.seconds(12)) { try scans() == 2 })
    }

    @Test("a refused file moved back once its cause is fixed is taken again; done/ as a link is never followed")
    func refusedFileRetriedAndLinksRefused() throws {
        // An upload limit the fixture does not fit: refused with TOOLONG.
        var daemon = try TestDaemon(arguments: Self.daemonArguments + ["--max-upload", "1024"])
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        #expect(try run(daemon, ["source", "add", "app", "--inbox", inbox]).0 == 0)
        try drop(try fixture("gilrodar_ToolBar.json"), as: "toolbar.json", in: inbox)
        #expect(eventually { exists(inbox + "/failed/toolbar.json") })
        let error = try String(contentsOfFile: inbox + "/failed/toolbar.json.error", encoding: .utf8)
        #expect(error.contains("upload limit of 1024 bytes") && error.hasSuffix("(TOOLONG)\n"), "\(error)")

        // The limit raised, the very same file (same inode, time and size) moved back in is a new drop.
        let url = daemon.url
        daemon.stop()
        daemon = try TestDaemon(url: url, arguments: Self.daemonArguments)
        #expect(rename(inbox + "/failed/toolbar.json", inbox + "/toolbar.json") == 0)
        #expect(eventually { exists(inbox + "/done/toolbar.json") })
        #expect(try runs(daemon, "app").count == 1)

        // An inbox whose done/ is a symbolic link: nothing is taken from it and nothing written through the link
        // until it is a directory, and the source says why the file stays.
        let linked = try TemporaryDirectory.make(prefix: "barkeep-inbox-linked")
        let outside = try TemporaryDirectory.make(prefix: "barkeep-outside")
        #expect(symlink(outside, linked + "/done") == 0)
        #expect(try run(daemon, ["source", "add", "app", "--inbox", linked]).0 == 0)
        try drop(try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json"), as: "chat.json", in: linked)
        #expect(
            try eventually {
                (try source(daemon, 2)["last_error"] as? String)?.contains(linked + "/done must be a directory") == true
            })
        #expect(holds(for: .seconds(1.5)) { names(in: outside).isEmpty && exists(linked + "/chat.json") })
        #expect(try runs(daemon, "app").count == 1)
        // One problem, one event: not one per look.
        let history = try #require(try source(daemon, 2)["history"] as? [[String: Any]])
        #expect(history.map { $0["kind"] as? String } == ["source.added", "source.run"])
    }

    @Test("an inbox whose directory turns into another daemon's data directory is paused, moves nothing, stays paused")
    func inboxTurnedDataDirectoryIsPaused() throws {
        let (daemon, inbox) = try inboxDaemon()
        try dropBarrier(as: "first.json", in: inbox)
        // The incident: a running daemon's data directory, whose lock an inbox moved to failed/.
        let other = try TestDaemon(url: daemon.url, arguments: ["--no-sources"])
        let otherData = (other.socket as NSString).deletingLastPathComponent
        try drop(try fixture("all-rules.json"), as: "scan.json", in: otherData)
        #expect(rename(inbox, inbox + ".old") == 0)
        #expect(symlink(otherData, inbox) == 0)

        #expect(try eventually { try source(daemon, 1)["state"] as? String == "paused" })
        let expected =
            "the inbox \(otherData) is a data directory of barkeepd: \(otherData) has barkeepd.lock: the source is "
            + "paused and no file was moved"
        let shown = try source(daemon, 1)
        #expect(shown["last_error"] as? String == expected)
        #expect(shown["last_outcome"] as? String == "failed")
        let history = try #require(shown["history"] as? [[String: Any]])
        #expect(history.suffix(2).map { $0["kind"] as? String } == ["source.run", "source.paused"])
        #expect(history.last?["reason"] as? String == expected)
        #expect(names(in: otherData).contains("barkeepd.lock") && exists(otherData + "/scan.json"))
        #expect(!exists(otherData + "/done") && !exists(otherData + "/failed"))
        #expect(try other.barkeep(["ping"]).0 == 0)

        // Resumed as it is, it would only be paused again: refused, with the reason.
        let resumed = try run(daemon, ["source", "resume", "1"])
        #expect(resumed.0 == 1)
        #expect(
            resumed.2
                == "barkeep: the inbox \(otherData) is a data directory of barkeepd: \(otherData) has barkeepd.lock; "
                + "source 1 stays paused (BADARG)\n")
        // The directory put back, it resumes and takes files again.
        #expect(unlink(inbox) == 0 && rename(inbox + ".old", inbox) == 0)
        #expect(try run(daemon, ["source", "resume", "1"]).0 == 0)
        try dropBarrier(as: "second.json", in: inbox)
    }

    // MARK: - Repository

    /// A git repository with one commit on main holding `scan.json`; its path.
    private func makeRepository() throws -> String {
        let path = try TemporaryDirectory.make(prefix: "barkeep-repo")
        try git(path, ["init", "-q", "-b", "main"])
        try fixture("gilrodar_ToolBar.json").write(to: URL(fileURLWithPath: path + "/scan.json"))
        try commit(path, "first scan")
        return path
    }

    @discardableResult
    private func git(_ repository: String, _ arguments: [String]) throws -> String {
        try TestGit.run(repository, arguments)
    }

    private func commit(_ repository: String, _ message: String) throws {
        try git(repository, ["add", "-A"])
        try git(repository, ["commit", "-q", "-m", message])
    }

    @Test("a commit to the watched branch leads to exactly one run carrying that commit")
    func commitRunsOnce() throws {
        let daemon = try TestDaemon(arguments: Self.daemonArguments)
        let repository = try makeRepository()
        let first = try git(repository, ["rev-parse", "HEAD"])
        let seenDirectory = try TemporaryDirectory.make(prefix: "barkeep-env")
        // As root the scanner runs as nobody (--scanner-user), which must be able to write there.
        chmod(seenDirectory, 0o777)
        let seen = seenDirectory + "/env"
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        let scanner = "env > \(seen); cat {root}/scan.json"
        #expect(
            try run(daemon, ["source", "add", "app", "--repo", repository, "--scanner", scanner, "--every", "10s"]).0
                == 0)
        #expect(try eventually { try runs(daemon, "app").count == 1 })
        #expect(try runs(daemon, "app").first?["commit"] as? String == first)

        // The scanner saw the allow-listed variables and its own, nothing else of the daemon's environment.
        let allowed: Set<String> = [
            "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "USER", "LOGNAME", "PWD", "SHLVL", "_",
            "OLDPWD", "BARKEEP_COMMIT", "BARKEEP_BRANCH", "BARKEEP_PROJECT", "BARKEEP_ROOT", "BARKEEP_SOURCE",
        ]
        let variables = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
            .compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) }
        #expect(Set(variables).isSubset(of: allowed), "\(variables)")
        #expect(variables.contains("BARKEEP_COMMIT"))

        try Data(try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json")).write(
            to: URL(fileURLWithPath: repository + "/scan.json"))
        try commit(repository, "second scan")
        let second = try git(repository, ["rev-parse", "HEAD"])
        #expect(try eventually(.seconds(30)) { try runs(daemon, "app").count == 2 })
        // Past the next check of an unmoved head (the source is due again later than it was): still two runs, one
        // per commit.
        #expect(try eventually { try source(daemon, 1)["last_commit"] as? String == second })
        let due = try #require(try source(daemon, 1)["next_run"] as? String)
        #expect(try eventually(.seconds(30)) { try source(daemon, 1)["next_run"] as? String != due })
        let all = try runs(daemon, "app")
        #expect(all.map { $0["commit"] as? String } == [second, first])
        #expect(all.allSatisfy { $0["actor"] as? String == "source:1" })
        let shown = try source(daemon, 1)
        #expect(shown["last_commit"] as? String == second && shown["last_outcome"] as? String == "ok")
        // The worktrees are gone.
        #expect(try git(repository, ["worktree", "list"]).split(separator: "\n").count == 1)
    }

    @Test("a repository source sends the files renamed since the commit it read last: the finding is renamed")
    func repositoryRenames() throws {
        let daemon = try TestDaemon(arguments: Self.daemonArguments)
        let repository = try TemporaryDirectory.make(prefix: "barkeep-repo-renames")
        try git(repository, ["init", "-q", "-b", "main"])
        func write(_ text: String, to path: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: repository + "/" + path))
        }
        func scan(_ file: String) -> String {
            """
            {"tool":"duo_scan","version":"1.2.2","findings":[{"rule":"DUO001","severity":"high","file":"\(file)",\
            "line":3,"snippet":"let size = UIScreen.main.bounds.size"}]}
            """
        }
        try FileManager.default.createDirectory(atPath: repository + "/Old", withIntermediateDirectories: true)
        try write("import UIKit\n\nlet size = UIScreen.main.bounds.size\n", to: "Old/Inbox.swift")
        try write(scan("Old/Inbox.swift"), to: "scan.json")
        try commit(repository, "first")
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        #expect(
            try run(daemon, ["source", "add", "app", "--repo", repository, "--scanner", "cat {root}/scan.json"]).0 == 0)
        #expect(try eventually { try runs(daemon, "app").count == 1 })
        try git(repository, ["mv", "Old", "New"])
        try write(scan("New/Inbox.swift"), to: "scan.json")
        try commit(repository, "renamed")
        try runNow(daemon, 1)
        #expect(try eventually(.seconds(30)) { try runs(daemon, "app").count == 2 })
        let latest = try #require(try runs(daemon, "app").first)
        #expect(latest["renamed"] as? Int == 1 && latest["new"] as? Int == 0 && latest["fixed"] as? Int == 0)
    }

    @Test("a head already ingested is a failed run with the CONFLICT; run-now forces it, and again is a repeat")
    func repositoryOldCommit() throws {
        let daemon = try TestDaemon(arguments: Self.daemonArguments)
        let repository = try makeRepository()
        let head = try git(repository, ["rev-parse", "HEAD"])
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        // CI uploaded another scan of the same commit first.
        let other = try TemporaryDirectory.make(prefix: "barkeep-scan") + "/other.json"
        try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json").write(to: URL(fileURLWithPath: other))
        #expect(try run(daemon, ["ingest", "app", other, "--commit", head]).0 == 0)
        #expect(
            try run(daemon, ["source", "add", "app", "--repo", repository, "--scanner", "cat {root}/scan.json"]).0 == 0)
        #expect(try eventually { try source(daemon, 1)["last_outcome"] as? String == "failed" })
        let error = try #require(try source(daemon, 1)["last_error"] as? String)
        #expect(
            error.hasSuffix("was ingested as run 1 (duo_scan, whole project); --force to ingest it again (CONFLICT)"))
        #expect(try runs(daemon, "app").count == 1)

        // Asked for by hand: forced, a run of its own with the commit's time.
        #expect(try run(daemon, ["source", "run-now", "1"]).0 == 0)
        #expect(try eventually { try source(daemon, 1)["last_outcome"] as? String == "ok" })
        let scanned = try runs(daemon, "app")
        #expect(scanned.count == 2 && scanned.first?["commit"] as? String == head)
        #expect(scanned.first?["commit_time"] is String)

        // Again by hand, the same output: the same run (a repeat), not a third.
        func sourceRuns() throws -> Int {
            let history = try source(daemon, 1)["history"] as? [[String: Any]] ?? []
            return history.filter { $0["kind"] as? String == "source.run" }.count
        }
        let before = try sourceRuns()
        #expect(try run(daemon, ["source", "run-now", "1"]).0 == 0)
        #expect(try eventually { try sourceRuns() == before + 1 })
        #expect(try runs(daemon, "app").count == 2)
        #expect(try source(daemon, 1)["last_outcome"] as? String == "ok")
    }

    @Test("as root, a repo scanner runs as the scanner user, not root (checked only when the tests run as root)")
    func scannerRunsUnprivileged() throws {
        let daemon = try TestDaemon(arguments: Self.daemonArguments)
        let repository = try makeRepository()
        let directory = try TemporaryDirectory.make(prefix: "barkeep-uid")
        chmod(directory, 0o777)
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        let scanner = "id -u > \(directory)/uid; cat {root}/scan.json"
        #expect(try run(daemon, ["source", "add", "app", "--repo", repository, "--scanner", scanner]).0 == 0)
        #expect(try eventually { try runs(daemon, "app").count == 1 })
        let uid = try String(contentsOfFile: directory + "/uid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if geteuid() == 0 {
            let nobody = try #require(getpwnam("nobody"))
            #expect(uid == String(nobody.pointee.pw_uid))
            #expect(uid != "0")
        } else {
            #expect(uid == String(geteuid()))
        }
    }

    @Test("a scanner that hangs is killed at its time limit and reported")
    func hangingScannerKilled() throws {
        let daemon = try TestDaemon(arguments: Self.daemonArguments)
        let repository = try makeRepository()
        let marker = "6\(UInt32.random(in: 10_000...99_999))"
        #expect(try run(daemon, ["project", "create", "app"]).0 == 0)
        let started = ContinuousClock.now
        let added = try run(
            daemon,
            [
                "source", "add", "app", "--repo", repository, "--scanner", "sleep \(marker)", "--timeout", "2s",
            ])
        #expect(added.0 == 0)
        #expect(try eventually(.seconds(30)) { try source(daemon, 1)["last_outcome"] as? String == "failed" })
        #expect(ContinuousClock.now - started < .seconds(20))
        let shown = try source(daemon, 1)
        let error = try #require(shown["last_error"] as? String)
        #expect(error.hasSuffix("the scanner ran longer than its 2 s limit and was killed"), "\(error)")
        #expect(shown["failures"] as? Int == 1)
        let history = try #require(shown["history"] as? [[String: Any]])
        #expect(history.last?["kind"] as? String == "source.run" && history.last?["to"] as? String == "failed")
        #expect(try runs(daemon, "app").isEmpty)
        // Nothing of the scanner is left running.
        let left = try Subprocess.run("/usr/bin/pgrep", ["-f", "sleep \(marker)"], environment: [:])
        #expect(left.status == 1, "\(left.output)")
        // The text shows it too.
        #expect(try run(daemon, ["source", "show", "1"]).1.contains("Last error:  \(error)"))
    }

    // MARK: - Two daemons

    @Test("two daemons on one database run a source once; the second takes over when the first is killed")
    func twoDaemonsOneLease() throws {
        let first = try TestDaemon(arguments: Self.daemonArguments)
        let second = try TestDaemon(url: first.url, arguments: Self.daemonArguments)
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        #expect(try run(first, ["project", "create", "app"]).0 == 0)
        #expect(try run(first, ["source", "add", "app", "--inbox", inbox, "--settle", "1s"]).0 == 0)
        try drop(try fixture("gilrodar_ToolBar.json"), as: "toolbar.json", in: inbox)
        #expect(eventually { exists(inbox + "/done/toolbar.json") })
        #expect(try runs(first, "app").count == 1)

        let ids = try [first, second].map { daemon in
            try #require(try json(daemon, ["stats"]) as? [String: Any])["server"] as? String
        }
        let holder = try #require(try source(first, 1)["holder"] as? String)
        let index = try #require(ids.firstIndex(of: holder))
        let (killed, survivor) = index == 0 ? (first, second) : (second, first)
        killed.process.signal(SIGKILL)
        _ = killed.process.wait(timeout: .seconds(10))

        try drop(try fixture("AdamYoneda_DiffableDataSourceChatBootcamp.json"), as: "chat.json", in: inbox)
        #expect(eventually(.seconds(30)) { exists(inbox + "/done/chat.json") })
        #expect(try runs(survivor, "app").count == 2)
        #expect(try source(survivor, 1)["holder"] as? String == ids[1 - index])
        #expect(names(in: inbox + "/done") == ["chat.json", "toolbar.json"])
    }
}
