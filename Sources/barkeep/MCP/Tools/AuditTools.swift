import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// The MCP tools of the audit commands, bound to their requests: their arguments, schemas and validation come
/// from the spec (BarkeepAPI), never written here.
enum AuditTools {
    /// `add_item`: ITEM ADD, answered as `barkeep item add --json` with whether the item is blocked and why.
    static var addItem: MCPTool {
        var output = MCPSchema.finding
        if var properties = output["properties"] as? [String: Any] {
            properties["reason"] = MCPSchema.types("string", "null")
            properties["blocked"] = MCPSchema.boolean("Whether it waits for an SDK the project does not build with.")
            properties["why"] = MCPSchema.types("string", "null")
            output["properties"] = properties
            output["required"] = ["id", "status", "needs", "blocked"]
        }
        return MCPTool.bound(
            ItemAddRequest.self, name: "add_item", title: "Add an audit item",
            description: "Add an audit item to a screen, as `barkeep item add`. An item whose needs name a symbol "
                + "the project's SDK does not declare is blocked from the start: blocked and why say so, and gate "
                + "names the iOS version its code needs an if #available for.",
            output: output
        ) { reply, _ in
            guard let item = reply.rows.first else { throw CLIError.badReply("ITEM ADD returned nothing") }
            var object = item.itemJSON
            let isBlocked = item.status == .blocked
            object["blocked"] = isBlocked
            object["why"] = isBlocked ? item.reason ?? NSNull() : NSNull()
            var summary = "Added item \(item.id) to \(item.screen): \(item.status.rawValue)"
            if let reason = item.reason, isBlocked { summary += " (\(reason))" }
            if let gate = item.gate { summary += "; its code needs if #available(iOS \(gate), *)" }
            return MCPToolOutput(structured: object, summary: summary + ".")
        }
    }

    /// record_pose's arguments: POSE RECORD's fields of one screen and pose (no glob, no dry run), with the
    /// screenshot as a file this machine reads (`screenshot_path`) in place of the wire's `screenshot`.
    struct RecordPoseArguments: WireFields {
        /// The screenshot file's path on this machine; nil: none.
        var screenshotPath: String?
        /// POSE RECORD's request (its screenshot set from the upload).
        var pose = PoseRecordRequest()

        /// No arguments, filled by decoding.
        init() {}

        /// `screenshot_path`, then POSE RECORD's fields but screens, dry-run and screenshot.
        static let fields: [Field<RecordPoseArguments>] =
            [
                Field(
                    "screenshot-path", \.screenshotPath,
                    "The screenshot showing a failure: a PNG or JPEG file on the machine barkeep mcp runs on, "
                        + "uploaded and named by its content hash."
                ).withSchema(.string(minLength: 1))
            ]
            + Field.group(
                \.pose, PoseRecordRequest.fields.filter { !["screens", "dry-run", "screenshot"].contains($0.key) })
    }

    /// `record_pose`: POSE RECORD of one screen (its first layout), one pose; no glob, no dry run. A screenshot file
    /// is read and checked before anything is sent, then uploaded (SCREENSHOT PUT) on the connection that records
    /// the pose.
    static var recordPose: MCPTool {
        MCPTool.taking(
            RecordPoseArguments.self, name: "record_pose", title: "Record a pose result",
            description: "Record the result of verifying a screen in a pose, as `barkeep pose record`. failed needs "
                + "a screenshot (screenshot_path: a PNG or JPEG file, uploaded) and the finding it maps to "
                + "(finding, or item to create one); not_run and not_applicable need a reason; a device-only pose "
                + "passes only with a device that is not a simulator. A component is refused (BADARG), naming the "
                + "screens that use it: record for them.",
            effect: PoseRecordRequest.spec.effect, required: ["screen", "pose", "result"], output: MCPSchema.pose
        ) { arguments, call in
            var request = arguments.pose
            let reply: PoseRecordRequest.Reply
            if let path = arguments.screenshotPath {
                let file = try ScreenshotFile(path: path)
                let client = try call.context.connect()
                do throws(CLIError) {
                    request.screenshot = try file.upload(project: request.project, on: client).reference
                    reply = try client.send(request)
                } catch {
                    throw call.context.explained(error)
                }
            } else {
                reply = try call.send(request)
            }
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
