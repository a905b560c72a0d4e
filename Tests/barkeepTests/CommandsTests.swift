import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The CLI's commands against a real daemon on a real database: what a user types and what they see.
@Suite("barkeep commands end to end")
struct CommandsTests {
    private let barkeep = BuildProducts.path("barkeep")

    private typealias Daemon = TestDaemon

    private func run(_ daemon: Daemon, _ arguments: [String], token: String? = nil, tcp: Bool = false) throws -> (
        Int32, String, String
    ) {
        try daemon.barkeep(arguments, token: token, tcp: tcp)
    }

    @Test("projects: create, list, show, set and delete, in text and JSON")
    func projects() throws {
        let daemon = try Daemon()
        #expect(
            try run(daemon, ["project", "list"]).1 == "No projects yet. Create one with: barkeep project create NAME\n")
        #expect(
            try run(daemon, ["project", "create", "app", "--sdk", "27.0", "--deployment-target", "26.1"]).1
                == "Created project app (SDK 27.0, deployment target 26.1).\n"
        )
        let duplicate = try run(daemon, ["project", "create", "app"])
        #expect(duplicate.0 == 1 && duplicate.2 == "barkeep: a project named 'app' already exists (CONFLICT)\n")

        let list = try run(daemon, ["project", "list"]).1.split(separator: "\n")
        #expect(list.first?.hasPrefix("NAME") == true && list.count == 2 && list[1].hasPrefix("app   27.0  26.1"))

        let shown = try run(daemon, ["--json", "project", "show", "app"]).1
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "app")
        #expect(object["deployment_target"] as? String == "26.1")
        #expect(object["required_poses"] as? [String] == ["P1", "P2", "P3", "P4", "P11", "P12"])

        #expect(try run(daemon, ["project", "set", "app", "--sdk", "27.1"]).1.contains("SDK:               27.1"))
        #expect(try run(daemon, ["project", "set", "app"]).0 == 64)
        #expect(try run(daemon, ["project", "show", "ghost"]).2 == "barkeep: no project named 'ghost' (NOTFOUND)\n")
        #expect(try run(daemon, ["project", "delete", "app"]).0 == 64)
        #expect(try run(daemon, ["project", "delete", "app", "--yes"]).1 == "Deleted project app.\n")
        #expect(try run(daemon, ["--json", "project", "list"]).1 == "[]\n")
    }

    @Test("tokens: shown once, needed over TCP, roles enforced, revocation immediate")
    func tokens() throws {
        let daemon = try Daemon()
        let created = try run(daemon, ["token", "create", "ci", "--role", "writer"])
        let secret = created.1.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(created.0 == 0 && secret.hasPrefix("bk_") && created.2.contains("shown only now"))
        #expect(try run(daemon, ["token", "create", "x", "--role", "god"]).0 == 64)

        let anonymous = try run(daemon, ["project", "list"], tcp: true)
        #expect(anonymous.0 == 1)
        #expect(anonymous.2 == "barkeep: PROJECT LIST needs a token: pass --token or set BARKEEP_TOKEN (NOAUTH)\n")
        #expect(try run(daemon, ["project", "list"], token: secret, tcp: true).0 == 0)
        #expect(
            try run(daemon, ["project", "create", "app"], token: secret, tcp: true).2
                == "barkeep: PROJECT CREATE needs the admin role (FORBIDDEN)\n"
        )

        let listed = try run(daemon, ["--json", "token", "list"]).1
        #expect(!listed.contains(secret) && listed.contains("\"name\":\"ci\""))
        #expect(try run(daemon, ["token", "revoke", "ci"]).1 == "Revoked token ci.\n")
        #expect(
            try run(daemon, ["project", "list"], token: secret, tcp: true).2
                == "barkeep: the token was refused: it is unknown or revoked (NOAUTH)\n"
        )
    }

    @Test("scans: ingest, repeat, garbage refused, runs, findings, finding show and set")
    func scans() throws {
        let daemon = try Daemon()
        _ = try run(daemon, ["project", "create", "app"])
        let history = try #require(Fixtures.directory).appending("/duo_scan/history/NetNewsWire/")

        let first = try run(daemon, ["--json", "ingest", "app", history + "07-1caaf3c1.json", "--commit", "1caaf3c1"])
        #expect(first.0 == 0)
        #expect(
            first.1
                == #"{"run":1,"new":10,"fixed":0,"reopened":0,"unchanged":0,"moved":0,"changed":0,"renamed":0,"open":10,"repeat":false}"#
                + "\n")
        let second = try run(daemon, ["ingest", "app", history + "08-69aeacd9.json"])
        #expect(
            second.1 == "Run 2: 9 new, 7 fixed, 0 reopened, 3 unchanged (2 moved), 0 changed. 12 findings need work.\n")
        let repeated = try run(daemon, ["ingest", "app", history + "08-69aeacd9.json"])
        #expect(repeated.1.hasPrefix("Run 2 already has this content: nothing changed."))
        // A repeat says what this upload changed: nothing, whatever run 2 changed.
        let repeatedJSON = try run(daemon, ["--json", "ingest", "app", history + "08-69aeacd9.json"]).1
        #expect(
            repeatedJSON
                == #"{"run":2,"new":0,"fixed":0,"reopened":0,"unchanged":0,"moved":0,"changed":0,"renamed":0,"open":12,"repeat":true}"#
                + "\n")

        // Garbage: refused with the place in the document, and nothing stored.
        let root = try TemporaryDirectory.make(prefix: "barkeep-scan")
        try Data(
            #"{"tool":"duo_scan","findings":[{"rule":"DUO001","severity":"high","file":"a","line":"x","snippet":""}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: root + "/bad.json"))
        let bad = try run(daemon, ["ingest", "app", root + "/bad.json"])
        #expect(bad.0 == 1)
        #expect(bad.2.contains("findings[0].line: expected an integer (BADARG)"))

        let runs = try run(daemon, ["--json", "runs", "app"]).1
        let runList = try #require(try JSONSerialization.jsonObject(with: Data(runs.utf8)) as? [[String: Any]])
        #expect(runList.map { $0["id"] as? Int } == [2, 1])
        #expect(runList.last?["commit"] as? String == "1caaf3c1")
        #expect(runList.first?["new"] as? Int == 9 && runList.first?["changed"] as? Int == 0)

        let listed = try run(daemon, ["--json", "findings", "app", "--status", "proposed"]).1
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(!findings.isEmpty)
        let keys = Set([
            "id", "source", "rule", "title", "severity", "file", "line", "snippet", "status", "screen", "assignee",
            "step", "needs", "gate", "first_seen_run", "last_seen_run", "still_reported_run", "unmapped", "excluded",
        ])
        #expect(findings.allSatisfy { Set($0.keys) == keys })
        let id = try #require(findings.first?["id"] as? Int)

        #expect(try run(daemon, ["finding", "set", "app", String(id), "declined"]).0 == 64)
        #expect(
            try run(daemon, ["finding", "set", "app", String(id), "declined", "--reason", "design keeps it"]).1
                == "Finding \(id) of app is now declined.\n")
        let shown = try run(daemon, ["--json", "finding", "show", "app", String(id)]).1
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        let events = try #require(object["history"] as? [[String: Any]])
        #expect(object["status"] as? String == "declined" && object["reason"] as? String == "design keeps it")
        // Found by the first import, which announced it in its run's event alone: its first run says when.
        #expect(events.map { $0["kind"] as? String } == ["finding.status"])
        #expect(object["first_seen_run"] as? Int == 1)
        #expect(
            try run(daemon, ["finding", "show", "app", "999999"]).2
                == "barkeep: no finding 999999 in project 'app' (NOTFOUND)\n")
        // A finding is named with its project: a number alone is a usage error.
        #expect(try run(daemon, ["finding", "show", String(id)]).0 == 64)

        // A run by its number in the project.
        let shownRun = try run(daemon, ["--json", "run", "show", "app", "1"]).1
        let runObject = try #require(try JSONSerialization.jsonObject(with: Data(shownRun.utf8)) as? [String: Any])
        #expect(runObject["id"] as? Int == 1 && runObject["commit"] as? String == "1caaf3c1")
        #expect(try run(daemon, ["run", "show", "app", "3"]).2 == "barkeep: no run 3 in project 'app' (NOTFOUND)\n")
    }

    @Test("numbers are per project: each project's first run is run 1 and its first finding 1")
    func numbersPerProject() throws {
        let daemon = try Daemon()
        let history = try #require(Fixtures.directory).appending("/duo_scan/history/NetNewsWire/")
        for project in ["app", "other"] { _ = try run(daemon, ["project", "create", project]) }
        _ = try run(daemon, ["ingest", "app", history + "07-1caaf3c1.json"])
        _ = try run(daemon, ["ingest", "app", history + "12-be35a643.json"])
        let other = try run(daemon, ["--json", "ingest", "other", history + "12-be35a643.json"])
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(other.1.utf8)) as? [String: Any])
        #expect(counts["run"] as? Int == 1)

        func findings(_ project: String) throws -> [[String: Any]] {
            let listed = try run(daemon, ["--json", "findings", project, "--status", "proposed"]).1
            return try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        }
        let ofOther = try findings("other")
        #expect(ofOther.compactMap { $0["id"] as? Int }.sorted() == Array(1...ofOther.count))
        #expect(ofOther.allSatisfy { $0["first_seen_run"] as? Int == 1 })
        func appFirst() throws -> [String: Any] {
            let shown = try run(daemon, ["--json", "finding", "show", "app", "1"]).1
            return try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        }
        let appBefore = try appFirst()

        // `finding show OTHER 1` is the other project's finding 1, and triage of it leaves app's finding 1 alone.
        let first = try #require(ofOther.first { $0["id"] as? Int == 1 })
        let shown = try run(daemon, ["--json", "finding", "show", "other", "1"]).1
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        #expect(object["project"] as? String == "other" && object["file"] as? String == first["file"] as? String)
        #expect(try run(daemon, ["finding", "set", "other", "1", "approved"]).0 == 0)
        let appAfter = try appFirst()
        #expect(appAfter["project"] as? String == "app" && appBefore["project"] as? String == "app")
        #expect(appAfter["status"] as? String == appBefore["status"] as? String && appAfter["status"] != nil)
        #expect((appAfter["history"] as? [Any])?.count == (appBefore["history"] as? [Any])?.count)

        // Without its project, a number names nothing: a usage error.
        #expect(try run(daemon, ["finding", "show", "1"]).0 == 64)
        #expect(try run(daemon, ["run", "show", "1"]).0 == 64)
        let runs = try run(daemon, ["--json", "runs", "app"]).1
        let runList = try #require(try JSONSerialization.jsonObject(with: Data(runs.utf8)) as? [[String: Any]])
        #expect(runList.map { $0["id"] as? Int } == [2, 1])
    }

    @Test("stats: counters in text and JSON")
    func stats() throws {
        let daemon = try Daemon()
        let text = try run(daemon, ["stats"]).1
        #expect(text.contains("Connections:") && text.contains("Database pool: 4 connections"))
        let json = try run(daemon, ["--json", "stats"]).1
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["pool_size"] as? Int) == 4)
        #expect((object["connections"] as? Int ?? 0) >= 1)
    }

    @Test("watch: prints every event, survives a daemon restart, repeats nothing")
    func watchAcrossRestart() throws {
        var daemon = try Daemon()
        _ = try run(daemon, ["project", "create", "app"])
        var environment = ProcessInfo.processInfo.environment
        environment["BARKEEP_SERVER"] = "127.0.0.1:\(daemon.port)"
        let admin = try #require(
            try run(daemon, ["token", "create", "watcher", "--role", "admin"]).1.split(separator: "\n").first
        )
        environment["BARKEEP_TOKEN"] = String(admin)
        let watcher = try Subprocess.spawn(
            barkeep, ["--json", "watch", "app", "--since", "0"], environment: environment)
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        func waitForOutput(_ count: Int) -> [[String: Any]] {
            let deadline = ContinuousClock.now + .seconds(20)
            var lines: [[String: Any]] = []
            while ContinuousClock.now < deadline {
                lines = watcher.output.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                if lines.count >= count { break }
                usleep(50_000)
            }
            return lines
        }
        #expect(waitForOutput(1).count == 1)
        _ = try run(daemon, ["project", "set", "app", "--sdk", "27.1"])
        #expect(waitForOutput(2).count == 2)

        // The daemon goes away; a change is made while it is down (through another daemon on the same database,
        // on the same port once it is back).
        let port = daemon.port
        let url = daemon.url
        daemon.stop()
        let other = try Daemon(url: url)
        _ = try run(other, ["project", "set", "app", "--sdk", "27.2"])
        other.stop()
        daemon = try Daemon(url: url, port: port)
        _ = try run(daemon, ["project", "set", "app", "--deployment-target", "26.4"])

        let events = waitForOutput(4)
        let sequences = events.compactMap { $0["seq"] as? Int }
        #expect(events.count == 4)
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        #expect(events.map { $0["to"] as? String } == [nil, "27.1", "27.2", "26.4"])
        #expect(watcher.errorOutput.contains("reconnected, resuming"))
    }
}
