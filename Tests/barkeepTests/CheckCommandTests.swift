import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

/// `barkeep check` end to end, through the real CLI against a real daemon: what it says equals what the sync then
/// does, it changes nothing, its exit codes follow the gate, and its Markdown and SARIF hold what its JSON says.
@Suite("barkeep check end to end")
struct CheckCommandTests {
    private static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    private static func rows(_ check: [String: Any]) -> [[String: Any]] { check["rows"] as? [[String: Any]] ?? [] }

    private static func identities(_ check: [String: Any], _ kind: CheckClass) -> Set<String> {
        Set(rows(check).filter { $0["class"] as? String == kind.rawValue }.compactMap { $0["identity"] as? String })
    }

    /// Whether a check's rows hold a new or reopened finding at or above `failOn`.
    private static func fails(_ check: [String: Any], failOn: Severity) -> Bool {
        rows(check).contains { row in
            guard let kind = (row["class"] as? String).flatMap(CheckClass.init(rawValue:)), kind.isAdded,
                let severity = (row["severity"] as? String).flatMap(Severity.init(rawValue:))
            else { return false }
            return CheckGate.fails(severity, failOn: failOn)
        }
    }

    @Test("on the NetNewsWire history, check of run N+1 says what ingest then does, changes nothing, exits by the gate")
    func netNewsWireHistory() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWirePass2Path, scansIn: ScanHistory.netNewsWireDirectory)
        let directory = try #require(Fixtures.directory)
        let gates: [Severity] = [.low, .high, .critical]
        var exits: Set<Int32> = []
        for (index, run) in history.runs.enumerated() {
            let file = directory + "/" + run.path
            let before = try daemon.barkeep(["--json", "findings", "app", "--status", "all"])
            #expect(before.0 == 0)
            let failOn = gates[index % gates.count]
            let checked = try daemon.barkeep([
                "check", "app", file, "--format", "json", "--fail-on", failOn.rawValue, "--commit", "abcdef12",
            ])
            let check = try Self.object(checked.1)
            let fails = Self.fails(check, failOn: failOn)
            #expect(checked.0 == (fails ? 1 : 0), "\(run.path): \(checked.2)")
            #expect(fails == (checked.2.hasPrefix("barkeep: the check failed: ")), "\(run.path): \(checked.2)")
            exits.insert(checked.0)
            let summary = try #require(check["summary"] as? [String: Any])
            #expect(summary["result"] as? String == (fails ? "fail" : "pass"))
            #expect(try daemon.barkeep(["--json", "findings", "app", "--status", "all"]).1 == before.1, "\(run.path)")

            let ingested = try Self.object(try daemon.barkeep(["--json", "ingest", "app", file]).1)
            for key in ["new", "reopened", "changed"] {
                #expect(summary[key] as? Int == ingested[key] as? Int, "\(run.path): \(key)")
            }
            #expect(summary["fixes"] as? Int == ingested["fixed"] as? Int, "\(run.path)")
            let number = try #require(ingested["run"] as? Int)
            let created = try daemon.barkeep([
                "--json", "findings", "app", "--status", "all", "--new-in", String(number),
            ])
            // findings --json carries no identity: rule, file and line name a finding the run created.
            func place(_ row: [String: Any]) -> String {
                "\(row["rule"] as? String ?? "") \(row["file"] as? String ?? ""):\(row["line"] as? Int ?? 0)"
            }
            let createdPlaces = Set(
                (try JSONSerialization.jsonObject(with: Data(created.1.utf8)) as? [[String: Any]] ?? []).map(place))
            let newPlaces = Set(Self.rows(check).filter { $0["class"] as? String == "new" }.map(place))
            #expect(newPlaces == createdPlaces, "\(run.path): the new findings differ")
        }
        // The fixtures fail some gates and pass others.
        #expect(exits == [0, 1])
    }

    @Test("a reader's token may check (and still may not ingest); --no-record records no event; usage errors are 64")
    func readerAndRecording() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let created = try daemon.barkeep(["token", "create", "viewer", "--role", "reader"])
        let reader = created.1.trimmingCharacters(in: .whitespacesAndNewlines)
        let file = try Self.firstScan()
        #expect(try daemon.barkeep(["ingest", "app", file]).0 == 0)
        let events = try daemon.barkeep(["--json", "events", "app"]).1

        let quiet = try daemon.barkeep(
            ["check", "app", file, "--no-record", "--format", "json"], token: reader, tcp: true)
        #expect(quiet.0 == 0, "\(quiet.2)")
        #expect(try daemon.barkeep(["--json", "events", "app"]).1 == events)
        let recorded = try daemon.barkeep(["check", "app", file, "--branch", "main"], token: reader, tcp: true)
        #expect(recorded.0 == 0 && recorded.1.hasPrefix("Check of app against latest: 0 new, 0 reopened"))
        let after = try daemon.barkeep(["--json", "events", "app"]).1
        #expect(after.contains("\"scan.checked\"") && after.contains("branch=main") && !events.contains("scan.checked"))

        // A declined finding still reported is tracked with its verdict, not new.
        let decline = try daemon.barkeep(["finding", "set", "app", "1", "declined", "--reason", "by design"])
        #expect(decline.0 == 0, "\(decline.2)")
        let declined = try Self.object(try daemon.barkeep(["check", "app", file, "--format", "json", "--no-record"]).1)
        let row = try #require(Self.rows(declined).first { $0["number"] as? Int == 1 })
        #expect(row["class"] as? String == "tracked" && row["status"] as? String == "declined")
        #expect(row["reason"] as? String == "by design")
        #expect((declined["summary"] as? [String: Any])?["new"] as? Int == 0)
        let beforeRefusals = try daemon.barkeep(["--json", "events", "app"]).1
        let refused = try daemon.barkeep(["ingest", "app", file], token: reader, tcp: true)
        #expect(refused.0 == 1 && refused.2.contains("(FORBIDDEN)"))
        for usage in [
            ["--fail-on", "severe"], ["--format", "html"], ["--base", "yesterday"], ["--bogus"],
            ["--max-upload", "lots"],
            ["--scan-format", "sdk-check"],
        ] {
            #expect(try daemon.barkeep(["check", "app", file] + usage).0 == 64, "\(usage)")
        }
        let unknownRun = try daemon.barkeep(["check", "app", file, "--base", "99"])
        // No answer is exit 2, where 1 is the answer "the gate failed".
        #expect(unknownRun.0 == 2 && unknownRun.2.contains("(NOTFOUND)"))
        let broken = try TemporaryDirectory.make(prefix: "barkeep-check") + "/broken.json"
        try Data("{\"tool\": \"duo_scan\", \"findings\": [{\"line\": \"x\"}]}".utf8)
            .write(to: URL(fileURLWithPath: broken))
        let invalid = try daemon.barkeep(["check", "app", broken])
        #expect(
            invalid.0 == 2 && invalid.2.contains("the duo-scan upload is not valid") && invalid.2.contains("(BADARG)"))
        #expect(try daemon.barkeep(["--json", "events", "app"]).1 == beforeRefusals)
    }

    /// The history's first scan with findings, whatever its name.
    private static func firstScan() throws -> String {
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWirePass2Path, scansIn: ScanHistory.netNewsWireDirectory)
        return try #require(Fixtures.directory) + "/"
            + (try #require(history.runs.first { $0.counts.new > 0 }?.path))
    }

    @Test("the Markdown reads back as the JSON's counts and findings, and the SARIF is valid SARIF 2.1.0")
    func markdownAndSARIF() throws {
        let daemon = try TestDaemon(http: true)
        defer { daemon.stop() }
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let history = try ScanHistory(
            expectedPath: ScanHistory.netNewsWirePass2Path, scansIn: ScanHistory.netNewsWireDirectory)
        let directory = try #require(Fixtures.directory)
        // The run with the most new and reopened findings, checked after the runs before it.
        let index = try #require(
            history.runs.indices.dropFirst().max { a, b in
                history.runs[a].counts.new + history.runs[a].counts.reopened
                    < history.runs[b].counts.new + history.runs[b].counts.reopened
            })
        for run in history.runs[..<index] {
            #expect(try daemon.barkeep(["ingest", "app", directory + "/" + run.path]).0 == 0)
        }
        let file = directory + "/" + history.runs[index].path
        let check = try Self.object(
            try daemon.barkeep(["check", "app", file, "--format", "json", "--no-record", "--fail-on", "info"]).1)
        let summary = try #require(check["summary"] as? [String: Any])
        let markdown = try daemon.barkeep(["check", "app", file, "--format", "markdown", "--no-record"])
        let lines = markdown.1.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        // The count line, first, read back.
        let counts = try #require(lines.first)
        let numbers = counts.split(separator: ":").last?.split(separator: ",").map {
            Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        #expect(counts.hasPrefix("**Check of app against latest: "))
        #expect(
            numbers
                == ["new", "reopened", "changed", "tracked", "fixes"].map { summary[$0] as? Int })
        // Each listed finding, read back: class, severity, rule and place, under its screen.
        var listed: [String] = []
        var screen = ""
        for line in lines {
            if line.hasPrefix("#### ") { screen = String(line.dropFirst(5)).replacingOccurrences(of: "\\", with: "") }
            guard line.hasPrefix("- new ") || line.hasPrefix("- reopened ") else { continue }
            let words = line.dropFirst(2).split(separator: " ").map(String.init)
            let place = line.split(separator: "`").dropFirst().first.map(String.init) ?? ""
            let severity = words.first { Severity(rawValue: $0) != nil } ?? ""
            listed.append("\(words[0]) \(severity) \(place) \(screen)")
        }
        let expected = Self.rows(check).filter { ["new", "reopened"].contains($0["class"] as? String) }.map { row in
            let place = "\(row["file"] as? String ?? ""):\(row["line"] as? Int ?? 0)"
            return "\(row["class"] as? String ?? "") \(row["severity"] as? String ?? "") \(place) "
                + "\(row["screen"] as? String ?? "")"
        }
        #expect(!expected.isEmpty)
        #expect(listed.sorted() == expected.sorted())
        #expect(lines.contains { $0.hasPrefix("Result: ") })
        // The daemon serves HTTP: the comment links the project's page.
        let web = try #require(summary["web"] as? String)
        #expect(web.hasSuffix("/projects/app") && markdown.1.contains("](\(web))"))

        let sarif = try daemon.barkeep(["check", "app", file, "--format", "sarif", "--no-record"])
        let path = try TemporaryDirectory.make(prefix: "barkeep-check-sarif") + "/check.sarif"
        try Data(sarif.1.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try PythonTools.sarifSchemaErrors(file: path) == [])
        let log = try Self.object(sarif.1)
        let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        let fingerprints = Set(
            results.compactMap { ($0["partialFingerprints"] as? [String: String])?["barkeep/identity/v1"] })
        #expect(fingerprints == Self.identities(check, .new).union(Self.identities(check, .reopened)))
    }
}

