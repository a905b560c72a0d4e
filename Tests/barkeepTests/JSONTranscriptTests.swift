import BarkeepTestSupport
import Foundation
import Testing

/// Every `--json` output of the CLI against a daemon seeded by the script itself, then `barkeep mcp`'s `tools/list`
/// and one call of every read-only tool, compared with `Golden/json-transcript.txt`. The third safety net under the
/// command spec (issue 26): a conversion is done when this transcript is unchanged. Each JSON document is written
/// again with sorted keys, so the order of a dictionary cannot vary; times, token secrets, temporary paths, local
/// users and the leases the daemon's workers take are masked; everything else is the output as it is.
@Suite("the JSON transcript of the CLI and of barkeep mcp equals its golden file")
struct JSONTranscriptTests {
    /// Where the golden file lives; `BARKEEP_UPDATE_GOLDEN=1` rewrites it from the current outputs.
    private static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/json-transcript.txt")

    /// Keys whose values the daemon's own workers move, or that are secret: masked wherever they appear.
    private static let maskedKeys: Set<String> = ["holder", "lease_until", "token", "secret", "delivered"]

    /// An sdk-check document: one symbol found at iOS 27.0, one missing.
    private static let sdkCheck = """
        {"tool": "sdk_check", "version": "0.3", "sdk": "27.0", "symbols": [
          {"symbol": "axisBehavior", "found": true, "declaration": {"availability": "@available(iOS 27.0, *)"}},
          {"symbol": "barMinimizationBehavior", "found": false, "declaration": null}
        ]}
        """

    /// The CLI runs, each with `--json`: the writes that seed project `app` (their outputs are compared too), then
    /// every read. `files` holds the scan, the sdk-check document and the inbox.
    private static func script(files: String) -> [[String]] {
        [
            ["project", "create", "app", "--sdk", "26.0", "--deployment-target", "18.0"],
            ["project", "create", "spare"], ["project", "set", "app", "--poses", "P1,P2,P3"],
            ["token", "create", "ci", "--role", "writer"],
            [
                "ingest", "app", files + "/all-rules.json", "--format", "duo-scan", "--commit", "0123abc",
                "--commit-time", "2026-01-02T03:04:05Z",
            ],
            ["ingest", "app", files + "/sdk-check.json", "--format", "sdk-check"],
            ["finding", "set", "app", "1", "approved", "--reason", "seen it"],
            ["finding", "assign", "app", "1,2", "ana"], ["finding", "comment", "app", "1", "looks right"],
            [
                "screen", "add", "app", "Menu", "--path", "Sources/MenuView.swift", "--title", "The menu", "--owner",
                "ana",
            ],
            ["screen", "add", "app", "Bar", "--path", "Sources/Bar.m", "--kind", "component"],
            ["screen", "uses", "app", "Menu", "Bar"],
            ["step", "set", "app", "Menu", "12", "not_applicable", "--note", "checked"],
            [
                "item", "add", "app", "--screen", "Menu", "--step", "axis", "--title", "Keep the chip horizontal",
                "--needs", "axisBehavior", "--severity", "high",
            ],
            ["pose", "record", "app", "Menu", "P1", "passed", "--device", "iPhone Duo"],
            ["hook", "add", "spare", "http://127.0.0.1:9/hook", "--kinds", "finding.changed"],
            ["source", "add", "spare", "--inbox", files + "/inbox"], ["source", "pause", "1"],
            // The reads.
            ["ping"], ["project", "list"], ["project", "show", "app"], ["token", "list"], ["runs", "app"],
            ["run", "app", "1"], ["findings", "app"], ["findings", "app", "--status", "all", "--severity", "high"],
            ["finding", "show", "app", "1"], ["mine", "app", "--as", "ana"], ["screen", "list", "app"],
            ["screen", "show", "app", "Menu"], ["blocked", "app"], ["poses", "app"],
            ["pose", "history", "app", "Menu"],
            ["status", "app"], ["burndown", "app"], ["hook", "list"], ["source", "list"], ["source", "show", "1"],
            // Errors, as JSON scripts see them.
            ["project", "show", "nowhere"], ["finding", "show", "app", "0"],
        ]
    }

    /// The MCP session: `tools/list`, then one call of every read-only tool.
    private static var toolCalls: [(String, [String: Any])] {
        [
            ("list_projects", [:]), ("project_status", ["project": "app"]), ("list_screens", ["project": "app"]),
            ("screen_detail", ["project": "app", "screen": "Menu"]), ("list_findings", ["project": "app"]),
            ("finding_detail", ["project": "app", "number": 1]), ("blocked_items", ["project": "app"]),
            ("pose_matrix", ["project": "app"]), ("checklist", ["project": "app"]),
            ("readiness_report", ["project": "app"]),
            (
                "check_scan",
                [
                    "project": "app", "record": false,
                    "scan": #"{"tool":"duo_scan","version":"1.2.2","findings":[{"rule":"DUO007","severity":"medium","#
                        + #""file":"Sources/MenuView.swift","line":9,"snippet":"let bar = UIToolbar()"}]}"#,
                ]
            ),
        ]
    }

