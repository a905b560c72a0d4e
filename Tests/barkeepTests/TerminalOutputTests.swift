import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Scan content and names shown on a terminal: control characters, bidirectional overrides and the line and
/// paragraph separators come out as visible `<U+XXXX>` marks in `findings`, `finding show`, `status`, `screen list`,
/// `watch` and the readiness report (Markdown and HTML), and as `\uXXXX` escapes of the same values in `--json`.
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

    @Test("a snippet, message and path with U+2028, U+2029, C1 controls and bidi overrides are neutralised everywhere")
    func separatorsAndReport() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let snippet = "let bar = UIToolbar() \u{2028}\u{9B}2J\u{202E}lave"
        let message = "Move the bar\u{2029}\u{9B}31m\u{2066}now"
        let file = "Sources/Evil/Bar\u{2028}View.swift"
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": [
                [
                    "rule": "DUO007", "severity": "medium", "file": file, "line": 3, "snippet": snippet,
                    "advice": message,
                ]
            ],
        ]
        let scan = try TemporaryDirectory.make(prefix: "barkeep-hostile") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: scan))
        #expect(try daemon.barkeep(["ingest", "app", scan]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Evil", "--path", "Sources/Evil/**"]).0 == 0)
        #expect(try daemon.barkeep(["finding", "set", "app", "1", "approved"]).0 == 0)

        let hostile: Set<UInt32> = [0x1B, 0x9B, 0x202E, 0x2066, 0x2028, 0x2029]
        func isClean(_ text: String) -> Bool { !text.unicodeScalars.contains { hostile.contains($0.value) } }
        let shownSnippet = "UIToolbar() <U+2028><U+009B>2J<U+202E>lave"

        let findings = try daemon.barkeep(["findings", "app"])
        #expect(findings.1.contains(shownSnippet), "\(findings.1)")
        #expect(findings.1.contains("Bar<U+2028>View.swift"), "\(findings.1)")
        #expect(isClean(findings.1))

        let shown = try daemon.barkeep(["finding", "show", "app", "1"])
        #expect(shown.1.contains("Move the bar<U+2029><U+009B>31m<U+2066>now"), "\(shown.1)")
        #expect(shown.1.contains(shownSnippet))
        #expect(isClean(shown.1))

        // The finding's events name its file: watch shows them as the other commands do.
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["watch", "app", "--since", "0"], environment: daemon.environment())
        defer { watcher.signal(SIGTERM) }
        #expect(eventually { watcher.output.contains("finding.status") }, "\(watcher.output)")
        #expect(watcher.output.contains("Bar<U+2028>View.swift"), "\(watcher.output)")
        #expect(isClean(watcher.output))

        let markdown = try daemon.barkeep(["report", "app"])
        #expect(markdown.0 == 0)
        #expect(markdown.1.contains("`let bar = UIToolbar() <U+2028><U+009B>2J<U+202E>lave`"), "\(markdown.1)")
        #expect(isClean(markdown.1))
        let html = try daemon.barkeep(["report", "app", "--format", "html"])
        #expect(html.0 == 0)
        #expect(html.1.contains("UIToolbar() &lt;U+2028&gt;&lt;U+009B&gt;2J&lt;U+202E&gt;lave"))
        #expect(isClean(html.1))

        // JSON escapes them and still carries the values.
        let json = try daemon.barkeep(["--json", "finding", "show", "app", "1"]).1
        #expect(isClean(json))
        #expect(json.contains("\\u2028") && json.contains("\\u202e"), "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["snippet"] as? String == snippet)
        #expect(object["message"] as? String == message)
        #expect(object["file"] as? String == file)
    }
}
