import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// The finding tools bound to their commands' specs: their arguments, validation and effect come from the request
/// types (BarkeepAPI), their output from the typed replies.
enum FindingTools {
    /// The `finding_detail` tool: FINDING SHOW.
    static var findingDetail: MCPTool {
        var finding = MCPSchema.finding
        if var properties = finding["properties"] as? [String: Any] {
            properties["message"] = ["type": "string"]
            properties["reason"] = ["type": "string"]
            properties["project"] = ["type": "string"]
            properties["history"] = MCPSchema.array(MCPSchema.event, "Its events, comments included, oldest first.")
            finding["properties"] = properties
            finding["required"] = ["id", "status", "needs", "history"]
        }
        return MCPTool.bound(
            FindingShowRequest.self, name: "finding_detail", title: "Finding detail",
            description: "One finding or item, as `barkeep finding show --json`: rule, severity, where, snippet, "
                + "message, status and reason, and its history with comments.",
            output: finding
        ) { reply, request in
            let head = reply.head
            let what = head.rule.map { "\($0) \(head.file ?? ""):\(head.line.map { String($0) } ?? "")" } ?? head.title
            return MCPToolOutput(
                structured: reply.detailJSON,
                summary: "Finding \(request.number.value): \(what ?? ""), \(head.status.rawValue)"
                    + (head.reason.map { " (\($0))" } ?? "") + "; \(Output.count(reply.rows.count, "event")).")
        }
    }

    /// The `comment_finding` tool: FINDING COMMENT.
    static var commentFinding: MCPTool {
        MCPTool.bound(
            FindingCommentRequest.self, name: "comment_finding", title: "Comment on a finding",
            description: "Add a comment to a finding's history (not a change of status), as `barkeep finding "
                + "comment`. One line of at most 4096 bytes.",
            output: MCPSchema.event
        ) { reply, request in
            guard let event = reply.rows.first else { throw CLIError.badReply("FINDING COMMENT returned nothing") }
            return MCPToolOutput(
                structured: event.commentJSON,
                summary: "Commented on finding \(request.number.value) (event \(event.seq)).")
        }
    }
}
