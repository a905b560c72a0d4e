import BarkeepTestSupport
import Foundation
import Testing

/// `barkeep mcp` end to end: the official MCP Python SDK as the client, over stdio, against a real daemon; the
/// stdio framing with bad input; docs/agents.md against the tools the server lists.
@Suite("barkeep mcp end to end")
struct MCPServerTests {
    /// The repository root.
    private static let root = SourceTree.root

    /// A duo_scan report: a DUO007, two DUO003 (low and medium) and a DUO011, all of the Inbox screen.
    private static func scan() throws -> String {
        let findings: [(String, String, String, Int, String)] = [
            ("DUO007", "medium", "Sources/Inbox/Bar.swift", 10, "let bar = UIToolbar()"),
            ("DUO003", "low", "Sources/Inbox/List.swift", 4, "if idiom == .pad {"),
            ("DUO003", "medium", "Sources/Inbox/Detail.swift", 8, "if idiom == .phone {"),
            ("DUO011", "low", "Sources/Inbox/Menu.swift", 20, "Menu { more }"),
        ]
        let document: [String: Any] = [
            "tool": "duo_scan", "version": "1.2.2",
            "findings": findings.map { rule, severity, file, line, snippet in
                [
                    "rule": rule, "severity": severity, "file": file, "line": line, "snippet": snippet,
                    "title": "Title of \(rule)", "advice": "Advice for \(rule).",
                ] as [String: Any]
            },
        ]
        let path = try TemporaryDirectory.make(prefix: "barkeep-mcp") + "/scan.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A token of `role`, made on the daemon's socket.
    private static func token(_ name: String, role: String, daemon: TestDaemon) throws -> String {
        let created = try daemon.barkeep(["token", "create", name, "--role", role])
        #expect(created.0 == 0, "\(created.2)")
        return created.1.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ids `barkeep findings app --status STATUS --json` prints.
    private static func numbers(status: String, daemon: TestDaemon) throws -> [Int] {
        let listed = try daemon.barkeep(["--json", "findings", "app", "--status", status])
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(listed.1.utf8)) as? [[String: Any]])
        return findings.compactMap { $0["id"] as? Int }.sorted()
    }

    @Test("the MCP Python SDK calls every tool; writes show in barkeep findings; a reader is refused; --read-only")
    func pythonClient() throws {
        let daemon = try TestDaemon()
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        #expect(try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**"]).0 == 0)
        let config: [String: String] = [
            "barkeep": BuildProducts.path("barkeep"), "server": "127.0.0.1:\(daemon.port)",
            "writer": try Self.token("agent", role: "writer", daemon: daemon),
            "reader": try Self.token("viewer", role: "reader", daemon: daemon), "scan": try Self.scan(),
        ]
        let script = Self.root.appendingPathComponent("Tests/MCP/mcp_client.py").path
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
        #expect(try Self.numbers(status: "approved", daemon: daemon) == [])
        let (status, output, error) = try Subprocess.run(
            try PythonTools.python(), [script, argument], timeout: .seconds(300))
        try #require(status == 0, "\(output)\n\(error)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let approved = try #require(seen["approved"] as? [Int])
        #expect(approved.count == 2)
        #expect(try Self.numbers(status: "approved", daemon: daemon) == approved)
        #expect(try Self.numbers(status: "declined", daemon: daemon) == [try #require(seen["declined"] as? Int)])
        #expect((seen["reader_refusal"] as? String)?.contains("needs the writer role") == true)
        #expect((seen["read_only_tools"] as? [String])?.count == 11)
    }

    /// Runs `barkeep mcp ARGUMENTS` with `input` on standard input, against no daemon (nothing here asks one).
    private static func serve(_ input: Data, _ arguments: [String] = []) throws -> (Int32, [[String: Any]], String) {
        let file = try TemporaryDirectory.make(prefix: "barkeep-mcp") + "/input"
        try input.write(to: URL(fileURLWithPath: file))
        let (status, output, error) = try Subprocess.run(
            "/bin/sh", ["-c", "exec \"$0\" mcp \"$@\" < \"$FILE\"", BuildProducts.path("barkeep")] + arguments,
            environment: ["FILE": file, "BARKEEP_SERVER": "127.0.0.1:1", "PATH": "/usr/bin:/bin"])
        // Standard output holds protocol messages only: one JSON object a line.
        let messages = try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        return (status, messages, error)
    }

    /// `{"jsonrpc":"2.0","id":ID,"method":METHOD,"params":PARAMS}` and a newline.
    private static func request(_ id: Int, _ method: String, _ params: [String: Any] = [:]) throws -> Data {
        let message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
        return try JSONSerialization.data(withJSONObject: message) + Data("\n".utf8)
    }

