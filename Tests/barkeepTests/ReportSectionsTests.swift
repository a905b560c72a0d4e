import BarkeepTestSupport
import Foundation
import Testing

/// The readiness report's sections of findings that need no more work (verified, kept, declined, false positives)
/// through the binaries: each lists its findings with their reasons, in Markdown, in HTML and in a part.
@Suite("barkeep report lists settled findings end to end")
struct ReportSectionsTests {
    /// A duo_scan report with one finding in Inbox and one in Feeds.
    private static func scan() throws -> String {
        let findings: [(String, String, Int, String)] = [
            ("DUO011", "Sources/Inbox/Menu.swift", 20, "Menu { more }"),
            ("DUO003", "Sources/Feeds/List.swift", 4, "if idiom == .pad {"),
        ]
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": findings.map { rule, file, line, snippet in
                [
                    "rule": rule, "severity": "medium", "file": file, "line": line, "snippet": snippet,
                    "title": "Title of \(rule)", "advice": "Advice for \(rule).",
                ] as [String: Any]
            },
        ]
        let path = try TemporaryDirectory.make(prefix: "barkeep-report-sections") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The text of the Markdown section titled `title`: from its heading to the next `## ` heading.
    private static func section(_ title: String, of report: String) -> String {
        guard let start = report.range(of: "\n## \(title)\n") else { return "" }
        let rest = report[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    @Test("verified, kept, declined and false positive findings are listed with their reasons")
    func settledSections() throws {
        let daemon = try TestDaemon()
        func run(_ arguments: [String]) throws -> String {
            let (status, output, error) = try daemon.barkeep(arguments)
            #expect(status == 0, "barkeep \(arguments.joined(separator: " ")): \(error)")
            return output
        }
        func item(_ title: String) throws -> String {
            let added = try run(["--json", "item", "add", "app", "--screen", "Inbox", "--step", "3", "--title", title])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(added.utf8)) as? [String: Any])
            return String(try #require(object["id"] as? Int))
        }
        _ = try run(["project", "create", "app"])
        _ = try run(["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"])
        _ = try run(["screen", "add", "app", "Feeds", "--path", "Sources/Feeds/**"])
        _ = try run(["ingest", "app", try Self.scan()])
        let listed = try run(["--json", "findings", "app", "--rule", "DUO003"])
        let scanned = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let misread = String(try #require(scanned.first?["id"] as? Int))
        let (verified, kept, declined) = (try item("Check the title"), try item("Keep the bar"), try item("Rank"))
        for status in ["approved", "applied"] { _ = try run(["finding", "set", "app", verified, status]) }
        _ = try run(["finding", "set", "app", verified, "verified", "--reason", "checked on an iPhone Duo"])
        _ = try run(["finding", "set", "app", kept, "kept", "--reason", "the custom bar stays"])
        _ = try run(["finding", "set", "app", declined, "declined", "--reason", "out of scope this release"])
        _ = try run(["finding", "set", "app", misread, "false_positive", "--reason", "the scanner misread it"])
        let expected = [
            ("Verified", verified, "checked on an iPhone Duo"), ("Kept as is", kept, "the custom bar stays"),
            ("Declined", declined, "out of scope this release"),
            ("False positives", misread, "the scanner misread it"),
        ]

        let report = try run(["report", "app"])
        for (title, number, reason) in expected {
            let section = Self.section(title, of: report)
            #expect(section.contains("| F-\(number) |") && section.contains(reason), "\(title): \(section)")
        }
        // Settled findings need no work: the recommendations and the summary leave them out.
        #expect(report.contains("- Findings needing work: 1 (1 medium)"), "\(report)")

        let html = try run(["report", "app", "--format", "html"])
        for (_, number, reason) in expected {
            #expect(html.contains("F-\(number)") && html.contains(reason), "F-\(number) in the HTML report")
        }
        #expect(!html.contains("Nothing is verified yet.") && !html.contains("Nothing is declined."))

        // A part lists the settled findings of its screens only.
        let inbox = try run(["report", "app", "--screens", "Inb*"])
        for (title, number, reason) in expected.dropLast() {
            #expect(Self.section(title, of: inbox).contains("| F-\(number) |"), "\(title) of Inbox")
            #expect(Self.section(title, of: inbox).contains(reason))
        }
        #expect(Self.section("False positives", of: inbox).contains("No finding is marked a false positive."))
    }
}
