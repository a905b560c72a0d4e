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
}
