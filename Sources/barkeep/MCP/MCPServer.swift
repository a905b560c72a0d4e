import BarkeepCore
import BarkeepProtocol
import Foundation

/// The MCP server of `barkeep mcp`: answers one JSON-RPC message at a time (lifecycle, tools, prompts), asking the
/// daemon through the CLI's client. Holds no state but the negotiated protocol version.
final class MCPServer {
    /// The protocol revisions served with the initialize handshake, newest first. The stateless revision
    /// (2026-07-28) is not: its `server/discover` probe is answered method-not-found, and clients fall back to
    /// the handshake.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The tools listed (all, or only those that read).
    let tools: [MCPTool]
    /// Every tool's name, to tell a write tool refused under `--read-only` from an unknown one.
    private let allToolNames: Set<String>
    /// The project a call names none of.
    let defaultProject: String?
    /// How to reach the daemon.
    let context: CLIContext
    /// Where failures go: standard error, never standard output (the protocol's).
    let logger: Logger
    /// The revision agreed at initialize; nil before.
    private(set) var protocolVersion: String?

    /// A server for `context`'s daemon.
    init(context: CLIContext, defaultProject: String?, isReadOnly: Bool, logger: Logger) {
        self.context = context
        self.logger = logger
        self.defaultProject = defaultProject
        tools = MCPTools.catalog(isReadOnly: isReadOnly)
        allToolNames = Set(MCPTools.catalog(isReadOnly: false).map(\.name))
    }

    /// The response to send for `message`, or nil for a notification or a client's response.
    func respond(to message: JSONRPCMessage) -> [String: Any]? {
        switch message {
        case .response, .notification: return nil
        case .invalid(let id, let error): return JSONRPCMessage.error(id: id, error)
        case .request(let id, let method, let params):
            do {
                return JSONRPCMessage.result(id: id, try handle(method, params))
            } catch {
                return JSONRPCMessage.error(id: id, error)
            }
        }
    }

    private func handle(_ method: String, _ params: [String: Any]) throws(JSONRPCError) -> [String: Any] {
        switch method {
        case "initialize": return initialize(params)
        case "ping": return [:]
        case "tools/list": return ["tools": tools.map(\.listing)]
        case "tools/call": return try callTool(params)
        case "prompts/list": return ["prompts": [MCPTools.auditScreenListing]]
        case "prompts/get": return try getPrompt(params)
        default: throw JSONRPCError(.methodNotFound, "no method \(ValueExcerpt.quoted(method))")
        }
    }

    /// Answers the client's revision when served, else the newest served.
    private func initialize(_ params: [String: Any]) -> [String: Any] {
        let requested = params["protocolVersion"] as? String ?? ""
        let version = Self.protocolVersions.contains(requested) ? requested : Self.protocolVersions[0]
        protocolVersion = version
        return [
            "protocolVersion": version,
            "capabilities": ["tools": ["listChanged": false], "prompts": ["listChanged": false]],
            "serverInfo": ["name": "barkeep", "title": "Barkeep", "version": BarkeepVersion.current],
            "instructions": """
            Barkeep tracks an iOS app's iPhone Duo bars audit: screens, scanner findings, checklist steps, \
            pose verification and items blocked on the iOS 27.1 SDK. Read with list_findings, screen_detail \
            and project_status; change statuses with set_finding_status (try dry_run first with a filter).
            """,
        ]
    }

    private func callTool(_ params: [String: Any]) throws(JSONRPCError) -> [String: Any] {
        guard let name = params["name"] as? String else { throw JSONRPCError(.invalidParams, "name is required") }
        guard let tool = tools.first(where: { $0.name == name }) else {
            if allToolNames.contains(name) {
                throw JSONRPCError(.invalidParams, "\(name) changes the audit: this server is --read-only")
            }
            throw JSONRPCError(
                .invalidParams,
                "no tool \(ValueExcerpt.quoted(name))"
                    + NameSuggestion.hint(NameSuggestion.closest(to: name, among: tools.map(\.name))))
        }
        let arguments: [String: Any]
        switch params["arguments"] {
        case nil, is NSNull: arguments = [:]
        case let given as [String: Any]: arguments = given
        default: throw JSONRPCError(.invalidParams, "arguments must be an object")
        }
        // Arguments the schema refuses (an unknown name, a wrong type) are a tool error the model can correct
        // (MCP 2025-11-25, SEP-1303), answered before anything is read or written.
        if let violation = JSONSchemaValidator.violation(of: arguments, against: tool.inputSchema) {
            logger.info("tool refused", ["tool": name, "code": ErrorCode.badArgument.rawValue])
            return Self.toolError(ErrorCode.badArgument.rawValue, violation.description)
        }
        let call = MCPToolCall(arguments: arguments, defaultProject: defaultProject, context: context)
        do {
            let output = try tool.run(call)
            return [
                "content": [["type": "text", "text": output.summary]], "structuredContent": output.structured,
                "isError": false,
            ]
        } catch {
            let (code, message) = Self.describe(error, tool: tool)
            logger.info("tool failed", ["tool": name, "code": code])
            return Self.toolError(code, message)
        }
    }

    /// A tool error: `isError` and one text content `CODE: message`.
    private static func toolError(_ code: String, _ message: String) -> [String: Any] {
        ["content": [["type": "text", "text": "\(code): \(message)"]], "isError": true]
    }

    /// A failed call's error code (the daemon's, or BADARG for an argument, UNAVAILABLE for the connection) and
    /// message, worded in `tool`'s argument names (MCPWording) wherever it came from.
    static func describe(_ error: any Error, tool: MCPTool?) -> (code: String, message: String) {
        let (code, message): (String, String)
        switch error {
        case let error as MCPArgumentError: (code, message) = (ErrorCode.badArgument.rawValue, error.message)
        case CLIError.server(let serverCode, let text), CLIError.refused(let serverCode, let text):
            (code, message) = (serverCode.rawValue, text)
        case let error as CLIError where error.isConnectionProblem:
            (code, message) = (ErrorCode.unavailable.rawValue, error.description)
        case CLIError.badInput(let text): (code, message) = (ErrorCode.badArgument.rawValue, text)
        case let error as CoreError: (code, message) = (ErrorCode.badArgument.rawValue, error.description)
        default: (code, message) = (ErrorCode.internal.rawValue, "\(error)")
        }
        return (code, MCPWording.reworded(message, for: tool))
    }

    private func getPrompt(_ params: [String: Any]) throws(JSONRPCError) -> [String: Any] {
        guard params["name"] as? String == MCPTools.auditScreenPrompt else {
            throw JSONRPCError(
                .invalidParams, "no prompt \(ValueExcerpt.quoted(String(describing: params["name"] ?? "")))")
        }
        guard let arguments = params["arguments"] as? [String: Any], arguments["screen"] is String else {
            throw JSONRPCError(.invalidParams, "\(MCPTools.auditScreenPrompt) needs the argument screen")
        }
        do {
            return try MCPTools.auditScreen(
                MCPToolCall(arguments: arguments, defaultProject: defaultProject, context: context))
        } catch {
            let (code, message) = Self.describe(error, tool: nil)
            let isCallers = [ErrorCode.badArgument.rawValue, ErrorCode.notFound.rawValue].contains(code)
            throw JSONRPCError(isCallers ? .invalidParams : .internalError, "\(code): \(message)")
        }
    }
}
