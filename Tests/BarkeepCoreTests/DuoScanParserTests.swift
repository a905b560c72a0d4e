import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

@Suite("DuoScanParser")
struct DuoScanParserTests {
    // MARK: - Real scanner output

    @Test("the fixtures are there: 5 reports and 14 history runs")
    func fixturesFound() {
        #expect(Fixtures.directory != nil)
        #expect(Fixtures.duoScanFiles.count == 19)
    }

    @Test("every fixture parses to what JSONSerialization sees in it", arguments: Fixtures.duoScanFiles)
    func parsesFixture(path: String) throws {
        let report = try DuoScanParser.parse(try Fixtures.bytes(path))
        let json = try Fixtures.json(path)
        let expected = try #require(json["findings"] as? [[String: Any]])

        #expect(report.format == .duoScan)
        #expect(report.tool == "duo_scan")
        #expect(report.toolVersion == "1.2.2")
        #expect(report.filesScanned == json["source_files_scanned"] as? Int)
        #expect(report.lifecycle == (json["project"] as? [String: Any])?["lifecycle"] as? String)
        try #require(report.findings.count == expected.count)
        for (finding, raw) in zip(report.findings, expected) {
            #expect(finding.rule == raw["rule"] as? String)
            #expect(finding.title == raw["title"] as? String)
            #expect(finding.severity == raw["severity"] as? String)
            #expect(finding.file == raw["file"] as? String)
            #expect(finding.line == raw["line"] as? Int)
            #expect(finding.snippet == raw["snippet"] as? String)
            #expect(finding.message == raw["advice"] as? String)
            #expect(finding.fingerprints == nil)
        }
    }

    /// File, count, files scanned, lifecycle, and one finding's exact fields.
    static let knownValues:
        [(path: String, count: Int, filesScanned: Int, lifecycle: String, index: Int, finding: ScanFinding)] = [
            (
                "duo_scan/all-rules.json", 21, 6, "app-delegate-only", 0,
                ScanFinding(
                    rule: "DUO005",
                    title: "App lifecycle without scene lifecycle",
                    severity: "critical",
                    file: "App/AppDelegate.swift",
                    line: 2,
                    snippet: "class AppDelegate: UIResponder, UIApplicationDelegate {",
                    message: "UIScene lifecycle is required when building with the latest SDKs; without it the app no "
                        + "longer launches. Adopt a UIWindowSceneDelegate and a UIApplicationSceneManifest, or a "
                        + "SwiftUI App."
                )
            ),
            (
                "duo_scan/all-rules.json", 21, 6, "app-delegate-only", 15,
                ScanFinding(
                    rule: "DUO011",
                    title: "Custom ellipsis overflow button",
                    severity: "low",
                    file: "Sources/MenuView.swift",
                    line: 7,
                    snippet: #"Menu { Button("Filter") {} } label: { Image(systemName: "ellipsis.circle") }"#
                )
            ),
            (
                "duo_scan/gilrodar_ToolBar.json", 2, 2, "app-delegate-only", 1,
                ScanFinding(
                    rule: "DUO007",
                    title: "Standalone bar instance",
                    severity: "medium",
                    file: "ToolBar/ViewController.swift",
                    line: 19,
                    snippet: "let toolbar:UIToolbar = UIToolbar(frame: CGRect(x: 0, y: 0,  width: "
                        + "self.view.frame.size.width, height: 30))"
                )
            ),
            (
                "duo_scan/scene-no-manifest.json", 1, 1, "scene", 0,
                ScanFinding(
                    rule: "DUO012",
                    title: "Scene delegate without a scene manifest",
                    severity: "low",
                    file: "App/SceneDelegate.swift",
                    line: 1,
                    snippet: "scene delegate without manifest"
                )
            ),
        ]

    @Test("known values", arguments: knownValues)
    func knownValue(
        path: String,
        count: Int,
        filesScanned: Int,
        lifecycle: String,
        index: Int,
        finding: ScanFinding
    ) throws {
        let report = try DuoScanParser.parse(try Fixtures.bytes(path))
        #expect(report.findings.count == count)
        #expect(report.filesScanned == filesScanned)
        #expect(report.lifecycle == lifecycle)
        let parsed = try #require(report.findings.indices.contains(index) ? report.findings[index] : nil)
        // The advice is long; compare it only where the table gives it.
        #expect(finding.message == nil || parsed.message == finding.message)
        var withoutMessage = parsed
        if finding.message == nil { withoutMessage.message = nil }
        #expect(withoutMessage == finding)
    }