    /// `value` with every masked key's value replaced, every nested JSON text parsed and written again.
    private func normalized(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, item) in object {
                result[key] = Self.maskedKeys.contains(key) && !(item is NSNull) ? "<masked>" : normalized(item)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(normalized) }
        if let text = value as? String, text.hasPrefix("{") || text.hasPrefix("["),
            let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        {
            return ["<json text>": normalized(parsed)]
        }
        return value
    }

    /// `text` as JSON with sorted keys, one document a line of input if it is not one document; else as it is.
    private func sortedJSON(_ text: String) throws -> String {
        func write(_ value: Any) throws -> String {
            let data = try JSONSerialization.data(
                withJSONObject: normalized(value), options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self) + "\n"
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "" }
        let options: JSONSerialization.ReadingOptions = [.fragmentsAllowed]
        if let value = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: options) {
            return try write(value)
        }
        var result = ""
        for line in trimmed.split(separator: "\n") {
            if let value = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: options) {
                result += try write(value)
            } else {
                result += "(text) " + line + "\n"
            }
        }
        return result
    }

    /// Runs `barkeep mcp` against `daemon` with the session on standard input: its messages, sorted.
    private func mcp(_ daemon: TestDaemon, files: String) throws -> String {
        var messages: [[String: Any]] = [
            ["method": "initialize", "params": ["protocolVersion": "2025-06-18", "capabilities": [:]]],
            ["method": "tools/list", "params": [:]],
        ]
        for (name, arguments) in Self.toolCalls {
            messages.append(["method": "tools/call", "params": ["name": name, "arguments": arguments]])
        }
        var input = Data()
        for (index, message) in messages.enumerated() {
            var message = message
            message["jsonrpc"] = "2.0"
            message["id"] = index + 1
            input += try JSONSerialization.data(withJSONObject: message) + Data("\n".utf8)
        }
        let file = files + "/mcp-input"
        try input.write(to: URL(fileURLWithPath: file))
        var environment = daemon.environment()
        environment["FILE"] = file
        let (status, output, error) = try Subprocess.run(
            "/bin/sh", ["-c", "exec \"$0\" mcp < \"$FILE\"", BuildProducts.path("barkeep")],
            environment: environment)
        var text = "$ barkeep mcp (exit \(status))\n"
        for (message, line) in zip(messages, output.split(separator: "\n")) {
            let params = message["params"] as? [String: Any]
            text += "> " + (message["method"] as? String ?? "") + " " + (params?["name"] as? String ?? "") + "\n"
            text += try sortedJSON(String(line))
        }
        if output.split(separator: "\n").count != messages.count { text += "(messages missing)\n" + error }
        return text
    }

    /// The whole transcript: every CLI run with `--json`, then the MCP session; masked.
    private func wholeTranscript() throws -> String {
        let daemon = try TestDaemon()
        let files = try TemporaryDirectory.make(prefix: "barkeep-json")
        try FileManager.default.createDirectory(atPath: files + "/inbox", withIntermediateDirectories: true)
        try Data(try Fixtures.bytes("duo_scan/all-rules.json")).write(
            to: URL(fileURLWithPath: files + "/all-rules.json"))
        try Data(Self.sdkCheck.utf8).write(to: URL(fileURLWithPath: files + "/sdk-check.json"))
        var text = ""
        for arguments in Self.script(files: files) {
            let (status, output, error) = try daemon.barkeep(["--json"] + arguments)
            text += "$ barkeep --json " + arguments.joined(separator: " ") + " (exit \(status))\n"
            text += try sortedJSON(output)
            if status != 0 { text += "(stderr) " + error.trimmingCharacters(in: .whitespacesAndNewlines) + "\n" }
        }
        text += try mcp(daemon, files: files)
        return mask(text.replacingOccurrences(of: daemon.socket, with: "<socket>"), files: files)
    }

    /// `text` with what changes from run to run replaced: times, PING's round trip, temporary paths, local users.
    private func mask(_ text: String, files: String) -> String {
        var text = text.replacingOccurrences(of: files, with: "<files>")
        let patterns = [
            (#"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?"#, "<time>"),
            (#"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC"#, "<time>"), (#""milliseconds" : [0-9.]+"#, "\"milliseconds\" : <n>"),
            (#"local:[^ \n"]+"#, "local:<user>"),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test("every --json output and every read-only MCP tool answers as the golden file says")
    func transcript() throws {
        try GoldenFile.check(try wholeTranscript(), against: Self.golden)
    }
}
