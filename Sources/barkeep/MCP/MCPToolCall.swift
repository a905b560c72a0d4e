import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// One call of a tool: its arguments, already checked against the tool's input schema (MCPServer does that before
/// any tool runs) and decoded by `MCPTool.taking` through the fields that declare them, and the daemon to ask. Holds
/// no accessor of its own: the one decoding layer is the fields'.
struct MCPToolCall {
    /// The arguments as the client sent them.
    let arguments: [String: Any]
    /// The server's `--project`, for a call that names none.
    let defaultProject: String?
    /// How to reach the daemon.
    let context: CLIContext

    /// The project: `project` (a string, as the tool's schema says), else `--project`; with neither, refused when
    /// `isNeeded`, else nil.
    func project(isNeeded: Bool = true) throws(MCPArgumentError) -> String? {
        if let project = arguments["project"], !(project is NSNull) {
            guard let text = project as? String else { throw MCPArgumentError(message: "project must be a string") }
            return text
        }
        guard let defaultProject else {
            guard isNeeded else { return nil }
            throw MCPArgumentError(message: "project is required: this barkeep mcp has no default project")
        }
        return defaultProject
    }

    /// Sends a typed request and returns its typed reply.
    func send<R: CommandRequest>(_ request: R) throws(CLIError) -> R.Reply { try context.send(request) }
}
