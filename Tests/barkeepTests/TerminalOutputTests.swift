import BarkeepTestSupport
import Foundation
import Testing

/// Scan content and names shown on a terminal: control characters and bidirectional overrides come out as visible
/// `<U+XXXX>` marks in `findings`, `status` and `screen list`, and unchanged in `--json`.
@Suite("terminal output of hostile values end to end")
struct TerminalOutputTests {
    @Test("findings, status and screen list show C1 controls and bidi overrides as marks; --json keeps them")
    func hostileValues() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let snippet = "let bar = UIToolbar() \u{9B}2J\u{202E}lave"
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": [
                [
                    "rule": "DUO007", "severity": "medium", "file": "Sources/Evil/View.swift", "line": 3,
                    "snippet": snippet,
                ]
            ],
        ]
        let scan = try TemporaryDirectory.make(prefix: "barkeep-hostile") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: scan))
        #expect(try daemon.barkeep(["ingest", "app", scan]).0 == 0)
        let added = try daemon.barkeep([
            "screen", "add", "app", "Evil", "--path", "Sources/Evil/**", "--title", "Evil\u{9B}31m\u{2066}title",
        ])
        #expect(added.0 == 0, "\(added)")

        let hostile: Set<UInt32> = [0x9B, 0x202E, 0x2066]
        func isClean(_ text: String) -> Bool { !text.unicodeScalars.contains { hostile.contains($0.value) } }

        let findings = try daemon.barkeep(["findings", "app"])
        #expect(findings.0 == 0)
        #expect(findings.1.contains("UIToolbar() <U+009B>2J<U+202E>lave"), "\(findings.1)")
        #expect(isClean(findings.1))

        let status = try daemon.barkeep(["status", "app"])
        #expect(status.0 == 0)
        #expect(status.1.contains("Evil<U+009B>31m<U+2066>title"), "\(status.1)")
        #expect(isClean(status.1))

        let screens = try daemon.barkeep(["screen", "list", "app"])
        #expect(screens.0 == 0)
        #expect(screens.1.contains("Evil<U+009B>31m<U+2066>title"), "\(screens.1)")
        #expect(isClean(screens.1))

        // JSON carries the values themselves (escaped by JSON where it must).
        let json = try daemon.barkeep(["--json", "findings", "app"]).1
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.first?["snippet"] as? String == snippet)
    }
}
