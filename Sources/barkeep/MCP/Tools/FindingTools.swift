import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// The finding tools bound to their commands' specs: their arguments, validation and effect come from the request
/// types (BarkeepAPI), their output from the typed replies.
enum FindingTools {
    /// The most findings list_findings returns unless told otherwise (`limit`): a page an agent reads whole.
    static let defaultFindingLimit = 200

    /// list_findings' arguments: FINDINGS' fields, the filter language and the page (`after`, `limit`).
    struct ListArguments: WireFields {
        /// The request, filters and page.
        var findings = FindingsRequest()

        /// No arguments, filled by decoding.
        init() {}

        /// FINDINGS' fields (the filter language with its JSON forms, then `after` and `limit`).
        static let fields: [Field<ListArguments>] = Field.group(\.findings, FindingsRequest.fields)
    }

    /// The `list_findings` tool: FINDINGS, its filters typed for JSON by FindingFilters, always a page by number
    /// (`limit`, default `defaultFindingLimit`; `after` the previous page's `next`).
    static var listFindings: MCPTool {
        MCPTool.taking(
            ListArguments.self, name: "list_findings", title: "List findings",
            description: "A project's findings, a page at a time by number, as `barkeep findings --json`: by "
                + "default those that need work (status open). Filters combine (all must hold); list filters take "
                + "arrays. At most limit (default \(defaultFindingLimit)); when more follow, next is the after of "
                + "the next page.",
            effect: .read,
            output: MCPSchema.object(
                [
                    "findings": MCPSchema.array(MCPSchema.finding),
                    "count": MCPSchema.integer("How many findings this page lists."),
                    "next": MCPSchema.types("integer", "null"),
                    "truncated": MCPSchema.boolean("Whether more findings follow this page."),
                ], required: ["findings", "count", "next", "truncated"])
        ) { arguments, call in
            var request = arguments.findings
            request.limit = request.limit ?? FindingLimit(defaultFindingLimit)
            let reply = try call.send(request)
            let rows = reply.rows
            let next = reply.summary?.next
            var summary = "\(Output.count(rows.count, "finding"))"
            if let after = request.after { summary += " after #\(after.value)" }
            if let next { summary += " (more follow: after=\(next))" }
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
                    "findings": rows.map(\.listJSON), "count": rows.count, "next": next ?? NSNull(),
                    "truncated": next != nil,
                ],
                summary: summary + ".")
        }
    }

    /// The `set_finding_status` tool: FINDING SET, by numbers or (`where` implied) by the filters; the filter
    /// `status` is `current_status`, the status to set `status`.
    static var setFindingStatus: MCPTool {
        MCPTool.bound(
            FindingSetRequest.self, name: "set_finding_status", title: "Set finding status",
            description: "Triage findings, as `barkeep finding set`: by numbers, or every finding the filters choose "
                + "(current_status filters by status; without it, those that need work). "
                + "\(FindingStatus.verdictsNeedingReason) need a reason; verified needs the fix applied (or the "
                + "scanner no longer reporting it). dry_run lists what would change. Findings the change is not "
                + "allowed for are listed as refused and left alone.",
            hiding: ["where"], renaming: ["numbers": "number", "status": "new_status", "current_status": "status"],
            implying: byFilters, output: bulkOutput
        ) { reply, request in
            let object = reply.bulkJSON(isDryRun: request.isDryRun == true)
            return MCPToolOutput(
                structured: object,
                summary: bulkSummary(
                    object, verb: "change", past: "changed", project: request.project, to: request.newStatus))
        }
    }

    /// The `assign_findings` tool: FINDING ASSIGN, by numbers or (`where` implied) by the filters; the name is `to`.
    static var assignFindings: MCPTool {
        MCPTool.bound(
            FindingAssignRequest.self, name: "assign_findings", title: "Assign findings",
            description: "Assign findings to someone or to no one, as `barkeep finding assign`: by numbers, or every "
                + "finding the filters choose. dry_run lists what would change.",
            hiding: ["where"], renaming: ["numbers": "number", "to": "name"], implying: byFilters,
            output: bulkOutput
        ) { reply, request in
            let object = reply.bulkJSON(isDryRun: request.isDryRun == true)
            let isNone = request.name.lowercased() == Assignee.none
            return MCPToolOutput(
                structured: object,
                summary: bulkSummary(
                    object, verb: "assign", past: "assigned", project: request.project,
                    to: isNone ? "no one" : request.name))
        }
    }

    /// How the bulk tools choose findings without numbers: `where=yes` when a filter is given (an empty filter would
    /// choose every finding, so neither numbers nor a filter is refused).
    private static var byFilters: MCPTool.ImpliedLayout {
        MCPTool.ImpliedLayout(
            key: "where", by: FindingFilters.fields.map(\.jsonName),
            noun: "filters", unless: "an empty filter would choose every finding")
    }

    /// The output of the bulk tools: BulkSelection's JSON.
    private static var bulkOutput: [String: Any] {
        var row = MCPSchema.finding
        if var properties = row["properties"] as? [String: Any] {
            properties["change"] = MCPSchema.string(
                "changed, would-change (dry run), unchanged or refused.",
                values: ["changed", "would-change", "unchanged", "refused"])
            for key in ["from", "to", "refusal"] { properties[key] = MCPSchema.types("string", "null") }
            row["properties"] = properties
        }
        return MCPSchema.object(
            [
                "dry_run": MCPSchema.boolean("Whether nothing was changed."),
                "changed": MCPSchema.integer("How many changed (or would)."),
                "unchanged": MCPSchema.integer("How many already were so."),
                "refused": MCPSchema.integer("How many the change is not allowed for (see refusal)."),
                "findings": MCPSchema.array(row),
            ], required: ["dry_run", "changed", "unchanged", "refused", "findings"])
    }

    /// `Changed 3 findings of app to approved (1 unchanged, 0 refused).`, or `Would change …` for a dry run: `verb`
    /// is the infinitive (`change`), `past` its past tense (`changed`).
    static func bulkSummary(
        _ object: [String: Any], verb: String, past: String, project: String, to: String
    ) -> String {
        let count = { (key: String) in object[key] as? Int ?? 0 }
        let isDryRun = object["dry_run"] as? Bool == true
        let done = isDryRun ? "Would \(verb)" : past.prefix(1).uppercased() + past.dropFirst()
        return "\(done) \(Output.count(count("changed"), "finding")) of \(project) to \(to) "
            + "(\(count("unchanged")) unchanged, \(count("refused")) refused)."
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
