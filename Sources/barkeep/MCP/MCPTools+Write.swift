import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

extension MCPTools {
    /// The tools that change the audit (a writer's token; left out under `--read-only`), each sending the request
    /// of the CLI command named in its description.
    static var writeTools: [MCPTool] {
        [
            setFindingStatus, assignFindings, FindingTools.commentFinding, ScreenTools.setStep, AuditTools.addItem,
            AuditTools.recordPose, ingestScan,
        ]
    }

    /// How the bulk tools choose findings: `numbers`, or the filter keys (not both, one of them).
    private static func selection(
        _ call: MCPToolCall, value: String, renamed: [String: String] = [:]
    ) throws(MCPArgumentError) -> BulkSelection {
        let project = try call.project()
        let numbers = try call.integers("numbers")
        // The filter keys as the tool names them (`current_status` for `status` where that is the value to set).
        var filters: [String: Any] = [:]
        for field in FindingFilters.fields {
            let name = renamed.first { $0.value == field.key }?.key ?? field.jsonName
            if let value = call.arguments[name], !(value is NSNull) { filters[field.jsonName] = value }
        }
        let filterCall = MCPToolCall(arguments: filters, defaultProject: nil, context: call.context)
        let isFiltered = !filters.isEmpty
        let isDryRun = try call.boolean("dry_run") ?? false
        switch (numbers, isFiltered) {
        case (let numbers?, false):
            return BulkSelection(
                project: project, numbers: FindingNumberList(numbers), value: value, filters: FindingFilters(),
                isDryRun: isDryRun)
        case (nil, true):
            return BulkSelection(
                project: project, numbers: nil, value: value,
                filters: try filterCall.findingFilters(), isDryRun: isDryRun)
        case (_?, true): throw MCPArgumentError(message: "give numbers or filters, not both")
        case (nil, false):
            throw MCPArgumentError(message: "give numbers, or filters (an empty filter would choose every finding)")
        }
    }

    /// The bulk tools' arguments: numbers, the filters (`status` and `assignee` renamed where the tool's own
    /// argument takes the name), dry_run.
    private static func bulkArguments(renamed: [String: String]) -> [String: [String: Any]] {
        var arguments: [String: [String: Any]] = [:]
        for (key, schema) in MCPSchema.findingFilters {
            arguments[renamed.first { $0.value == key }?.key ?? key] = schema
        }
        arguments["numbers"] = MCPSchema.array(
            MCPSchema.integer("A finding's number.", minimum: 1), "The findings' numbers (not with filters).",
            minItems: 1)
        arguments["dry_run"] = MCPSchema.boolean("List what would change; change nothing (default false).")
        return arguments
    }

