import BarkeepAPI
import BarkeepCore
import BarkeepHashing
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepReport

@Suite("findings --format sarif")
struct FindingsSARIFTests {
    /// A scanner finding's record.
    static func finding(
        _ number: Int, rule: String, severity: String = "medium", status: String = "proposed", file: String,
        line: Int, snippet: String = "let bar = UINavigationBar()", reason: String? = nil, title: String? = nil,
        tier: String? = nil, step: String? = nil
    ) -> Record {
        Record([
            "id": String(number), "identity": SHA256Digest.hex(of: Array("\(rule) \(file) \(snippet)".utf8)),
            "project": "app", "source": "scanner", "rule": rule, "severity": severity, "file": file,
            "line": String(line), "snippet": snippet, "status": status, "reason": reason, "screen": "Inbox",
            "title": title, "message": "Move items to the navigation controller.", "first-seen-run": "1",
            "last-seen-run": "2", "step": step, "tier": tier, "assignee": "alice",
        ])
    }

    /// One finding of each kind: open ones of every severity, each verdict, closed ones, an item.
    static let wireRecords: [Record] = [
        finding(
            5, rule: "DUO007", severity: "high", file: "Sources/Inbox View.swift", line: 9,
            title: "Standalone bar instance", tier: "1", step: "1"),
        finding(2, rule: "DUO007", severity: "critical", status: "approved", file: "Sources/A.swift", line: 40),
        finding(3, rule: "DUO011", severity: "low", status: "blocked", file: "Sources/A.swift", line: 3),
        finding(
            4, rule: "DUO008", severity: "info", status: "declined", file: "Sources/B.m", line: 1,
            reason: "the design team keeps it"),
        finding(6, rule: "DUO008", status: "kept", file: "Sources/B.m", line: 7, reason: "kept, \"for now\""),
        finding(7, rule: "DUO003", status: "false_positive", file: "Sources/C.swift", line: 2),
        finding(8, rule: "DUO003", status: "fixed", file: "Sources/C.swift", line: 5),
        finding(9, rule: "DUO003", status: "verified", file: "Sources/C.swift", line: 6),
        Record([
            "id": "10", "project": "app", "source": "manual", "severity": "medium", "status": "proposed",
            "screen": "Inbox",
            "title": "Filter menu clipped", "step": "5",
        ]),
    ]

    /// The records as the CLI reads FINDINGS' rows.
    static var records: [FindingRecord] {
        get throws { try Fixtures.rows(wireRecords) }
    }

