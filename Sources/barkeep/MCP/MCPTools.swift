import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepReport
import Foundation

/// The tools and the prompt `barkeep mcp` serves. Each tool sends the request of a CLI command and answers the
/// JSON that command's `--json` prints, built by the same functions.
enum MCPTools {
    /// The tools a server lists: all of them, or only the read tools under `--read-only`.
    static func catalog(isReadOnly: Bool) -> [MCPTool] {
        isReadOnly ? readTools : readTools + writeTools
    }

    /// The tools that change the audit (a writer's token; left out under `--read-only`), each sending the request
    /// of the CLI command named in its description.
    static var writeTools: [MCPTool] {
        [
            FindingTools.setFindingStatus, FindingTools.assignFindings, FindingTools.commentFinding,
            ScreenTools.setStep, AuditTools.addItem, AuditTools.recordPose, ScanTools.ingestScan,
        ]
    }

    // MARK: - The audit_screen prompt

    /// The one prompt's name.
    static let auditScreenPrompt = "audit_screen"

    /// The prompt as `prompts/list` lists it.
    static var auditScreenListing: [String: Any] {
        [
            "name": auditScreenPrompt, "title": "Audit a screen",
            "description": "Walk one screen through the twelve-step checklist from its current state (steps, poses, "
                + "findings of the screen and its components, why it is not done) and write one recommendation in "
                + "the readiness report's format.",
            "arguments": [
                ["name": "screen", "description": "The screen's key.", "required": true],
                ["name": "project", "description": "The project; default: the server's --project.", "required": false],
            ],
        ]
    }

    /// The prompt's messages for a screen: its state, the checklist, and what to write. Its arguments are SCREEN
    /// SHOW's, `key` named `screen` (as screen_detail names it), decoded through the request's fields.
    static func auditScreen(_ call: MCPToolCall) throws -> [String: Any] {
        var json: [String: Any] = [:]
        json["project"] = try call.project()
        if let screen = call.arguments["screen"] { json["key"] = screen }
        let request: ScreenShowRequest
        do throws(FieldProblem) {
            request = try ScreenShowRequest(json: json)
        } catch {
            throw MCPArgumentError(
                message: error.message.replacingOccurrences(
                    of: "\\bkey\\b", with: "screen", options: .regularExpression))
        }
        let (project, key) = (request.project, request.key)
        let detail = try call.send(request).parts
        let steps = checklistSteps(try call.send(ChecklistRequest()))
        let report = try ReportCommand(
            project: project, isHTML: false, selection: ReportSelection(keyGlob: key)
        ).document(call.context)
        let state = try JSONSerialization.data(
            withJSONObject: detail.detailJSON, options: [.sortedKeys, .withoutEscapingSlashes])
        let checklist = steps.map { step in
            let rules = (step["rules"] as? [String] ?? []).joined(separator: ", ")
            return "\(step["step"] ?? "") \(step["key"] ?? ""): \(step["asks"] ?? "")"
                + (rules.isEmpty ? "" : " (evidenced by \(rules))")
        }
        let statuses = FindingStatus.allCases.map(\.rawValue).joined(separator: ", ")
        let text = """
            You are auditing the screen \(key) of the app \(project) for iPhone Duo, where navigation bars, \
            toolbars and tab bars move to the side of the display.

            Its current state in Barkeep (steps, latest pose results, findings needing work of the screen and \
            the components it uses, history, and why it is not done), as JSON:

            \(String(decoding: state, as: UTF8.self))

            The checklist: walk the screen through each step that applies.

            \(checklist.joined(separator: "\n"))

            The readiness report's section for \(key) as it stands now:

            \(report)

            Write one recommendation for \(key) in the readiness report's format: a "### \(key)" heading, one \
            sentence naming the owner and the steps that apply, then each item with its status (\(statuses)) and, \
            for \(QuantityText.conjunction(FindingStatus.allCases.filter(\.requiresReason).map(\.rawValue))), its reason; name the SDK a blocked item waits for and the \
            if #available gate a workable one needs. Say which poses still need verifying. Propose changes only \
            through Barkeep's tools (set_finding_status, set_step, add_item, record_pose) after a person agrees.
            """
        return [
            "description": "Audit \(key) of \(project)",
            "messages": [["role": "user", "content": ["type": "text", "text": text]]],
        ]
    }
}
