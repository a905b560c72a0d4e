import BarkeepTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Triage at the pace of a 150-screen app, through the binaries: filters, bulk changes with a preview, people.
@Suite("barkeep triage end to end")
struct TriageCommandsTests {
    /// The screens' name stems: 30 screens of each, `Account1` … `Settings30`.
    static let stems = ["Account", "Inbox", "Feed", "Profile", "Settings"]
    /// The 150 screen keys.
    static let keys = stems.flatMap { stem in (1...30).map { "\(stem)\($0)" } }

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    private func array(_ text: String) throws -> [[String: Any]] {
        try #require(try json(text) as? [[String: Any]], "not a JSON array: \(text)")
    }

    /// A daemon with project `app`: a scan of 150 files with a DUO003 and a DUO007 finding each, and 150 screens
    /// owning one file each (the Account screens are ana's).
    private func makeProject() throws -> TestDaemon {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let findings = Self.keys.flatMap { key in
            [
                #"{"rule":"DUO003","severity":"medium","file":"Sources/\#(key)/View.swift","line":3,"#
                    + #""snippet":"Text(\"\#(key)\")"}"#,
                #"{"rule":"DUO007","severity":"medium","file":"Sources/\#(key)/View.swift","line":7,"#
                    + #""snippet":"let bar = UINavigationBar()"}"#,
            ]
        }
        let directory = try TemporaryDirectory.make(prefix: "barkeep-triage")
        let scan = directory + "/scan.json"
        try #"{"tool":"duo_scan","version":"1.2.2","findings":[\#(findings.joined(separator: ","))]}"#.write(
            toFile: scan, atomically: true, encoding: .utf8)
        let ingested = try daemon.barkeep(["ingest", "app", scan])
        #expect(ingested.0 == 0, "\(ingested)")