    @Test("bad lines get JSON-RPC errors and the server keeps going; EOF exits 0; logs go to standard error")
    func framing() throws {
        var input = try Self.request(1, "initialize", ["protocolVersion": "2099-01-01", "capabilities": [:]])
        input += Data("not json\n".utf8)
        input += Data(repeating: UInt8(ascii: "x"), count: 5 << 20) + Data("\n".utf8)
        input += Data("[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]\n".utf8)
        input += Data("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".utf8)
        input += try Self.request(2, "ping")
        input += try Self.request(3, "resources/list")
        input += try Self.request(4, "tools/call", ["name": "set_finding_status", "arguments": ["numbers": [1]]])
        input += try Self.request(5, "tools/call", ["name": "list_findings", "arguments": ["status": 3]])
        input += try Self.request(6, "tools/call", ["name": "list_findings"])
        input += try Self.request(7, "initialize", ["protocolVersion": "2025-06-18", "capabilities": [:]])
        // Arguments the schema refuses are answered without the daemon (out of reach here): nothing is sent.
        input += try Self.request(8, "tools/call", ["name": "list_findings", "arguments": ["severty": ["high"]]])
        input += try Self.request(9, "tools/call", ["name": "list_findings", "arguments": ["limit": "5"]])
        input += try Self.request(10, "tools/call", ["name": "list_projects", "arguments": ["project": ""]])
        // A misspelled tool is named with the closest ones; a long name is quoted short, not echoed whole.
        input += try Self.request(11, "tools/call", ["name": "list_finding"])
        input += try Self.request(12, String(repeating: "m", count: 100_000))
        let (status, messages, error) = try Self.serve(input, ["--read-only", "--project", "app"])
        #expect(status == 0)
        #expect(error.contains("msg=serving") && error.contains("read-only=yes"))
        func errorCode(_ index: Int) -> Int? { (messages[index]["error"] as? [String: Any])?["code"] as? Int }
        func result(_ index: Int) -> [String: Any]? { messages[index]["result"] as? [String: Any] }
        try #require(messages.count == 15, "\(messages)")
        // An unknown revision is answered with the newest served.
        #expect(result(0)?["protocolVersion"] as? String == "2025-11-25")
        #expect(errorCode(1) == -32700 && messages[1]["id"] is NSNull)
        #expect(errorCode(2) == -32700)
        #expect(errorCode(3) == -32600)
        #expect(messages[4]["id"] as? Int == 2 && result(4)?.isEmpty == true)
        #expect(errorCode(5) == -32601)
        #expect(errorCode(6) == -32602)
        // Arguments the tool cannot use, and a daemon out of reach: tool errors the model can read.
        let badArgument = ((result(7)?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(result(7)?["isError"] as? Bool == true && badArgument.hasPrefix("BADARG: status"))
        let unreachable = ((result(8)?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(result(8)?["isError"] as? Bool == true && unreachable.hasPrefix("UNAVAILABLE: cannot reach"))
        #expect(result(9)?["protocolVersion"] as? String == "2025-06-18")
        func toolError(_ index: Int) -> String? {
            guard result(index)?["isError"] as? Bool == true else { return nil }
            return (result(index)?["content"] as? [[String: Any]])?.first?["text"] as? String
        }
        #expect(toolError(10) == "BADARG: unknown argument 'severty' (did you mean 'severity'?)")
        #expect(toolError(11) == "BADARG: limit must be an integer, not '5'")
        #expect(toolError(12) == "BADARG: project must not be empty")
        #expect(badArgument == "BADARG: status must be an array of strings, not 3")
        func errorMessage(_ index: Int) -> String? {
            (messages[index]["error"] as? [String: Any])?["message"] as? String
        }
        #expect(errorCode(13) == -32602)
        #expect(errorMessage(13) == "no tool 'list_finding' (did you mean 'list_findings'?)")
        #expect(errorCode(14) == -32601)
        #expect(errorMessage(14) == "no method '\(String(repeating: "m", count: 40))…' (100000 bytes)")
    }

    /// The tools `barkeep mcp` lists, by name: their input properties and whether they read only.
    private static func listedTools() throws -> [String: (arguments: [String], isReadOnly: Bool)] {
        let (_, messages, _) = try serve(try request(1, "tools/list"))
        let tools = try #require((messages.first?["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        var listed: [String: (arguments: [String], isReadOnly: Bool)] = [:]
        for tool in tools {
            let name = try #require(tool["name"] as? String)
            let properties = try #require((tool["inputSchema"] as? [String: Any])?["properties"] as? [String: Any])
            let isReadOnly = (tool["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool == true
            listed[name] = (properties.keys.sorted(), isReadOnly)
        }
        return listed
    }

    @Test("docs/agents.md documents exactly the tools the server lists, each with its arguments and effect")
    func documentedTools() throws {
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/agents.md"), encoding: .utf8)
        let listed = try Self.listedTools()
        // Each tool: a `#### name` heading, then a line `Arguments: a, b, c.` and `Reads only.` or `Writes.`
        let sections = docs.components(separatedBy: "\n#### `").dropFirst()
        var documented: Set<String> = []
        for section in sections {
            guard let name = section.split(separator: "`").first.map(String.init) else { continue }
            documented.insert(name)
            guard let tool = listed[name] else { continue }
            let arguments = tool.arguments.map { "`\($0)`" }.joined(separator: ", ")
            #expect(section.contains("\nArguments: \(arguments).\n"), "\(name): \(arguments)")
            #expect(section.contains(tool.isReadOnly ? "Reads only." : "Writes (a writer's token)."), "\(name)")
        }
        #expect(documented == Set(listed.keys))
    }
}
