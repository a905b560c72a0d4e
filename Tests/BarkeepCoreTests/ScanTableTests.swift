import BarkeepCore
import BarkeepHashing
import Foundation
import Testing

@Suite("ScanTable")
struct ScanTableTests {
    /// Strings a table must give back byte for byte, whether read from a document or written from a report.
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "tab\tnew line\n", "\u{1}\u{1F}\u{1B}", "é and 🦆", "/a/b",
    ]

    @Test("a report's findings come back unchanged from the table made of them")
    func reportRoundTrip() {
        let findings = Self.awkward.enumerated().map { index, text in
            ScanFinding(
                rule: "R\(text)", title: index % 2 == 0 ? text : nil, severity: "low", file: text, line: index + 1,
                snippet: text, message: index % 3 == 0 ? nil : text, fingerprints: index == 2 ? "{}" : nil)
        }
        let report = ScanReport(format: .sarif, tool: "t", toolVersion: "1", findings: findings)
        #expect(ScanTable(report).report == report)
    }

    @Test("a document's escaped strings are decoded, its plain ones read in place", arguments: awkward)
    func documentStrings(text: String) throws {
        let finding: [String: Any] = [
            "rule": "DUO001", "severity": "high", "line": 3, "file": text, "snippet": text, "advice": NSNull(),
        ]
        let document = try JSONSerialization.data(withJSONObject: ["tool": "duo_scan", "findings": [finding]])
        let table = try DuoScanParser.parseTable(Array(document))
        #expect(table.string(at: table.rows[0].file) == text)
        #expect(table.text(at: table.rows[0].snippet, equals: text))
        #expect(table.rows[0].message == 0 && table.rows[0].title == 0 && table.rows[0].severity == .high)
    }

    @Test("identities from the table are the digest of their parts, with occurrences ranked by line")
    func identities() throws {
        let findings = [(5, "a  b"), (2, "ab"), (9, "x"), (1, "a b")].map { line, snippet in
            ScanFinding(rule: "DUO001", severity: "low", file: "A.swift", line: line, snippet: snippet)
        }
        let identified = FindingIdentity.identify(findings, tool: "duo_scan", hasher: LibcryptoHasher())
        #expect(identified.map(\.occurrence) == [2, 1, 0, 0])
        for item in identified {
            #expect(
                item.identity
                    == FindingIdentity.digest(
                        tool: "duo_scan", rule: "DUO001", file: "A.swift", normalizedSnippet: item.normalizedSnippet,
                        occurrence: item.occurrence, hasher: LibcryptoHasher()))
        }
    }
}
