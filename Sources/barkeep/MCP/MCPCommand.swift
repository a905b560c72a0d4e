import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep mcp`: a Model Context Protocol server on standard input and output for coding agents.
struct MCPCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "mcp",
        abstract: "Serve the audit to a coding agent: a Model Context Protocol server on standard input/output.",
        discussion: """
            Reads JSON-RPC 2.0 messages, one per line, from standard input and writes one line per response to
            standard output (the MCP stdio transport, protocol revisions 2024-11-05 to 2025-11-25); logs go to
            standard error. Each tool sends the request of a barkeep command to barkeepd (--server, --token, --tls,
            --ca as for every command) and answers the JSON its --json prints. A reader's token may use the read
            tools; the write tools need a writer's. Ends, exit 0, when standard input does. See docs/agents.md.
            """,
        arguments: [
            .option("project", valueName: "NAME", help: "The project the tools use when a call names none."),
            .flag("read-only", help: "List only the tools that read; calling one that writes is an error."),
        ]
    )

    /// What its read tools send, which is what an agent needs to start; the write tools' requests need a writer,
    /// as docs/agents.md says per tool (and MCPServerTests checks).
    static let requests: [String]? = [
        "PROJECT LIST", "STATUS", "SCREEN LIST", "SCREEN SHOW", "FINDINGS", "FINDING SHOW", "BLOCKED", "POSES",
        "CHECKLIST",
    ]

    /// The longest message line read; a longer one is skipped up to its newline and answered with a parse error.
    static let maximumLineLength = 4 << 20

    let project: String?
    let isReadOnly: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project")
        isReadOnly = parsed.flag("read-only")
        if let project, !Names.isValidProject(project) {
            throw UsageError(
                "--project: \(ValueExcerpt.quoted(project)) is not a project name", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        let logger = Logger(level: .info).with(["component": "mcp"])
        let server = MCPServer(context: context, defaultProject: project, isReadOnly: isReadOnly, logger: logger)
        var framer = LineFramer(maximumLineLength: Self.maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        logger.info("serving", ["tools": String(server.tools.count), "read-only": isReadOnly ? "yes" : "no"])
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            framer.append(buffer[..<count])
            while true {
                let message: JSONRPCMessage
                do {
                    guard let line = try framer.nextLineBytes() else { break }
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                    message = JSONRPCMessage.parse(line)
                } catch {
                    message = .invalid(
                        id: nil,
                        JSONRPCError(.parseError, "the line is longer than \(Self.maximumLineLength) bytes"))
                }
                if let response = server.respond(to: message) { try write(response) }
            }
        }
        logger.info("standard input ended")
    }

    /// Writes one message as one line on standard output.
    private func write(_ message: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        try FileHandle.standardOutput.write(contentsOf: data)
    }
}