    @Test(
        "inventory-only reports have no findings",
        arguments: [
            "duo_scan/bars-evals.json", "duo_scan/AdamYoneda_DiffableDataSourceChatBootcamp.json",
            "duo_scan/history/NetNewsWire/01-6a68db21.json", "duo_scan/history/NetNewsWire/03-737a4472.json",
        ])
    func emptyReport(path: String) throws {
        #expect(try DuoScanParser.parse(try Fixtures.bytes(path)).findings.isEmpty)
    }

    @Test("the NetNewsWire history matches its INDEX.tsv (findings, files scanned)")
    func historyIndex() throws {
        let index = try #require(
            String(
                bytes: try Fixtures.bytes("duo_scan/history/NetNewsWire/INDEX.tsv"),
                encoding: .utf8))
        let rows = index.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.count == 14)
        for row in rows {
            let report = try DuoScanParser.parse(try Fixtures.bytes("duo_scan/history/NetNewsWire/\(row[6])"))
            #expect(report.findings.count == Int(row[3]), "\(row[6])")
            #expect(report.filesScanned == Int(row[4]), "\(row[6])")
        }
    }

    @Test("three identical snippets in one file stay three findings")
    func identicalSnippets() throws {
        let document = Self.document(findings: [
            Self.finding(["line": "3"]), Self.finding(["line": "7"]), Self.finding(["line": "9"]),
        ])
        let report = try DuoScanParser.parse(Array(document.utf8))
        #expect(report.findings.map(\.line) == [3, 7, 9])
        #expect(Set(report.findings.map(\.snippet)).count == 1)
    }

    // MARK: - Accepted variations

    /// Documents that are valid, with what the parser reads from their only finding or top level.
    static let accepted: [(name: String, document: String, check: @Sendable (ScanReport) -> Bool)] = [
        (
            "no findings, nothing optional",
            #"{"tool":"duo_scan","findings":[]}"#,
            { $0.findings.isEmpty && $0.toolVersion == nil && $0.filesScanned == nil && $0.lifecycle == nil }
        ),
        (
            "null optionals are absent",
            #"{"tool":"x","version":null,"source_files_scanned":null,"project":null,"findings":[]}"#,
            { $0.tool == "x" && $0.toolVersion == nil && $0.filesScanned == nil && $0.lifecycle == nil }
        ),
        ("project without lifecycle", #"{"tool":"x","project":{},"findings":[]}"#, { $0.lifecycle == nil }),
        ("zero files scanned", #"{"tool":"x","source_files_scanned":0,"findings":[]}"#, { $0.filesScanned == 0 }),
        ("empty snippet", document(findings: [finding(["snippet": #""""#])]), { $0.findings[0].snippet == "" }),
        (
            "null title and advice",
            document(findings: [finding(["title": "null", "advice": "null"])]),
            { $0.findings[0].title == nil && $0.findings[0].message == nil }
        ),
        ("line written 12.0", document(findings: [finding(["line": "12.0"])]), { $0.findings[0].line == 12 }),
        ("line written 1e1", document(findings: [finding(["line": "1e1"])]), { $0.findings[0].line == 10 }),
        (
            "unknown members anywhere",
            document(findings: [finding(["extra": #"{"deep":[true,null]}"#])]),
            { $0.findings.count == 1 }
        ),
        (
            "UTF-8 and escapes kept",
            document(findings: [finding(["snippet": #""Text(\"Größe ✓\")\t\ud83d\ude00""#])]),
            { $0.findings[0].snippet == "Text(\"Größe ✓\")\t😀" }
        ),
        ("CRLF between tokens", "{\r\n\"tool\": \"x\",\r\n\"findings\": []\r\n}\r\n", { $0.tool == "x" }),
        ("UTF-8 byte order mark", "\u{FEFF}{\"tool\":\"x\",\"findings\":[]}", { $0.tool == "x" }),
    ]

    @Test("accepted documents", arguments: accepted)
    func acceptedDocument(name: String, document: String, check: @Sendable (ScanReport) -> Bool) throws {
        let report = try DuoScanParser.parse(Array(document.utf8))
        #expect(check(report), "\(name)")
    }

    // MARK: - Refused documents

    /// Documents that are JSON but not a duo_scan report, with the exact place and problem.
    static let refused: [(name: String, document: String, path: String, problem: String)] = [
        ("top level is an array", "[]", "", "expected an object"),
        ("top level is a string", #""duo_scan""#, "", "not valid JSON"),
        ("tool missing", #"{"findings":[]}"#, "tool", "missing"),
        ("tool null", #"{"tool":null,"findings":[]}"#, "tool", "missing"),
        ("tool a number", #"{"tool":1,"findings":[]}"#, "tool", "expected a string"),
        ("findings missing", #"{"tool":"duo_scan"}"#, "findings", "missing"),
        ("findings an object", #"{"tool":"duo_scan","findings":{}}"#, "findings", "expected an array"),
        ("version a number", #"{"tool":"x","version":1.2,"findings":[]}"#, "version", "expected a string"),
        (
            "files scanned a string", #"{"tool":"x","source_files_scanned":"6","findings":[]}"#,
            "source_files_scanned", "expected an integer"
        ),
        (
            "files scanned negative", #"{"tool":"x","source_files_scanned":-1,"findings":[]}"#,
            "source_files_scanned", "expected a non-negative integer"
        ),
        ("project a string", #"{"tool":"x","project":"scene","findings":[]}"#, "project", "expected an object"),
        (
            "lifecycle a number", #"{"tool":"x","project":{"lifecycle":3},"findings":[]}"#, "project.lifecycle",
            "expected a string"
        ),
        ("finding a number", document(findings: ["1"]), "findings[0]", "expected an object"),
        ("finding null", document(findings: ["null"]), "findings[0]", "expected an object"),
        ("line a string", document(findings: [finding(["line": #""12""#])]), "findings[0].line", "expected an integer"),
        ("line true", document(findings: [finding(["line": "true"])]), "findings[0].line", "expected an integer"),
        ("line false", document(findings: [finding(["line": "false"])]), "findings[0].line", "expected an integer"),
        ("line 12.5", document(findings: [finding(["line": "12.5"])]), "findings[0].line", "expected an integer"),
        ("line 0", document(findings: [finding(["line": "0"])]), "findings[0].line", "expected a positive integer"),
        ("line -3", document(findings: [finding(["line": "-3"])]), "findings[0].line", "expected a positive integer"),
        // What a PostgreSQL integer holds, and no more: a larger value would fail the database, not the parser.
        (
            "line 2^31", document(findings: [finding(["line": "2147483648"])]), "findings[0].line",
            "expected an integer of at most 2147483647"
        ),
        (
            "files scanned 3e9", #"{"tool":"x","source_files_scanned":3000000000,"findings":[]}"#,
            "source_files_scanned", "expected an integer of at most 2147483647"
        ),
        ("line 1e30", document(findings: [finding(["line": "1e30"])]), "findings[0].line", "expected an integer"),
        (
            "line 2^64 - 1", document(findings: [finding(["line": "18446744073709551615"])]), "findings[0].line",
            "expected an integer"
        ),
        ("line an array", document(findings: [finding(["line": "[3]"])]), "findings[0].line", "expected an integer"),
        ("line missing", document(findings: [finding(["line": nil])]), "findings[0].line", "missing"),
        ("line null", document(findings: [finding(["line": "null"])]), "findings[0].line", "missing"),
        ("rule missing", document(findings: [finding(["rule": nil])]), "findings[0].rule", "missing"),
        ("file null", document(findings: [finding(["file": "null"])]), "findings[0].file", "missing"),
        ("file an object", document(findings: [finding(["file": "{}"])]), "findings[0].file", "expected a string"),
        ("snippet missing", document(findings: [finding(["snippet": nil])]), "findings[0].snippet", "missing"),
        (
            "snippet a number", document(findings: [finding(["snippet": "5"])]), "findings[0].snippet",
            "expected a string"
        ),
        (
            "severity outside the list", document(findings: [finding(["severity": #""severe""#])]),
            "findings[0].severity", "expected one of critical, high, medium, low, info"
        ),
        (
            "severity capitalized", document(findings: [finding(["severity": #""High""#])]), "findings[0].severity",
            "expected one of critical, high, medium, low, info"
        ),
        (
            "severity a number", document(findings: [finding(["severity": "3"])]), "findings[0].severity",
            "expected a string"
        ),
        ("severity missing", document(findings: [finding(["severity": nil])]), "findings[0].severity", "missing"),
        ("title a number", document(findings: [finding(["title": "5"])]), "findings[0].title", "expected a string"),
        (
            "advice an array", document(findings: [finding(["advice": "[]"])]), "findings[0].advice",
            "expected a string"
        ),
        (
            "the 13th finding is wrong",
            document(
                findings: Array(repeating: finding(), count: 12)
                    + [finding(["line": #""12""#])]), "findings[12].line", "expected an integer"
        ),
    ]

    @Test("refused documents name the place and the problem", arguments: refused)
    func refusedDocument(name: String, document: String, path: String, problem: String) {
        let error = #expect(throws: CoreError.self, "\(name)") { try DuoScanParser.parse(Array(document.utf8)) }
        guard case .invalidDocument(let actualPath, let actualProblem) = error else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
        #expect(actualPath == path, "\(name)")
        if problem == "not valid JSON" {
            #expect(actualProblem.hasPrefix("not valid JSON ("), "\(name): \(actualProblem)")
        } else {
            #expect(actualProblem == problem, "\(name)")
        }
    }

    @Test("the error reads as path: problem")
    func errorDescription() {
        let document = Self.document(
            findings: Array(repeating: Self.finding(), count: 12) + [Self.finding(["line": "true"])]
        )
        #expect(throws: CoreError.invalidDocument(path: "findings[12].line", problem: "expected an integer")) {
            try DuoScanParser.parse(Array(document.utf8))
        }
        let error = CoreError.invalidDocument(path: "findings[12].line", problem: "expected an integer")
        #expect(error.description == "findings[12].line: expected an integer")
    }

    /// Bytes that are not JSON at all.
    static let garbage: [(name: String, bytes: [UInt8])] = [
        ("empty", []),
        ("words", Array("hello world".utf8)),
        ("binary", [0x00, 0xFF, 0xFE, 0x7B]),
        ("invalid UTF-8 in a string", Array(#"{"tool":""#.utf8) + [0xC3, 0x28] + Array(#"","findings":[]}"#.utf8)),
        ("trailing garbage", Array(#"{"tool":"x","findings":[]} x"#.utf8)),
        ("a control character in a string", Array("{\"tool\":\"a\u{01}b\",\"findings\":[]}".utf8)),
        ("nesting deeper than the parser allows", Array(repeating: UInt8(ascii: "["), count: 10_000)),
        ("markdown report instead of JSON", Array("# duo_scan report\n\n| rule | file |\n".utf8)),
    ]

    @Test("not JSON: empty path, not valid JSON", arguments: garbage)
    func notJSON(name: String, bytes: [UInt8]) {
        let error = #expect(throws: CoreError.self, "\(name)") { try DuoScanParser.parse(bytes) }
        guard case .invalidDocument(let path, let problem) = error else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
        #expect(path == "", "\(name)")
        #expect(problem.hasPrefix("not valid JSON ("), "\(name): \(problem)")
    }

    @Test("every truncation of a real report is refused as not valid JSON")
    func truncations() throws {
        let bytes = try Fixtures.bytes("duo_scan/history/NetNewsWire/05-e54056ce.json")
        let end = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        #expect(try DuoScanParser.parse(bytes).findings.count == 3)
        for length in 0..<end {
            do {
                _ = try DuoScanParser.parse(Array(bytes[..<length]))
                Issue.record("a prefix of \(length) bytes parsed")
            } catch {
                guard case .invalidDocument(let path, let problem) = error, path.isEmpty,
                    problem.hasPrefix("not valid JSON (")
                else {
                    Issue.record("a prefix of \(length) bytes: \(error)")
                    continue
                }
            }
        }
    }

    // MARK: - Building documents

    /// A valid finding with `overrides` applied: a value is JSON text; nil removes the member.
    private static func finding(_ overrides: [String: String?] = [:]) -> String {
        var members: [(String, String)] = [
            ("id", #""DUO001:Sources/A.swift:3""#), ("rule", #""DUO001""#), ("title", #""Main screen reference""#),
            ("severity", #""high""#), ("file", #""Sources/A.swift""#), ("line", "3"),
            ("snippet", #""let s = UIScreen.main.scale""#), ("advice", #""Use traitCollection.displayScale.""#),
        ]
        for (key, value) in overrides {
            if let position = members.firstIndex(where: { $0.0 == key }) {
                if let value { members[position].1 = value } else { members.remove(at: position) }
            } else if let value {
                members.append((key, value))
            }
        }
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A report around `findings` (JSON texts).
    private static func document(findings: [String]) -> String {
        #"{"tool":"duo_scan","version":"1.2.2","findings":["# + findings.joined(separator: ",") + "]}"
    }
}