    /// The export as JSON objects.
    static func log(_ export: FindingsSARIF.Export) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(export.log.utf8)) as? [String: Any])
    }

    @Test("one run, open results and suppressed verdicts; fixed, verified and items without a file left out")
    func contents() throws {
        let export = try FindingsSARIF.export(try Self.records, version: "9.9.9")
        #expect(export.results == 6 && export.suppressed == 3 && export.withoutFile == 1 && export.closed == 2)
        let log = try Self.log(export)
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        try #require(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "barkeep" && driver["version"] as? String == "9.9.9")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["DUO003", "DUO007", "DUO008", "DUO011"])
        let bar = rules[1]
        #expect(bar["name"] as? String == "StandaloneBarInstance")
        #expect((bar["shortDescription"] as? [String: Any])?["text"] as? String == "Standalone bar instance")
        #expect((bar["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        #expect((bar["properties"] as? [String: Int]) == ["tier": 1, "step": 1])
        #expect(rules[0]["name"] as? String == "DUO003" && rules[0]["properties"] == nil)

        let results = try #require(runs[0]["results"] as? [[String: Any]])
        func property(_ result: [String: Any], _ key: String) -> Any? {
            (result["properties"] as? [String: Any])?[key]
        }
        // By file, line and number.
        #expect(results.map { property($0, "number") as? Int } == [3, 2, 4, 6, 7, 5])
        #expect(results.map { $0["level"] as? String } == ["note", "error", "note", "warning", "warning", "error"])
        #expect(results.map { $0["ruleIndex"] as? Int } == [3, 1, 2, 2, 0, 1])
        let inbox = results[5]
        let location = try #require(
            (inbox["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect(
            (location["artifactLocation"] as? [String: String]) == [
                "uri": "Sources/Inbox%20View.swift", "uriBaseId": "%SRCROOT%",
            ])
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 9)
        #expect((region["snippet"] as? [String: String])?["text"] == "let bar = UINavigationBar()")
        #expect((inbox["message"] as? [String: String])?["text"] == "Move items to the navigation controller.")
        let fingerprints = try #require(inbox["partialFingerprints"] as? [String: String])
        #expect(Array(fingerprints.keys) == [FindingsSARIF.fingerprintKey])
        let identity = try Self.records[0].identity
        #expect(fingerprints[FindingsSARIF.fingerprintKey] == identity)
        #expect(inbox["suppressions"] == nil)
        #expect(property(inbox, "status") as? String == "proposed" && property(inbox, "screen") as? String == "Inbox")

        let suppressions = results.map { ($0["suppressions"] as? [[String: String]]) ?? [] }
        #expect(suppressions[2] == [["kind": "external", "justification": "the design team keeps it"]])
        #expect(suppressions[3] == [["kind": "external", "justification": "kept, \"for now\""]])
        #expect(suppressions[4] == [["kind": "external", "justification": "false_positive"]])
        #expect(suppressions[0].isEmpty && suppressions[1].isEmpty && suppressions[5].isEmpty)
    }

    @Test("the same records in another order give the same log, byte for byte")
    func stable() throws {
        let one = try FindingsSARIF.export(try Self.records)
        let other = try FindingsSARIF.export(try Self.records.reversed())
        #expect(one == other)
    }

    @Test("valid against the official SARIF 2.1.0 schema (jsonschema), even with no result")
    func schema() throws {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-sarif")
        for (name, records) in [("all", try Self.records), ("none", [FindingRecord]())] {
            let path = directory + "/\(name).sarif"
            try Data(try FindingsSARIF.export(records).log.utf8).write(to: URL(fileURLWithPath: path))
            #expect(try PythonTools.sarifSchemaErrors(file: path) == [])
        }
        // The check has teeth: a result without its message is refused.
        let broken = directory + "/broken.sarif"
        let log = try FindingsSARIF.export(try Self.records).log
        try Data(log.replacingOccurrences(of: "\"message\"", with: "\"massage\"").utf8)
            .write(to: URL(fileURLWithPath: broken))
        #expect(try PythonTools.sarifSchemaErrors(file: broken).contains { $0.contains("'message' is a required") })
    }

    @Test("Barkeep's own SARIF parser reads it back: rules, files, lines, snippets, titles, severities")
    func roundTrip() throws {
        let export = try FindingsSARIF.export(try Self.records)
        let report = try SARIFParser.parse(Array(export.log.utf8))
        #expect(report.tool == "barkeep" && report.toolVersion == BarkeepVersion.current)
        #expect(report.findings.count == export.results)
        let first = try #require(report.findings.last)
        #expect(first.rule == "DUO007" && first.file == "Sources/Inbox View.swift" && first.line == 9)
        #expect(first.snippet == "let bar = UINavigationBar()" && first.title == "Standalone bar instance")
        #expect(first.severity == "high" && first.message == "Move items to the navigation controller.")
        #expect(report.findings.map(\.severity) == ["low", "high", "low", "medium", "medium", "high"])
        let fingerprints = try #require(first.fingerprints)
        let identity = try Self.records[0].identity ?? "?"
        #expect(fingerprints.contains(identity))
    }

    @Test(
        "a path becomes a relative URI reference that the parser decodes back",
        arguments: [
            ("Sources/A.swift", "Sources/A.swift"), ("My Views/Ü.swift", "My%20Views/%C3%9C.swift"),
            ("a:b/c.swift", "a%3Ab/c.swift"), ("50%/x#y?.m", "50%25/x%23y%3F.m"),
        ])
    func uri(path: String, expected: String) throws {
        #expect(FindingsSARIF.uri(path) == expected)
        let records = try Fixtures.rows([Self.finding(1, rule: "DUO001", file: path, line: 1)], as: FindingRecord.self)
        let report = try SARIFParser.parse(Array(try FindingsSARIF.export(records).log.utf8))
        #expect(report.findings.map(\.file) == [path])
    }

    @Test("an identifier from a title: its words' letters and digits, capitalized")
    func identifier() {
        #expect(FindingsSARIF.identifier("Standalone bar instance") == "StandaloneBarInstance")
        #expect(FindingsSARIF.identifier("UIScreen.main reference (iOS 26)") == "UIScreenMainReferenceIOS26")
    }
}
