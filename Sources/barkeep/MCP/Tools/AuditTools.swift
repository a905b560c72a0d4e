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

    /// `blocked_items`: BLOCKED, as `barkeep blocked --json`.
    static var blockedItems: MCPTool {
        let nullable = { (type: String) in MCPSchema.types(type, "null") }
        return MCPTool.bound(
            BlockedRequest.self, name: "blocked_items", title: "Blocked items",
            description: "The items blocked on the iOS SDK, by SDK and symbol, as `barkeep blocked --json` (an item "
                + "waiting for several symbols appears under each).",
            output: MCPSchema.object(
                [
                    "blocked": MCPSchema.array(
                        MCPSchema.object(
                            [
                                "sdk": nullable("string"), "symbol": nullable("string"), "id": nullable("integer"),
                                "title": nullable("string"), "rule": nullable("string"), "screen": nullable("string"),
                                "status": nullable("string"), "reason": nullable("string"),
                            ], required: ["sdk", "symbol", "id"]))
                ], required: ["blocked"])
        ) { reply, _ in
            let items = Set(reply.rows.map(\.finding.id))
            return MCPToolOutput(
                structured: ["blocked": reply.rows.map(\.listJSON)],
                summary: items.isEmpty ? "Nothing is blocked." : "\(Output.count(items.count, "item")) blocked.")
        }
    }
}