/// CHECK's HTTP route: a reader's token posts the raw scan, the keys in the query, bounded by `--max-upload` (not the
/// JSON bodies' 1 MiB), and gets `barkeep check --format json`'s object.
@Suite("barkeep check over HTTP")
struct CheckRouteTests {
    /// curl posting `file` as `type` to `url`: the status and the body.
    static func post(_ url: String, file: String, type: String, token: String) throws -> (status: Int, body: String) {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-check-route")
        let result = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "--http1.1", "--max-time", "20", "-o", directory + "/body", "-w", "%{http_code}", "-H",
                "Authorization: Bearer \(token)", "-H", "Content-Type: \(type)", "--data-binary", "@" + file, url,
            ], timeout: .seconds(30))
        return (Int(result.output) ?? 0, (try? String(contentsOfFile: directory + "/body", encoding: .utf8)) ?? "")
    }

    @Test("a change adding hundreds of findings: the Markdown lists 50 and says how many more, under 65,536 characters")
    func markdownBounded() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let directory = try TemporaryDirectory.make(prefix: "barkeep-check-many")
        func scan(_ count: Int, named name: String) throws -> String {
            let findings: [[String: Any]] = (0..<count).map { index in
                let file = "Sources/Feature\(index % 40)/" + String(repeating: "Nested/", count: 20) + "View.swift"
                return [
                    "id": "DUO001:\(file):\(index)", "rule": "DUO001", "title": "Main screen", "severity": "high",
                    "file": file, "line": index + 1,
                    "snippet": "let width = UIScreen.main.bounds.width /* " + String(repeating: "x", count: 400)
                        + " */",
                ]
            }
            let path = directory + "/" + name
            try JSONSerialization.data(withJSONObject: ["tool": "duo_scan", "version": "1.2.2", "findings": findings])
                .write(to: URL(fileURLWithPath: path))
            return path
        }
        #expect(try daemon.barkeep(["ingest", "app", try scan(1, named: "main.json")]).0 == 0)
        let markdown = try daemon.barkeep([
            "check", "app", try scan(400, named: "pull.json"), "--format", "markdown", "--no-record",
        ])
        #expect(markdown.0 == 1, "\(markdown.2)")
        let lines = markdown.1.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("**Check of app against latest: 399 new,") == true, "\(lines.first ?? "")")
        #expect(lines.filter { $0.hasPrefix("- new ") }.count == 50)
        #expect(lines.contains { $0.hasPrefix("…and 349 more new or reopened findings not listed") })
        #expect(markdown.1.count < 65_536, "\(markdown.1.count) characters")
    }

    @Test("a 2 MiB scan checked through the API answers what the CLI prints; past --max-upload 413 TOOLONG; 415")
    func route() throws {
        let daemon = try TestDaemon(
            http: true, arguments: ["--max-upload", String(4 << 20), "--public-url", "https://barkeep.example.com/"])
        defer { daemon.stop() }
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let reader = try HTTPAPITests.token(daemon, "rita", role: "reader")
        let url = try #require(daemon.httpURL) + "/api/v1/projects/app/check?format=duo-scan&fail-on=medium&record=no"
        let scan = try ScanFileTests.paddedScan(size: 2 << 20)
        let answer = try Self.post(url, file: scan, type: "application/json", token: reader)
        #expect(answer.status == 200, "\(answer.body)")
        let cli = try daemon.barkeep(["check", "app", scan, "--format", "json", "--fail-on", "medium", "--no-record"])
        #expect(cli.0 == 1)
        let fromAPI = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? NSDictionary
        let fromCLI = try JSONSerialization.jsonObject(with: Data(cli.1.utf8)) as? NSDictionary
        #expect(fromAPI != nil && fromAPI == fromCLI)
        // The page's link is under --public-url.
        let summary = fromAPI?["summary"] as? [String: Any]
        #expect(summary?["web"] as? String == "https://barkeep.example.com/projects/app")

        let large = try ScanFileTests.paddedScan(size: 5 << 20)
        let refused = try Self.post(url, file: large, type: "application/json", token: reader)
        #expect(refused.status == 413 && refused.body.contains("TOOLONG"), "\(refused.body)")
        let wrongType = try Self.post(url, file: scan, type: "text/plain", token: reader)
        #expect(wrongType.status == 415, "\(wrongType.body)")
    }
}