    /// The output of the bulk tools: BulkSelection's JSON.
    private static var bulkOutput: [String: Any] {
        var finding = MCPSchema.finding
        if var properties = finding["properties"] as? [String: Any] {
            properties["change"] = MCPSchema.string(
                "changed, would-change (dry run), unchanged or refused.",
                values: ["changed", "would-change", "unchanged", "refused"])
            for key in ["from", "to", "refusal"] { properties[key] = MCPSchema.types("string", "null") }
            finding["properties"] = properties
        }
        return MCPSchema.object(
            [
                "dry_run": MCPSchema.boolean("Whether nothing was changed."),
                "changed": MCPSchema.integer("How many changed (or would)."),
                "unchanged": MCPSchema.integer("How many already were so."),
                "refused": MCPSchema.integer("How many the change is not allowed for (see refusal)."),
                "findings": MCPSchema.array(finding),
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

    /// The `set_finding_status` tool.
    static var setFindingStatus: MCPTool {
        var arguments = bulkArguments(renamed: ["current_status": "status"])
        arguments["status"] = MCPSchema.string("The status to set.", values: MCPSchema.settableStatuses)
        arguments["reason"] = MCPSchema.string(
            "Why (required for \(FindingStatus.verdictsNeedingReason)).", minLength: 1)
        return MCPTool(
            name: "set_finding_status", title: "Set finding status",
            description: "Triage findings, as `barkeep finding set`: by numbers, or every finding the filters choose "
                + "(current_status filters by status; without it, those that need work). "
                + "\(FindingStatus.verdictsNeedingReason) need a reason; verified needs the fix applied (or the scanner no longer reporting it). dry_run lists "
                + "what would change. Findings the change is not allowed for are listed as refused and left alone.",
            arguments: arguments, required: ["status"], output: bulkOutput,
            effect: .write(isDestructive: true, isIdempotent: true),
            // `barkeep finding set`'s --status filters (the wire's status=); the status to set is NEW-STATUS.
            wireNames: ["current_status": "status", "status": "new-status"]
        ) { call in
            let status = try call.requiredString("status")
            let reason = try call.string("reason")
            if FindingStatus(rawValue: status)?.requiresReason == true && reason == nil {
                throw MCPArgumentError(message: "\(status) needs a reason")
            }
            let selection = try selection(call, value: status, renamed: ["current_status": "status"])
            let object = selection.json(try call.send(selection.setRequest(reason: reason)))
            return MCPToolOutput(
                structured: object,
                summary: bulkSummary(object, verb: "change", past: "changed", project: selection.project, to: status))
        }
    }

    /// The `assign_findings` tool.
    static var assignFindings: MCPTool {
        var arguments = bulkArguments(renamed: [:])
        arguments["to"] = MCPSchema.string("Who: a name like a token's, or none to unassign.", minLength: 1)
        return MCPTool(
            name: "assign_findings", title: "Assign findings",
            description: "Assign findings to someone or to no one, as `barkeep finding assign`: by numbers, or every "
                + "finding the filters choose. dry_run lists what would change.",
            arguments: arguments, required: ["to"], output: bulkOutput,
            effect: .write(isDestructive: true, isIdempotent: true)
        ) { call in
            let name = try call.requiredString("to")
            guard name.lowercased() == Assignee.none || Assignee.isValid(name) else {
                throw MCPArgumentError(message: "to: " + Assignee.rule(for: name))
            }
            let selection = try selection(call, value: name)
            let object = selection.json(try call.send(selection.assignRequest()))
            return MCPToolOutput(
                structured: object,
                summary: bulkSummary(
                    object, verb: "assign", past: "assigned", project: selection.project,
                    to: name.lowercased() == Assignee.none ? "no one" : name))
        }
    }

    /// What ingest_scan answers: a scan's counts (`barkeep ingest --json`), or an SDK check's object.
    private static var ingestOutput: [String: Any] {
        var properties: [String: [String: Any]] = ["repeat": MCPSchema.boolean("Already ingested: nothing changed.")]
        for key in IngestCommand.countKeys + ["symbols", "found", "unblocked", "blocked"] {
            properties[key] = ["type": "integer"]
        }
        properties["sdk"] = ["type": "string"]
        properties["project_sdk"] = ["type": "string"]
        properties["changes"] = MCPSchema.array(MCPSchema.object([:]), "An SDK check's unblocked and blocked items.")
        return MCPSchema.object(properties, required: ["run", "repeat"])
    }

    /// The `ingest_scan` tool.
    static var ingestScan: MCPTool {
        MCPTool(
            name: "ingest_scan", title: "Ingest a scan",
            description: "Upload a scanner run (duo_scan JSON or SARIF 2.1.0) from a file on this machine and sync "
                + "the project's findings with it, or an SDK check, as `barkeep ingest --json`. The same file twice "
                + "changes nothing. A relative path is taken from the directory barkeep mcp runs in. What is not a "
                + "regular file (a FIFO, a device, a directory) is refused at once (BADARG); a token that may not "
                + "ingest (FORBIDDEN) and a file over the daemon's upload limit (TOOLONG) are refused before the "
                + "file is read. A scan of a commit already ingested, or older than the latest run's, is refused "
                + "(CONFLICT) unless force.",
            arguments: [
                "path": MCPSchema.string("The file's path on the machine barkeep mcp runs on.", minLength: 1),
                "format": MCPSchema.string(
                    "Default: guessed from the file.", values: ScanFormat.allCases.map(\.rawValue)),
                "commit": MCPSchema.string("The commit that was scanned (hexadecimal).", minLength: 1),
                "commit_time": MCPSchema.string(
                    "The commit's committer time, ISO 8601 with an offset (2026-11-30T10:00:00+01:00); default: what "
                        + "git says when barkeep mcp runs in a repository that has the commit.", minLength: 1),
                "force": MCPSchema.boolean(
                    "Ingest the scan even if its commit was ingested before or is older than the latest run's "
                        + "(default false: such a scan is refused, CONFLICT, so it cannot undo triage)."),
                "scope": MCPSchema.string("The path prefix the scan covered (default: everything).", minLength: 1),
            ],
            required: ["path"],
            output: ingestOutput,
            effect: .write(isDestructive: true, isIdempotent: true),
            dependencies: ["commit_time": ["commit"]]
        ) { call in
            let path = try call.requiredString("path")
            // Standard input is the protocol's.
            guard path != "-" else { throw MCPArgumentError(message: "path: give a file (standard input is MCP's)") }
            let command = IngestCommand(
                project: try call.project(), file: path, format: try call.string("format").flatMap(ScanFormat.init),
                commit: try call.string("commit"), commitTime: try call.string("commit_time"),
                isForced: try call.boolean("force") ?? false, scope: try call.string("scope"))
            let reply = try command.upload(call.context)
            let summary =
                switch reply {
                case .ok(let scan): IngestCommand.sentence(scan)
                case .records(_, let check):
                    "SDK check, run \(check.run): \(check.unblocked) unblocked, \(check.blocked) blocked."
                }
            return MCPToolOutput(structured: IngestCommand.json(reply), summary: summary)
        }
    }
}
