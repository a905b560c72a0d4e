import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// The MCP tools of the screen and step commands bound to their requests: their arguments, schemas and validation
/// come from the spec (BarkeepAPI), never written here.
enum ScreenTools {
    /// `set_step`: STEP SET of one screen (its first layout); no selection keys, no dry run.
    static var setStep: MCPTool {
        MCPTool.bound(
            StepSetRequest.self, name: "set_step", title: "Set a checklist step",
            description: "Set where a checklist step of a screen stands, as `barkeep step set`. A step with an open "
                + "finding of its rules cannot be done (CONFLICT).",
            hiding: ["screens", "owner", "all", "dry_run"], output: MCPSchema.screenStep
        ) { reply, request in
            guard case .first(let change) = reply.rows.first else {
                throw CLIError.badReply("STEP SET returned nothing")
            }
            let step = change.step
            return MCPToolOutput(
                structured: change.json,
                summary: "Step \(step.step) (\(step.key)) of \(request.screen ?? step.screen) is now "
                    + "\(step.state.rawValue).")
        }
    }

    /// `screen_detail`: SCREEN SHOW, its positional `key` named `screen`.
    static var screenDetail: MCPTool {
        MCPTool.bound(
            ScreenShowRequest.self, name: "screen_detail", title: "Screen detail",
            description: "One screen, as `barkeep screen show --json`: its checklist steps, latest pose results, the "
                + "findings needing work of the screen and of the components it uses, its history, and why it is "
                + "not done.",
            renaming: ["screen": "key"],
            output: MCPSchema.object(
                [
                    "screen": MCPSchema.screen, "steps": MCPSchema.array(MCPSchema.screenStep),
                    "poses": MCPSchema.array(MCPSchema.pose), "findings": MCPSchema.array(MCPSchema.finding),
                    "why": MCPSchema.array(
                        MCPSchema.object(
                            ["topic": ["type": "string"], "text": ["type": "string"]], required: ["topic", "text"]),
                        "Why it is not done; empty when it is."),
                    "history": MCPSchema.array(MCPSchema.event),
                ], required: ["screen", "steps", "poses", "findings", "why", "history"])
        ) { reply, request in
            let detail = reply.parts
            return MCPToolOutput(
                structured: detail.detailJSON,
                summary: detail.why.isEmpty
                    ? "\(request.key) is done."
                    : "\(request.key) is not done (\(Output.count(detail.findings.count, "finding")) needing work):\n"
                        + detail.why.map { "- \($0.text)" }.joined(separator: "\n"))
        }
    }
}
