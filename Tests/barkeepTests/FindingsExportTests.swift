import BarkeepCore
import BarkeepHashing
import BarkeepTestSupport
import Foundation
import Testing

/// `barkeep findings --format csv|sarif` against a real daemon: what a spreadsheet and code scanning receive.
@Suite("barkeep findings --format csv|sarif end to end")
struct FindingsExportTests {
    /// A duo_scan report of `findings` (rule, file, line, snippet), written to a new file.
    private static func scan(_ findings: [(String, String, Int, String)]) throws -> String {
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": findings.map { rule, file, line, snippet in
                [
                    "rule": rule, "severity": rule == "DUO007" ? "medium" : "low", "file": file, "line": line,
                    "snippet": snippet, "title": "Title of \(rule)", "advice": "Advice for \(rule).",
                ] as [String: Any]
            },
        ]
        let path = try TemporaryDirectory.make(prefix: "barkeep-export") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The scan's findings, `shift` lines lower; the DUO003 one only when `withOld`.
    private static func findings(shift: Int, withOld: Bool) -> [(String, String, Int, String)] {
        [
            (
                "DUO007", "Sources/Inbox View, main.swift", 10 + shift,
                "let bar = UINavigationBar(title: \"a, \\\"b\\\"\")"
            ),
            ("DUO011", "Sources/Menu.swift", 4 + shift, "=cmd|' /C calc'!A0"),
            ("DUO008", "Sources/Menu.swift", 20 + shift, "NavigationView {"),
        ] + (withOld ? [("DUO003", "Sources/Old.swift", 5, "if UIDevice.current.userInterfaceIdiom == .pad {")] : [])
    }

    /// Writes `text` to a new file and returns its path.
    private static func file(_ text: String, named name: String) throws -> String {
        let path = try TemporaryDirectory.make(prefix: "barkeep-export") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The number of the project's finding of `rule`.
    private static func number(of rule: String, in daemon: TestDaemon) throws -> String {
        let listed = try daemon.barkeep(["--json", "findings", "app", "--rule", rule]).1
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        return String(try #require(findings.first?["id"] as? Int))
    }

    /// A SARIF log's results.
    private static func results(_ log: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [String: Any])
        let runs = try #require(object["runs"] as? [[String: Any]])
        return try #require(runs.first?["results"] as? [[String: Any]])
    }

    /// Each result's finding number → (partial fingerprint, start line).
    private static func places(_ log: String) throws -> [Int: (String, Int)] {
        var places: [Int: (String, Int)] = [:]
        for result in try results(log) {
            let number = try #require((result["properties"] as? [String: Any])?["number"] as? Int)
            let fingerprint = try #require((result["partialFingerprints"] as? [String: String])?["barkeep/identity/v1"])
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            let line = try #require((location?["region"] as? [String: Any])?["startLine"] as? Int)
            places[number] = (fingerprint, line)
        }
        return places
    }

    @Test("CSV for spreadsheets, read back by Python's csv module; filters apply")
    func csv() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        #expect(try daemon.barkeep(["ingest", "app", try Self.scan(Self.findings(shift: 0, withOld: true))]).0 == 0)
        let bar = try Self.number(of: "DUO007", in: daemon)
        #expect(
            try daemon.barkeep(["finding", "set", "app", bar, "declined", "--reason", "design keeps it,\n\"for now\""])
                .0
                == 0)
        _ = try daemon.barkeep(["screen", "add", "app", "Menu", "--path", "Sources/Menu.swift"])
        _ = try daemon.barkeep(["item", "add", "app", "--screen", "Menu", "--step", "5", "--title", "-Shape, axis"])

        let (status, output, error) = try daemon.barkeep(["findings", "app", "--format", "csv", "--status", "all"])
        #expect(status == 0 && error.isEmpty)
        let rows = try PythonTools.csvRows(file: try Self.file(output, named: "findings.csv"))
        try #require(rows.count == 6)
        #expect(
            rows[0] == [
                "number", "status", "severity", "rule", "title", "screen", "file", "line", "snippet", "reason", "step",
                "needs", "first_seen_run", "last_seen_run", "assignee",
            ])
        let table = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
        let row = try #require(table.first { $0["rule"] == "DUO007" })
        #expect(row["number"] == bar && row["status"] == "declined")
        #expect(row["file"] == "Sources/Inbox View, main.swift" && row["line"] == "10")
        #expect(row["snippet"] == "let bar = UINavigationBar(title: \"a, \\\"b\\\"\")")
        #expect(row["reason"] == "design keeps it,\n\"for now\"" && row["title"] == "Title of DUO007")
        #expect(row["step"] == "1" && row["first_seen_run"] == "1" && row["last_seen_run"] == "1")
        #expect(table.first { $0["rule"] == "DUO011" }?["snippet"] == "'=cmd|' /C calc'!A0")
        let item = try #require(table.first { $0["rule"] == "" })
        #expect(item["title"] == "'-Shape, axis" && item["screen"] == "Menu" && item["step"] == "5")
        #expect(item["file"] == "" && item["line"] == "" && item["assignee"] == "")

        // The filters select the rows, as for the table.
        let declined = try daemon.barkeep(["findings", "app", "--format", "csv", "--status", "declined"]).1
        #expect(try PythonTools.csvRows(file: try Self.file(declined, named: "declined.csv")).count == 2)
        let none = try daemon.barkeep(["findings", "app", "--format", "csv", "--status", "kept"]).1
        #expect(none == rows[0].joined(separator: ",") + "\r\n")
        // An unknown rule is an error, never an empty export.
        #expect(try daemon.barkeep(["findings", "app", "--format", "csv", "--rule", "DUO999"]).0 == 1)
    }

    @Test("SARIF: schema-valid, verdicts suppressed, items and fixed findings left out, fingerprints stable")
    func sarif() throws {
        let daemon = try TestDaemon()
        _ = try daemon.barkeep(["project", "create", "app"])
        #expect(try daemon.barkeep(["ingest", "app", try Self.scan(Self.findings(shift: 0, withOld: true))]).0 == 0)
        let (bar, navigation) = (try Self.number(of: "DUO007", in: daemon), try Self.number(of: "DUO008", in: daemon))
        let old = try #require(Int(try Self.number(of: "DUO003", in: daemon)))
        _ = try daemon.barkeep(["finding", "set", "app", bar, "declined", "--reason", "design keeps it"])
        _ = try daemon.barkeep(["finding", "set", "app", navigation, "false_positive", "--reason", "a menu"])
        _ = try daemon.barkeep(["screen", "add", "app", "Menu", "--path", "Sources/Menu.swift"])
        _ = try daemon.barkeep(["item", "add", "app", "--screen", "Menu", "--step", "5", "--title", "Shape"])

        let first = try daemon.barkeep(["findings", "app", "--format", "sarif"])
        #expect(first.0 == 0)
        #expect(first.2 == "barkeep: the SARIF log leaves out 1 finding without a file.\n")
        #expect(try PythonTools.sarifSchemaErrors(file: try Self.file(first.1, named: "first.sarif")) == [])
        let results = try Self.results(first.1)
        #expect(results.count == 4)
        // By file: Sources/Inbox View, main.swift (declined), then Sources/Menu.swift (false positive).
        let suppressed = results.filter { $0["suppressions"] != nil }
        #expect(
            suppressed.map { ($0["suppressions"] as? [[String: String]])?.first?["justification"] }
                == ["design keeps it", "a menu"])
        #expect(suppressed.allSatisfy { ($0["suppressions"] as? [[String: String]])?.first?["kind"] == "external" })
        #expect(results.allSatisfy { ($0["message"] as? [String: String])?["text"]?.hasPrefix("Advice for") == true })

        // Twice the same log; a rescan that moved every line keeps each fingerprint, with the new line.
        #expect(try daemon.barkeep(["findings", "app", "--format", "sarif"]).1 == first.1)
        let before = try Self.places(first.1)
        // The fingerprint is the finding's identity: no line in it.
        let identity = FindingIdentity.digest(
            tool: "duo_scan", rule: "DUO008", file: "Sources/Menu.swift", normalizedSnippet: "NavigationView{",
            occurrence: 0, hasher: LibcryptoHasher())
        #expect(before[try #require(Int(navigation))]?.0 == identity)
        #expect(try daemon.barkeep(["ingest", "app", try Self.scan(Self.findings(shift: 3, withOld: false))]).0 == 0)
        // Without --status the log asks only for what it exports: the fixed finding is not even fetched.
        let second = try daemon.barkeep(["findings", "app", "--format", "sarif"])
        #expect(second.2 == first.2)
        let after = try Self.places(second.1)
        #expect(Set(after.keys) == Set(before.keys).subtracting([old]))
        for (number, place) in after {
            #expect(place.0 == before[number]?.0)
            #expect(place.1 == (before[number]?.1 ?? 0) + 3)
        }

        // --status chooses what the log holds, open or not.
        let declined = try daemon.barkeep(["findings", "app", "--format", "sarif", "--status", "declined"])
        #expect(try Self.results(declined.1).count == 1 && declined.2.isEmpty)
        let fixed = try daemon.barkeep(["findings", "app", "--format", "sarif", "--status", "fixed"])
        #expect(try Self.results(fixed.1).isEmpty)
        #expect(fixed.2 == "barkeep: the SARIF log leaves out 1 fixed or verified finding.\n")

        // Another project ingests the log: the same findings, by rule, file and line.
        _ = try daemon.barkeep(["project", "create", "copy"])
        let ingested = try daemon.barkeep(["--json", "ingest", "copy", try Self.file(second.1, named: "second.sarif")])
        #expect(ingested.0 == 0 && ingested.1.contains("\"new\":3"))
        func places(_ project: String) throws -> [String] {
            let listed = try daemon.barkeep(["--json", "findings", project, "--status", "all"]).1
            let findings = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
            return findings.compactMap { finding in
                guard let rule = finding["rule"] as? String, let file = finding["file"] as? String,
                    let line = finding["line"] as? Int, finding["status"] as? String != "fixed"
                else { return nil }
                return "\(rule) \(file):\(line) \(finding["snippet"] as? String ?? "")"
            }.sorted()
        }
        #expect(try places("copy") == (try places("app")))
    }

    @Test("a format it does not know, or --json beside one, is a usage error")
    func usage() throws {
        let daemon = try TestDaemon()
        let unknown = try daemon.barkeep(["findings", "app", "--format", "xml"])
        #expect(unknown.0 == 64 && unknown.2.hasPrefix("barkeep: --format must be text, csv, sarif, not 'xml'"))
        #expect(try daemon.barkeep(["--json", "findings", "app", "--format", "csv"]).0 == 64)
        #expect(try daemon.barkeep(["findings", "ghost", "--format", "sarif"]).2.contains("(NOTFOUND)"))
    }
}
