import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// `barkeep source …` through the real CLI against a real daemon that runs no sources (`--no-sources`), so nothing
/// races the commands: what `source add` refuses and how it says so, who may do what, and the records that come
/// back in text and JSON.
@Suite("barkeep source commands end to end")
struct SourceCommandsTests {
    private let barkeep = BuildProducts.path("barkeep")

    // MARK: - Helpers

    /// A daemon that runs no sources, with a project `app`.
    private func makeDaemon() throws -> TestDaemon {
        let daemon = try TestDaemon(arguments: ["--no-sources"])
        let created = try daemon.barkeep(["project", "create", "app"])
        #expect(created.0 == 0, "\(created)")
        return daemon
    }

    private func run(
        _ daemon: TestDaemon,
        _ arguments: [String],
        token: String? = nil
    ) throws -> (Int32, String, String) {
        try daemon.barkeep(arguments, token: token, tcp: token != nil)
    }

    private func json(_ daemon: TestDaemon, _ arguments: [String], token: String? = nil) throws -> Any {
        let (status, output, error) = try run(daemon, ["--json"] + arguments, token: token)
        guard status == 0 else { throw TestSupportError("barkeep \(arguments) failed: \(error)") }
        return try JSONSerialization.jsonObject(with: Data(output.utf8))
    }

    private func list(_ daemon: TestDaemon) throws -> [[String: Any]] {
        try #require(try json(daemon, ["source", "list"]) as? [[String: Any]])
    }

    private func show(_ daemon: TestDaemon, _ id: Int) throws -> [String: Any] {
        try #require(try json(daemon, ["source", "show", String(id)]) as? [String: Any])
    }

    /// The kinds of the events in a shown source's history, oldest first.
    private func history(_ shown: [String: Any]) throws -> [String] {
        try #require(shown["history"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
    }

