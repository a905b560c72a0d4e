import BarkeepAPI
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepReport

@Suite("findings --format csv")
struct FindingsCSVTests {
    @Test(
        "RFC 4180 fields: quoted only when they hold a comma, a quote, a CR or an LF; quotes doubled",
        arguments: [
            ("plain", "plain"), ("", ""), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("one\ntwo", "\"one\ntwo\""), ("one\r\ntwo", "\"one\r\ntwo\""), ("cr\r", "\"cr\r\""),
            ("ünïcødé ✓", "ünïcødé ✓"), ("'quoted'", "'quoted'"),
        ])
    func field(value: String, expected: String) {
        #expect(FindingsCSV.field(value) == expected)
    }

    @Test(
        "a cell that a spreadsheet would evaluate gets a leading apostrophe",
        arguments: [
            ("=SUM(A1)", "'=SUM(A1)"), ("+1", "'+1"), ("-2", "'-2"), ("@cmd", "'@cmd"), ("\tx", "'\tx"),
            ("\r\nx", "'\r\nx"), ("a=b", "a=b"), ("12", "12"), ("", ""), ("'=x", "'=x"), (" =x", " =x"),
        ])
    func formula(value: String, expected: String) {
        #expect(FindingsCSV.guardingFormula(value) == expected)
    }

    /// Findings with every awkward value a spreadsheet meets.
    static let wireRecords: [Record] = [
        Record([
            "id": "3", "identity": String(repeating: "a", count: 64), "project": "app", "source": "scanner",
            "rule": "DUO007", "severity": "medium", "file": "Sources/My View, Inc.swift", "line": "12",
            "snippet": "let bar = UINavigationBar(title: \"Inbox, all\")", "status": "declined",
            "reason": "design keeps it,\nsee \"bars\" doc\r\nsecond line", "screen": "Inbox",
            "title": "Standalone bar instance", "message": "Move items.", "first-seen-run": "1", "last-seen-run": "4",
            "step": "1", "tier": "2", "a-future-key": "ignored",
        ]),
        Record([
            "id": "7", "project": "app", "source": "manual", "severity": "high", "status": "blocked",
            "screen": "unmapped",
            "title": "=HYPERLINK(\"http://example.invalid\",\"click\")", "reason": "-needs the SDK", "step": "5",
            "needs": "axisBehavior,toolbarVerticalEdge", "assignee": "@alice",
        ]),
        Record([
            "id": "9", "project": "app", "source": "scanner", "rule": "DUO011", "severity": "low",
            "file": "Sources/Ünïcode.m",
            "line": "3", "snippet": "- (void)viewDidLoad { [self addMenu:@\"…\"]; }", "status": "proposed",
            "screen": "unmapped", "first-seen-run": "2", "last-seen-run": "2",
        ]),
    ]

    /// The records as the CLI reads FINDINGS' rows.
    static var records: [FindingRecord] {
        get throws { try Fixtures.rows(wireRecords) }
    }

    @Test("Python's csv module reads back every value, formulas guarded, columns by name")
    func pythonReadsItBack() throws {
        let text = FindingsCSV.document(try Self.records)
        #expect(text.hasPrefix("number,status,severity,rule,title,screen,file,line,snippet,reason,step,needs,"))
        #expect(text.hasSuffix("\r\n"))
        let path = try TemporaryDirectory.make(prefix: "barkeep-csv") + "/findings.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let rows = try PythonTools.csvRows(file: path)
        try #require(rows.count == 4)
        #expect(rows[0] == FindingsCSV.columns.map(\.header))
        #expect(rows.allSatisfy { $0.count == FindingsCSV.columns.count })
        let table = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
        #expect(table[0]["number"] == "3" && table[0]["status"] == "declined" && table[0]["line"] == "12")
        #expect(table[0]["file"] == "Sources/My View, Inc.swift")
        #expect(table[0]["snippet"] == "let bar = UINavigationBar(title: \"Inbox, all\")")
        #expect(table[0]["reason"] == "design keeps it,\nsee \"bars\" doc\r\nsecond line")
        #expect(table[0]["first_seen_run"] == "1" && table[0]["last_seen_run"] == "4" && table[0]["assignee"] == "")
        #expect(table[1]["title"] == "'=HYPERLINK(\"http://example.invalid\",\"click\")")
        #expect(table[1]["reason"] == "'-needs the SDK" && table[1]["assignee"] == "'@alice")
        #expect(table[1]["rule"] == "" && table[1]["file"] == "" && table[1]["line"] == "")
        #expect(table[1]["needs"] == "axisBehavior toolbarVerticalEdge" && table[1]["step"] == "5")
        #expect(table[2]["file"] == "Sources/Ünïcode.m")
        #expect(table[2]["snippet"] == "'- (void)viewDidLoad { [self addMenu:@\"…\"]; }")
    }

    @Test("no findings: the header row alone")
    func empty() {
        #expect(
            FindingsCSV.document([])
                == "number,status,severity,rule,title,screen,file,line,snippet,reason,step,needs,first_seen_run,"
                + "last_seen_run,assignee\r\n")
    }
}

@Suite("the export docs")
struct FindingsExportDocsTests {
    /// A file of the repository, found from this source file.
    static func repositoryFile(_ path: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("docs/cli.md shows the CSV header and names every column; both docs name the fingerprint key")
    func docs() throws {
        let cli = try Self.repositoryFile("docs/cli.md")
        #expect(cli.contains("\n" + FindingsCSV.columns.map(\.header).joined(separator: ",") + "\n"))
        for column in FindingsCSV.columns { #expect(cli.contains("`\(column.header)`")) }
        for prefix in FindingsCSV.formulaPrefixes where prefix.isPunctuation || prefix.isSymbol {
            #expect(cli.contains("`\(prefix)`"))
        }
        #expect(cli.contains("`\(FindingsSARIF.fingerprintKey)`"))
        #expect(try Self.repositoryFile("docs/protocol.md").contains("`\(FindingsSARIF.fingerprintKey)`"))
    }
}
