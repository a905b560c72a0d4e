import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// The MCP tools of the audit commands, bound to their requests: their arguments, schemas and validation come
/// from the spec (BarkeepAPI), never written here.
enum AuditTools {
    /// `record_pose`: POSE RECORD of one screen (its first layout), one pose; no glob, no dry run.
    static var recordPose: MCPTool {
        MCPTool.bound(
            PoseRecordRequest.self, name: "record_pose", title: "Record a pose result",
            description: "Record the result of verifying a screen in a pose, as `barkeep pose record`. failed needs "
                + "a screenshot and the finding it maps to (finding, or item to create one); not_run and "
                + "not_applicable need a reason; a device-only pose passes only with a device that is not a "
                + "simulator. A component is refused (BADARG), naming the screens that use it: record for them.",
            hiding: ["screens", "dry_run"], output: MCPSchema.pose
        ) { reply, _ in
            guard case .first(let row) = reply.rows.first else {
                throw CLIError.badReply("POSE RECORD returned no result")
            }
            let pose = row.pose
            var summary = "Recorded \(pose.pose.rawValue) \(pose.result.wire) for \(pose.screen)"
            if let finding = pose.finding { summary += ", mapped to finding \(finding.value)" }
            return MCPToolOutput(structured: pose.json, summary: summary + ".")
        }
    }
}