    /// Expects `barkeep arguments` to fail with exit code 1 and `barkeep: MESSAGE (CODE)`, then the daemon to still
    /// answer, holding the sources `ids`.
    private func expectRefusal(
        _ daemon: TestDaemon,
        _ arguments: [String],
        _ message: String,
        _ code: String,
        token: String? = nil,
        leaving ids: [Int] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (status, output, error) = try run(daemon, arguments, token: token)
        #expect(status == 1, "\(arguments): \(error)", sourceLocation: sourceLocation)
        #expect(output == "", sourceLocation: sourceLocation)
        #expect(error == "barkeep: \(message) (\(code))\n", sourceLocation: sourceLocation)
        #expect(
            try list(daemon).compactMap { $0["id"] as? Int } == ids, "after \(arguments)",
            sourceLocation: sourceLocation)
    }

    /// Expects a usage error: exit code 64, the message, and the pointer to `--help`.
    private func expectUsageError(
        _ daemon: TestDaemon,
        _ arguments: [String],
        _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (status, _, error) = try run(daemon, arguments)
        #expect(status == 64, "\(arguments): \(error)", sourceLocation: sourceLocation)
        #expect(error.contains(message), "\(error)", sourceLocation: sourceLocation)
        #expect(error.contains("See 'barkeep source add --help'."), "\(error)", sourceLocation: sourceLocation)
    }

    /// A git repository with one commit on main; its path.
    private func makeRepository() throws -> String {
        let path = try TemporaryDirectory.make(prefix: "barkeep-repo")
        let environment = ProcessInfo.processInfo.environment
        for arguments in [
            ["init", "-q", "-b", "main"],
            [
                "-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "--allow-empty", "-m",
                "one",
            ],
        ] {
            let result = try Subprocess.run("/usr/bin/git", ["-C", path] + arguments, environment: environment)
            guard result.status == 0 else { throw TestSupportError("git \(arguments): \(result.error)") }
        }
        return path
    }

    /// Makes a token of `role` through the Unix socket; its secret.
    private func makeToken(_ daemon: TestDaemon, _ name: String, role: String) throws -> String {
        let created = try daemon.barkeep(["token", "create", name, "--role", role])
        #expect(created.0 == 0, "\(created)")
        return created.1.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Refusals of source add

    @Test("source add refuses paths that are not a directory or a git repository on the daemon's host")
    func addRefusesPaths() throws {
        let daemon = try makeDaemon()
        let root = try TemporaryDirectory.make(prefix: "barkeep-paths")
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", root + "/missing"],
            "the inbox \(root)/missing is not a directory on the daemon's host", "BADARG")
        // A file is not a directory either.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/file"))
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", root + "/file"],
            "the inbox \(root)/file is not a directory on the daemon's host", "BADARG")
        // A relative path is made absolute from the current directory: missing there, refused with its full path.
        let relative = try Subprocess.run(
            barkeep, ["source", "add", "app", "--inbox", "drop"], environment: daemon.environment(), directory: root)
        #expect(relative.status == 1)
        #expect(relative.error == "barkeep: the inbox \(root)/drop is not a directory on the daemon's host (BADARG)\n")
        // A plain directory is not a repository.
        try expectRefusal(
            daemon, ["source", "add", "app", "--repo", root, "--scanner", "cat {root}/scan.json"],
            "\(root) is not a git repository on the daemon's host", "BADARG")
        try expectRefusal(
            daemon, ["source", "add", "app", "--repo", root + "/missing", "--scanner", "cat {root}/scan.json"],
            "\(root)/missing is not a git repository on the daemon's host", "BADARG")
        // An unknown project, with paths that are fine.
        try expectRefusal(
            daemon, ["source", "add", "ghost", "--inbox", root], "no project named 'ghost'", "NOTFOUND")

        // Once the directory exists, the same relative path is added, absolute.
        try FileManager.default.createDirectory(atPath: root + "/drop", withIntermediateDirectories: false)
        let added = try Subprocess.run(
            barkeep, ["--json", "source", "add", "app", "--inbox", "./drop/"], environment: daemon.environment(),
            directory: root)
        #expect(added.status == 0, "\(added.error)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])
        #expect(record["inbox"] as? String == root + "/drop")
        #expect(record["id"] as? Int == 1)
    }

    @Test(
        "source add refuses system trees, homes' configuration, any daemon's data directory (at, in, above), big trees")
    func addRefusesInboxLocations() throws {
        let daemon = try makeDaemon()
        let data = (daemon.socket as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: data + "/drop", withIntermediateDirectories: false)
        // Another running daemon, as in the incident: its data directory holds its lock.
        let other = try TestDaemon(url: daemon.url, arguments: ["--no-sources"])
        let otherData = (other.socket as NSString).deletingLastPathComponent
        // A team's directory above a data directory.
        let team = try TemporaryDirectory.make(prefix: "barkeep-team")
        try FileManager.default.createDirectory(atPath: team + "/ci/.barkeep/pg", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(atPath: team + "/ci/.barkeep/pg/PG_VERSION", contents: Data("16\n".utf8)))
        let links = try TemporaryDirectory.make(prefix: "barkeep-links")
        #expect(symlink("/var/lib/dpkg", links + "/dpkg") == 0)
        #expect(symlink(otherData, links + "/other") == 0)
        var refusals: [(String, String)] = [
            ("/", "the inbox / is a directory shared by the whole system"),
            ("/tmp", "the inbox /tmp is a directory shared by the whole system"),
            ("/etc", "the inbox /etc is in the system directory /etc"),
            ("/usr/share", "the inbox /usr/share is in the system directory /usr"),
            ("/proc", "the inbox /proc is in the system directory /proc"),
            ("/var/lib/dpkg", "the inbox /var/lib/dpkg is in the system directory /var/lib"),
            ("/var/lib/apt", "the inbox /var/lib/apt is in the system directory /var/lib"),
            ("/var/backups", "the inbox /var/backups is in the system directory /var/backups"),
            (links + "/dpkg", "the inbox /var/lib/dpkg is in the system directory /var/lib"),
            (data, "the inbox \(data) is in the daemon's data directory \(data)"),
            (data + "/drop", "the inbox \(data)/drop is in the daemon's data directory \(data)"),
            (otherData, "the inbox \(otherData) is a data directory of barkeepd: \(otherData) has barkeepd.lock"),
            (
                links + "/other",
                "the inbox \(otherData) is a data directory of barkeepd: \(otherData) has barkeepd.lock"
            ),
            (
                team + "/ci/.barkeep/pg",
                "the inbox \(team)/ci/.barkeep/pg is a PostgreSQL cluster's directory: \(team)/ci/.barkeep/pg has "
                    + "PG_VERSION"
            ),
            (
                team,
                "the inbox \(team) holds a data directory of barkeepd: \(team)/ci/.barkeep has pg/PG_VERSION"
            ),
        ]
        // The daemon's home is the tests' (it inherits HOME); its configuration is tried where it exists.
        if let home = ProcessInfo.processInfo.environment["HOME"],
            FileManager.default.fileExists(atPath: home + "/.config")
        {
            refusals.append(
                (
                    home + "/.config",
                    "the inbox \(home)/.config is in \(home)/.config, a configuration directory of the daemon user's home"
                ))
        }
        for (inbox, message) in refusals {
            try expectRefusal(daemon, ["source", "add", "app", "--inbox", inbox], message, "BADARG")
        }
        #expect(FileManager.default.fileExists(atPath: otherData + "/barkeepd.lock"))

        // A tree larger than a drop folder is refused: it cannot be searched at every run.
        let large = try TemporaryDirectory.make(prefix: "barkeep-large")
        for index in 0...InboxLocation.maximumDirectories {
            try FileManager.default.createDirectory(atPath: large + "/d\(index)", withIntermediateDirectories: false)
        }
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", large],
            "the inbox \(large) holds more than 1000 directories: an inbox is a directory of its own that scans are "
                + "dropped in", "BADARG")

        // A directory of another user: only root can make one to try (the tests' user owns what it makes).
        if geteuid() == 0 {
            let foreign = try TemporaryDirectory.make(prefix: "barkeep-foreign")
            #expect(chown(foreign, 65534, 65534) == 0)
            try expectRefusal(
                daemon, ["source", "add", "app", "--inbox", foreign],
                "the inbox \(foreign) belongs to uid 65534, not to the daemon's user (uid 0)", "BADARG")
        }
        // Nothing was added; a drop folder of its own still is.
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        try FileManager.default.createDirectory(atPath: inbox + "/done", withIntermediateDirectories: false)
        #expect(try run(daemon, ["source", "add", "app", "--inbox", inbox]).0 == 0)
        #expect(try run(daemon, ["--json", "source", "list"]).1.contains("\"id\":1,"))
        withExtendedLifetime(other) {}
    }

    @Test("source add refuses a bad --every, --timeout, --settle, --max-output, --format or branch with BADARG")
    func addRefusesSettings() throws {
        let daemon = try makeDaemon()
        let repository = try makeRepository()
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        let repo = ["source", "add", "app", "--repo", repository, "--scanner", "cat {root}/scan.json"]
        let every = "every must be a duration from 10s to 7d (90, 10m, 1h)"
        try expectRefusal(daemon, repo + ["--every", "5s"], every, "BADARG")
        try expectRefusal(daemon, repo + ["--every", "9"], every, "BADARG")
        try expectRefusal(daemon, repo + ["--every", "abc"], every, "BADARG")
        try expectRefusal(daemon, repo + ["--every", "8d"], every, "BADARG")
        try expectRefusal(
            daemon, repo + ["--timeout", "0"], "timeout must be a duration from 1s to 1d (90, 10m, 1h)", "BADARG")
        try expectRefusal(
            daemon, repo + ["--max-output", "1000"],
            "max-output must be from 1 KiB to 4 GiB (a number of bytes, or 512KiB, 64MiB)", "BADARG")
        try expectRefusal(daemon, repo + ["--branch", "a..b"], "'a..b' is not a valid branch name", "BADARG")
        try expectRefusal(
            daemon, repo + ["--format", "xml"], "format must be duo-scan, sarif, sdk-check", "BADARG")
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", inbox, "--format", "junit"],
            "format must be duo-scan, sarif, sdk-check", "BADARG")
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", inbox, "--settle", "2h"],
            "settle must be a duration from 0s to 1h (90, 10m, 1h)", "BADARG")

        // The limits themselves are accepted.
        let added = try #require(
            try json(daemon, repo + ["--every", "10s", "--timeout", "1d", "--max-output", "1KiB", "--format", "sarif"])
                as? [String: Any])
        #expect(added["every"] as? Int == 10 && added["timeout"] as? Int == 86_400)
        #expect(added["max_output"] as? Int == 1024 && added["format"] as? String == "sarif")
        #expect(added["branch"] as? String == "main" && added["kind"] as? String == "repo")
    }

    @Test("source add usage errors exit 64 before anything is sent")
    func addUsageErrors() throws {
        let daemon = try makeDaemon()
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        try expectUsageError(daemon, ["source", "add", "app"], "give exactly one of --inbox DIR or --repo PATH")
        try expectUsageError(
            daemon, ["source", "add", "app", "--inbox", inbox, "--repo", inbox],
            "give exactly one of --inbox DIR or --repo PATH")
        try expectUsageError(
            daemon, ["source", "add", "app", "--inbox", inbox, "--every", "10m"], "--every is for a --repo source")
        try expectUsageError(
            daemon, ["source", "add", "app", "--repo", inbox, "--scanner", "x", "--settle", "1s"],
            "--settle is for an --inbox source")
        try expectUsageError(daemon, ["source", "add", "app", "--repo", inbox], "--repo needs --scanner")
        #expect(try list(daemon).isEmpty)
    }

    @Test("an inbox another source reads is refused, however it is spelled; the daemon goes on")
    func addRefusesSharedInbox() throws {
        let daemon = try makeDaemon()
        // In a directory of its own, so that the one holding it holds nothing else (no daemon's data directory).
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-parent") + "/inbox"
        #expect(mkdir(inbox, 0o755) == 0)
        #expect(
            try run(daemon, ["source", "add", "app", "--inbox", inbox]).1
                == "Added source 1 to app: inbox \(inbox) (duo-scan). A daemon running sources takes it up at once.\n"
        )
        let link = try TemporaryDirectory.make(prefix: "barkeep-links") + "/inbox-link"
        #expect(symlink(inbox, link) == 0)
        for spelling in [inbox, inbox + "/", inbox + "/./", inbox + "//", link] {
            let (status, output, error) = try run(daemon, ["source", "add", "app", "--inbox", spelling])
            #expect(status == 1 && output == "", "\(spelling): \(error)")
            #expect(error == "barkeep: source 1 already reads the inbox \(inbox) (CONFLICT)\n", "\(error)")
            #expect(try list(daemon).compactMap { $0["id"] as? Int } == [1])
        }
        // Nor a folder inside it, or one holding it: their files would be taken by two sources.
        let inner = inbox + "/nested"
        #expect(mkdir(inner, 0o755) == 0)
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", inner],
            "the inbox \(inner) is inside \(inbox), which source 1 reads", "CONFLICT", leaving: [1])
        let outer = (inbox as NSString).deletingLastPathComponent
        try expectRefusal(
            daemon, ["source", "add", "app", "--inbox", outer],
            "the inbox \(outer) holds \(inbox), which source 1 reads", "CONFLICT", leaving: [1])
        // Nothing was half added: the next source gets the next id, and the history holds one addition.
        let other = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        let added = try #require(try json(daemon, ["source", "add", "app", "--inbox", other]) as? [String: Any])
        let id = try #require(added["id"] as? Int)
        #expect(try list(daemon).compactMap { $0["id"] as? Int } == [1, id])
        #expect(try history(try show(daemon, id)) == ["source.added"])
        #expect(try history(try show(daemon, 1)) == ["source.added"])
    }

    @Test("an unknown or malformed source id is NOTFOUND or BADARG for every command")
    func unknownIDs() throws {
        let daemon = try makeDaemon()
        for command in ["show", "pause", "resume", "run-now", "remove"] {
            try expectRefusal(daemon, ["source", command, "42"], "no source 42", "NOTFOUND")
            try expectRefusal(daemon, ["source", command, "abc"], "a source id is a number", "BADARG")
            try expectRefusal(daemon, ["source", command, "0"], "a source id is a number", "BADARG")
        }
        try expectRefusal(daemon, ["source", "list", "ghost"], "no project named 'ghost'", "NOTFOUND")
    }

    @Test("a malformed id is refused by the CLI itself, in the daemon's words, before it connects (leased commands)")
    func malformedIDsRefusedBeforeConnecting() throws {
        let nowhere = ["--server", "unix:/nonexistent/barkeep.sock"]
        let commands = [
            ("source", ["show", "pause", "resume", "run-now", "remove"]),
            ("hook", ["pause", "resume", "remove", "test"]),
        ]
        for (noun, verbs) in commands {
            for verb in verbs {
                for id in ["abc", "0", "1x"] {
                    let result = try Subprocess.run(barkeep, nowhere + [noun, verb, id])
                    #expect(result.status == 1, "\(noun) \(verb) \(id)")
                    #expect(result.output.isEmpty)
                    #expect(result.error == "barkeep: a \(noun) id is a number (BADARG)\n", "\(result.error)")
                }
            }
        }
    }

    // MARK: - Roles

    @Test("roles: only an admin adds or removes; a writer pauses, resumes and runs; a reader only reads")
    func roles() throws {
        let daemon = try makeDaemon()
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        let writer = try makeToken(daemon, "ci", role: "writer")
        let reader = try makeToken(daemon, "viewer", role: "reader")
        let admin = try makeToken(daemon, "boss", role: "admin")
        let add = ["source", "add", "app", "--inbox", inbox]

        try expectRefusal(daemon, add, "SOURCE ADD needs the admin role", "FORBIDDEN", token: writer)
        try expectRefusal(daemon, add, "SOURCE ADD needs the admin role", "FORBIDDEN", token: reader)
        let added = try #require(try json(daemon, add, token: admin) as? [String: Any])
        #expect(added["id"] as? Int == 1 && added["created_by"] as? String == "token:boss")

        #expect(try run(daemon, ["source", "pause", "1"], token: writer).1 == "Paused source 1.\n")
        #expect(try run(daemon, ["source", "resume", "1"], token: writer).1 == "Resumed source 1.\n")
        #expect(
            try run(daemon, ["source", "run-now", "1"], token: writer).1
                == "Asked for a run of source 1; no daemon holds it now: it runs once one takes it up.\n")
        try expectRefusal(
            daemon, ["source", "remove", "1"], "SOURCE REMOVE needs the admin role", "FORBIDDEN", token: writer,
            leaving: [1])

        for command in ["pause", "resume", "run-now"] {
            let verb = command == "run-now" ? "RUN" : command.uppercased()
            try expectRefusal(
                daemon, ["source", command, "1"], "SOURCE \(verb) needs the writer role", "FORBIDDEN", token: reader,
                leaving: [1])
        }
        try expectRefusal(
            daemon, ["source", "remove", "1"], "SOURCE REMOVE needs the admin role", "FORBIDDEN", token: reader,
            leaving: [1])
        #expect(try (json(daemon, ["source", "list"], token: reader) as? [[String: Any]])?.count == 1)
        #expect(try (json(daemon, ["source", "show", "1"], token: reader) as? [String: Any])?["id"] as? Int == 1)
        // Without a token, TCP gets nothing.
        let anonymous = try daemon.barkeep(["source", "list"], tcp: true)
        #expect(anonymous.0 == 1)
        #expect(anonymous.2 == "barkeep: SOURCE LIST needs a token: pass --token or set BARKEEP_TOKEN (NOAUTH)\n")

        let shown = try show(daemon, 1)
        #expect(try history(shown) == ["source.added", "source.paused", "source.resumed", "source.requested"])
        let actors = try #require(shown["history"] as? [[String: Any]]).compactMap { $0["actor"] as? String }
        #expect(actors == ["token:boss", "token:ci", "token:ci", "token:ci"])

        #expect(try run(daemon, ["source", "remove", "1"], token: admin).1 == "Removed source 1.\n")
        #expect(try list(daemon).isEmpty)
    }

    // MARK: - Records

    @Test("list and show round-trip in JSON; pause, resume, run-now and remove change what they show")
    func lifecycle() throws {
        let daemon = try makeDaemon()
        let inbox = try TemporaryDirectory.make(prefix: "barkeep-inbox")
        let repository = try makeRepository()
        #expect(try run(daemon, ["project", "create", "web"]).0 == 0)

        let added = try #require(
            try json(daemon, ["source", "add", "app", "--inbox", inbox, "--settle", "30s"]) as? [String: Any])
        let repo = try #require(
            try json(
                daemon,
                [
                    "source", "add", "web", "--repo", repository, "--scanner", "cat {root}/scan.json", "--branch",
                    "release", "--every", "2m",
                ]) as? [String: Any])
        #expect(
            Set(added.keys) == [
                "id", "project", "kind", "format", "state", "inbox", "settle", "created", "created_by",
                "next_run",
            ])
        #expect(added["id"] as? Int == 1 && added["project"] as? String == "app")
        #expect(added["kind"] as? String == "inbox" && added["format"] as? String == "duo-scan")
        #expect(added["state"] as? String == "active" && added["inbox"] as? String == inbox)
        #expect(added["settle"] as? Int == 30)
        #expect(
            Set(repo.keys) == [
                "id", "project", "kind", "format", "state", "repo", "branch", "scanner", "every", "timeout",
                "max_output", "created", "created_by", "next_run",
            ])
        #expect(repo["id"] as? Int == 2 && repo["project"] as? String == "web" && repo["repo"] as? String == repository)
        #expect(repo["branch"] as? String == "release" && repo["every"] as? Int == 120)
        #expect(repo["timeout"] as? Int == 600 && repo["max_output"] as? Int == 64 << 20)
        #expect(repo["scanner"] as? String == "cat {root}/scan.json")

        // list and show give back what add returned; list filters by project.
        let listed = try list(daemon)
        #expect(listed.count == 2)
        #expect(NSDictionary(dictionary: listed[0]) == NSDictionary(dictionary: added))
        #expect(NSDictionary(dictionary: listed[1]) == NSDictionary(dictionary: repo))
        let webOnly = try #require(try json(daemon, ["source", "list", "web"]) as? [[String: Any]])
        #expect(webOnly.compactMap { $0["id"] as? Int } == [2])
        var shown = try show(daemon, 1)
        #expect(try history(shown) == ["source.added"])
        shown["history"] = nil
        #expect(NSDictionary(dictionary: shown) == NSDictionary(dictionary: added))

        // The text forms.
        let table = try run(daemon, ["source", "list"]).1.split(separator: "\n").map(String.init)
        #expect(table.count == 3 && table[0].hasPrefix("ID") && table[0].contains("HOLDER"))
        #expect(table[1].contains("inbox \(inbox)") && table[1].contains("on arrival") && table[1].hasSuffix("none"))
        #expect(table[2].contains("repo \(repository) @release") && table[2].contains("never"))
        let text = try run(daemon, ["source", "show", "2"]).1
        #expect(
            text.contains("Limits:") && text.contains("checks every 2m, scanner killed after 10m or 64MiB of output"))
        #expect(text.contains("State:") && text.contains("active") && text.contains("Holder:"))

        // Pause: paused, no next run; pausing again changes nothing.
        let paused = try #require(try json(daemon, ["source", "pause", "1"]) as? [String: Any])
        #expect(paused["state"] as? String == "paused" && paused["next_run"] == nil)
        #expect(try run(daemon, ["source", "pause", "1"]).1 == "Paused source 1.\n")
        #expect(try show(daemon, 1)["state"] as? String == "paused")
        #expect(try list(daemon).compactMap { $0["state"] as? String } == ["paused", "active"])

        // Resume: active and due again.
        let resumed = try #require(try json(daemon, ["source", "resume", "1"]) as? [String: Any])
        #expect(resumed["state"] as? String == "active" && resumed["next_run"] is String)

        // Run now: asked for, shown until a daemon runs it.
        let requested = try #require(try json(daemon, ["source", "run-now", "2"]) as? [String: Any])
        #expect(requested["run_requested"] as? Bool == true && requested["id"] as? Int == 2)
        #expect(try show(daemon, 2)["run_requested"] as? Bool == true)
        #expect(try show(daemon, 1)["run_requested"] == nil)

        shown = try show(daemon, 1)
        #expect(try history(shown) == ["source.added", "source.paused", "source.resumed"])
        let events = try #require(shown["history"] as? [[String: Any]])
        #expect(events.first?["to"] as? String == "inbox \(inbox)")
        #expect(events.allSatisfy { $0["subject"] as? String == "source 1" && $0["project"] as? String == "app" })
        let sequence = events.compactMap { $0["seq"] as? Int }
        #expect(sequence.count == 3 && sequence == sequence.sorted())

        // Remove: gone from list and show; its removal recorded.
        #expect(try json(daemon, ["source", "remove", "1"]) as? [String: Int] == ["removed": 1])
        #expect(try list(daemon).compactMap { $0["id"] as? Int } == [2])
        try expectRefusal(daemon, ["source", "show", "1"], "no source 1", "NOTFOUND", leaving: [2])
        #expect(try run(daemon, ["source", "remove", "2"]).1 == "Removed source 2.\n")
        #expect(
            try run(daemon, ["source", "list"]).1
                == "No sources. Add one with: barkeep source add PROJECT --inbox DIR, or --repo PATH --scanner CMD\n")
        #expect(try run(daemon, ["--json", "source", "list"]).1 == "[]\n")

        let database = try PostgresConnection(configuration: PostgresConfiguration(conninfo: daemon.url))
        defer { database.close() }
        let removals = try database.query(
            "SELECT subject, from_value FROM events WHERE kind = 'source.removed' ORDER BY seq"
        ).map { row in [row.values[0] ?? "", row.values[1] ?? ""] }
        #expect(
            removals == [["source 1", "inbox \(inbox)"], ["source 2", "repo \(repository) branch release"]])
    }

    // MARK: - Help

    @Test("source --help and source add --help print to standard output and exit 0")
    func help() throws {
        let group = try Subprocess.run(barkeep, ["source", "--help"])
        #expect(group.status == 0 && group.error == "")
        for word in ["add", "list", "show", "pause", "resume", "run-now", "remove", "--inbox", "--repo"] {
            #expect(group.output.contains(word), "\(word)")
        }
        let add = try Subprocess.run(barkeep, ["source", "add", "--help"])
        #expect(add.status == 0 && add.error == "")
        for option in ["--inbox DIR", "--repo PATH", "--scanner COMMAND", "--every DURATION", "--format FORMAT"] {
            #expect(add.output.contains(option), "\(option)")
        }
        // Help wins over a mistake on the same line.
        #expect(try Subprocess.run(barkeep, ["source", "add", "--every", "5s", "--help"]).status == 0)
    }
}