        // 150 screens, one glob each, pipelined on one connection.
        let client = try LineClient(socketPath: daemon.socket)
        let lines = Self.keys.map { key in
            "SCREEN ADD app \(key) path=Sources/\(key)/** " + (key.hasPrefix("Account") ? "owner=ana" : "") + "\n"
        }
        try client.send(lines.joined())
        var replies = 0
        while replies < Self.keys.count, let line = try client.readLine() {
            if line.hasPrefix("OK") { replies += 1 }
            #expect(!line.hasPrefix("ERR"), "\(line)")
        }
        #expect(replies == 150)
        return daemon
    }

    @Test("finding set --where: a dry run prints the count and changes nothing; --yes changes all, an event each")
    func bulkSet() throws {
        let daemon = try makeProject()
        #expect(try array(try daemon.barkeep(["--json", "findings", "app"]).1).count == 300)
        let where_ = ["finding", "set", "app", "--where", "--rule", "DUO003", "--status", "proposed,approved"]

        let dry = try daemon.barkeep(where_ + ["approved", "--dry-run"])
        #expect(dry.0 == 0, "\(dry)")
        let lines = dry.1.split(separator: "\n")
        #expect(lines.count == 1 + 150 + 2)
        #expect(lines.dropFirst().first?.contains("would-change  proposed → approved  DUO003") == true)
        #expect(
            lines.suffix(2) == [
                "Would change 150 findings of app to approved (0 unchanged, 0 refused).",
                "Run it again with --yes to change them.",
            ])
        #expect(try array(try daemon.barkeep(["--json", "findings", "app", "--status", "approved"]).1).isEmpty)

        // Without --dry-run or --yes, a --where form is a usage error.
        #expect(try daemon.barkeep(where_ + ["approved"]).0 == 64)
        #expect(try daemon.barkeep(["finding", "set", "app", "1", "approved", "--rule", "DUO003"]).0 == 64)

        let sequence = try #require(
            try json(try daemon.barkeep(["--json", "finding", "show", "app", "1"]).1) as? [String: Any])
        let since = ((sequence["history"] as? [[String: Any]])?.last?["seq"] as? Int) ?? 0
        let done = try daemon.barkeep(where_ + ["approved", "--yes"])
        #expect(done.0 == 0, "\(done)")
        #expect(done.1.hasSuffix("\nChanged 150 findings of app to approved (0 unchanged, 0 refused).\n"))
        let approved = try array(try daemon.barkeep(["--json", "findings", "app", "--status", "approved"]).1)
        #expect(approved.count == 150 && approved.allSatisfy { $0["rule"] as? String == "DUO003" })
        #expect(try daemon.barkeep(where_ + ["approved", "--dry-run"]).1.contains("Would change 0 findings"))

        // One finding.status event each: the watch replays them; a comment after them marks the end.
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"),
            ["--json", "watch", "app", "--since", String(since), "--kind", "finding.status,finding.comment"],
            environment: daemon.environment())
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        let commented = try daemon.barkeep(["finding", "comment", "app", "1", "bulk-approved with DUO003"])
        #expect(commented.0 == 0, "\(commented)")
        let deadline = ContinuousClock.now + .seconds(30)
        var events: [[String: Any]] = []
        while ContinuousClock.now < deadline {
            events = watcher.output.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            if events.contains(where: { $0["kind"] as? String == "finding.comment" }) { break }
            usleep(50_000)
        }
        let statuses = events.filter { $0["kind"] as? String == "finding.status" }
        #expect(statuses.count == 150)
        #expect(statuses.allSatisfy { $0["from"] as? String == "proposed" && $0["to"] as? String == "approved" })
        #expect(Set(statuses.compactMap { $0["subject"] as? String }).count == 150)
        // Each names its finding by number and its screen, as the findings list does.
        let screens = Dictionary(
            uniqueKeysWithValues: approved.compactMap { finding in
                (finding["id"] as? Int).map { ($0, finding["screen"] as? String ?? "") }
            })
        #expect(Set(statuses.compactMap { $0["finding"] as? Int }) == Set(screens.keys))
        #expect(
            statuses.allSatisfy { event in
                guard let number = event["finding"] as? Int, let screen = event["screen"] as? String else {
                    return false
                }
                return screens[number] == screen && (event["screens"] as? [String]) == [screen]
            })
        #expect(events.allSatisfy { ["finding.status", "finding.comment"].contains($0["kind"] as? String) })

        // The transition machine still rules: verified needs applied first. Refused findings are listed, exit 1.
        let refused = try daemon.barkeep([
            "finding", "set", "app", "--where", "--rule", "DUO003", "--screen", "Account1,Inbox2", "verified", "--yes",
        ])
        #expect(refused.0 == 1)
        #expect(refused.1.contains("refused  approved → verified") && refused.1.contains("its fix must be applied"))
        #expect(refused.1.hasSuffix("Changed 0 findings of app to verified (0 unchanged, 2 refused).\n"))
        #expect(refused.2.contains("2 findings left as they are"))

        // A list of numbers needs no --yes.
        let numbers = approved.prefix(3).compactMap { $0["id"] as? Int }.map(String.init).joined(separator: ",")
        let listed = try daemon.barkeep(["finding", "set", "app", numbers, "applied"])
        #expect(listed.0 == 0 && listed.1.hasSuffix("Changed 3 findings of app to applied (0 unchanged, 0 refused).\n"))
    }

    @Test(
        "filters refuse garbage (unknown screen or rule NOTFOUND, unknown status a usage error); assign, comment, mine")
    func filtersAndPeople() throws {
        let daemon = try makeProject()
        let unknownScreen = try daemon.barkeep(["findings", "app", "--screen", "Account1,Nope"])
        #expect(unknownScreen.0 == 1 && unknownScreen.2 == "barkeep: no screen 'Nope' in project 'app' (NOTFOUND)\n")
        #expect(try daemon.barkeep(["findings", "app", "--rule", "DUO999"]).2.contains("(NOTFOUND)"))
        let badStatus = try daemon.barkeep(["findings", "app", "--status", "open,opne"])
        #expect(badStatus.0 == 64 && badStatus.2.hasPrefix("barkeep: --status: 'opne' is not a status"))
        #expect(try daemon.barkeep(["findings", "app", "--severity", "urgent"]).0 == 64)
        let owned = try array(
            try daemon.barkeep(["--json", "findings", "app", "--owner", "ana", "--rule", "DUO007"]).1)
        #expect(owned.count == 30 && owned.allSatisfy { ($0["screen"] as? String ?? "").hasPrefix("Account") })
        let two = try array(
            try daemon.barkeep(["--json", "findings", "app", "--screen", "Inbox3,Feed9", "--file", "Sources/Inbox3/"]).1
        )
        #expect(two.count == 2 && two.allSatisfy { $0["screen"] as? String == "Inbox3" })
        #expect(try array(try daemon.barkeep(["--json", "findings", "app", "--status", "all"]).1).count == 300)
        #expect(try array(try daemon.barkeep(["--json", "findings", "app", "--blocked"]).1).isEmpty)

        // People: assign with a preview, comment, and mine lists a person's screens and findings.
        let dry = try daemon.barkeep([
            "finding", "assign", "app", "--where", "--screen", "Account1,Account2", "ana", "--dry-run",
        ])
        #expect(dry.0 == 0 && dry.1.contains("would-change  none → ana"))
        #expect(dry.1.contains("Would assign 4 findings of app to ana (0 unchanged, 0 refused)."))
        #expect(try daemon.barkeep(["finding", "assign", "app", "--where", "--screen", "Account1", "ana"]).0 == 64)
        let done = try daemon.barkeep([
            "finding", "assign", "app", "--where", "--screen", "Account1,Account2", "ana", "--yes",
        ])
        #expect(done.0 == 0 && done.1.hasSuffix("Assigned 4 findings of app to ana (0 unchanged, 0 refused).\n"))
        let assigned = try array(try daemon.barkeep(["--json", "findings", "app", "--assignee", "ana"]).1)
        #expect(assigned.count == 4 && assigned.allSatisfy { $0["assignee"] as? String == "ana" })
        let first = try #require(assigned.first?["id"] as? Int)
        let one = try daemon.barkeep(["finding", "assign", "app", String(first), "none"])
        #expect(one.1 == "Finding \(first) of app is now assigned to no one.\n")
        #expect(try daemon.barkeep(["finding", "assign", "app", String(first), "ana maria"]).0 == 64)

        #expect(try daemon.barkeep(["finding", "comment", "app", String(first), "Design says: keep it"]).0 == 0)
        #expect(try daemon.barkeep(["finding", "comment", "app", String(first), ""]).0 == 64)
        let shown = try daemon.barkeep(["finding", "show", "app", String(first)])
        #expect(shown.1.contains("assigned none → ana") && shown.1.contains("assigned ana → none"))
        #expect(shown.1.contains("comment") && shown.1.contains("Design says: keep it"))

        let mine = try #require(
            try json(try daemon.barkeep(["--json", "mine", "app", "--as", "ana"]).1) as? [String: Any])
        #expect(mine["name"] as? String == "ana")
        #expect((mine["screens"] as? [[String: Any]])?.count == 30)
        #expect((mine["findings"] as? [[String: Any]])?.count == 3)
        let text = try daemon.barkeep(["mine", "app", "--as", "ana"])
        #expect(text.1.hasPrefix("Screens ana owns in app: 30\n") && text.1.contains("assigned to ana: 3\n"))
        // On the Unix socket, you are your user.
        let own = try #require(try json(try daemon.barkeep(["--json", "mine", "app"]).1) as? [String: Any])
        #expect(!(own["name"] as? String ?? "").isEmpty && (own["screens"] as? [Any])?.isEmpty == true)
    }

    @Test("FINDING SET of one finding from many connections at once: each answered with its own change or error")
    func concurrentVerdicts() throws {
        let daemon = try makeProject()
        let threads = 12
        let perThread = 8
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let wire = try LineClient(socketPath: daemon.socket)
                    for index in 0..<perThread {
                        // Four findings for twelve connections: many verdicts on one finding in one batch.
                        let reason = "t\(thread) v\(index)"
                        let record = try wire.request("FINDING SET app \(1 + index % 4) declined reason=\"\(reason)\"")
                        let summary = try wire.readLine()
                        guard let record, record.contains(" status=declined reason=\"\(reason)\" "),
                            record.contains(" change=changed "),
                            summary == "OK changed=1 unchanged=0 refused=0 dry-run=no count=1"
                        else {
                            failures.withLock { $0.append("\(reason): \(record ?? "-") / \(summary ?? "-")") }
                            continue
                        }
                    }
                    // Errors stay each request's own: an unknown finding, a refused move.
                    let unknown = try wire.request("FINDING SET app 9999 approved")
                    if unknown?.hasPrefix("ERR NOTFOUND no finding 9999 in project 'app'") != true {
                        failures.withLock { $0.append("unknown: \(unknown ?? "-")") }
                    }
                    let refused = try wire.request("FINDING SET app 1 verified")
                    if refused?.hasPrefix("ERR CONFLICT finding 1 is declined") != true {
                        failures.withLock { $0.append("refused: \(refused ?? "-")") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        #expect(done.wait(timeout: .now() + 120) == .success)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    }
}
