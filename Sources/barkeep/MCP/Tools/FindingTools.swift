import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// The finding tools bound to their commands' specs: their arguments, validation and effect come from the request
/// types (BarkeepAPI), their output from the typed replies.
enum FindingTools {
    /// The most findings list_findings returns unless told otherwise.
    static let defaultFindingLimit = 200

    /// The `list_findings` tool: FINDINGS, with the filters as MCPSchema.findingFilters types them and a limit of
    /// its own (the tool's page, not the wire's).
    static var listFindings: MCPTool {
        var arguments = MCPSchema.findingFilters
        arguments["limit"] = MCPSchema.integer(
            "At most this many findings, by file and line (default \(defaultFindingLimit)).", minimum: 1)
        return MCPTool(
            name: "list_findings", title: "List findings",
            description: "A project's findings, by file and line, as `barkeep findings --json`: by default those "
                + "that need work (status open). Filters combine (all must hold); list filters take arrays.",
            arguments: arguments, required: [],
            output: MCPSchema.object(
                [
                    "findings": MCPSchema.array(MCPSchema.finding),
                    "count": MCPSchema.integer("How many findings the filters chose (before limit)."),
                    "truncated": MCPSchema.boolean("Whether limit left some out."),
                ], required: ["findings", "count", "truncated"]),
            effect: .read
        ) { call in
            let request = FindingsRequest(
                project: try call.project(), filters: try call.findingFilters())
            let limit = try call.integer("limit") ?? defaultFindingLimit
            let rows = try call.send(request).rows
            var summary = "\(Output.count(rows.count, "finding"))"
            if rows.count > limit { summary += " (the first \(limit) listed)" }
            let bySeverity = Dictionary(grouping: rows, by: \.severity)
            if !bySeverity.isEmpty {
                summary +=
                    ": "
                    + Severity.allCases.compactMap { severity in
                        bySeverity[severity.rawValue].map { "\($0.count) \(severity.rawValue)" }
                    }.joined(separator: ", ")
            }
            return MCPToolOutput(
                structured: [
                    "findings": rows.prefix(limit).map(\.listJSON), "count": rows.count,
                    "truncated": rows.count > limit,
                ],
                summary: summary + ".")
        }
    }

    /// The `finding_detail` tool: FINDING SHOW.
    static var findingDetail: MCPTool {
        var schema = MCPSchema.finding
        if var properties = schema["properties"] as? [String: Any] {
            properties["message"] = ["type": "string"]
            properties["reason"] = ["type": "string"]
            properties["project"] = ["type": "string"]
            properties["history"] = MCPSchema.array(MCPSchema.event, "Its events, comments included, oldest first.")
            schema["properties"] = properties
            schema["required"] = ["id", "status", "needs", "history"]
        }
        return MCPTool.bound(
            FindingShowRequest.self, name: "finding_detail", title: "Finding detail",
            description: "One finding or item, as `barkeep finding show --json`: rule, severity, where, snippet, "
                + "message, status and reason, and its history with comments.",
            output: schema
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
