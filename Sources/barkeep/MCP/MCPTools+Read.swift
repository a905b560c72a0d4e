import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepReport
import Foundation

extension MCPTools {
    /// The tools that only read, each sending the request of the CLI command named in its description and
    /// answering the JSON that command's `--json` prints.
    static var readTools: [MCPTool] {
        [
            listProjects, projectStatus, listScreens, ScreenTools.screenDetail, FindingTools.listFindings,
            FindingTools.findingDetail, AuditTools.blockedItems, poseMatrix, checklist, readinessReport,
            CheckTools.checkScan,
        ]
    }

    /// project_status' and readiness_report's arguments: STATUS's project and listing fields (its `limit` is the
    /// page's end), then the page and the `screens` glob.
    struct StatusArguments: WireFields {
        /// The request.
        var status = StatusRequest()
        /// The page and the glob.
        var rows = MCPPage.Arguments()

        /// No arguments, filled by decoding.
        init() {}

        /// STATUS's fields but `limit`, then the page's.
        static let fields: [Field<StatusArguments>] =
            Field.group(\.status, StatusRequest.fields.filter { $0.key != "limit" })
            + Field.group(\.rows, MCPPage.Arguments.fields("screen rows"))
    }

    /// list_screens' arguments: SCREEN LIST's fields (its `limit` is the page's end), then the page and the glob.
    struct ScreenListArguments: WireFields {
        /// The request.
        var listing = ScreenListRequest()
        /// The page and the glob.
        var rows = MCPPage.Arguments()

        /// No arguments, filled by decoding.
        init() {}

        /// SCREEN LIST's fields but `limit`, then the page's.
        static let fields: [Field<ScreenListArguments>] =
            Field.group(\.listing, ScreenListRequest.fields.filter { $0.key != "limit" })
            + Field.group(\.rows, MCPPage.Arguments.fields("screen rows"))
    }

    /// pose_matrix' arguments: POSES' project and screen, SCREEN LIST's owner, then the page and the glob.
    struct PoseMatrixArguments: WireFields {
        /// The request.
        var poses = PosesRequest()
        /// The listing that chooses the screens without `screen`.
        var listing = ScreenListRequest()
        /// The page and the glob.
        var rows = MCPPage.Arguments()

        /// No arguments, filled by decoding.
        init() {}

        /// POSES' fields, SCREEN LIST's owner, the page's.
        static let fields: [Field<PoseMatrixArguments>] =
            Field.group(\.poses, PosesRequest.fields)
            + Field.group(\.listing, ScreenListRequest.fields.filter { $0.key == "owner" })
            + Field.group(\.rows, MCPPage.Arguments.fields("screens"))
    }

    /// readiness_report's arguments: STATUS's project and owner (the report's selection), then the page and the
    /// glob.
    struct ReportArguments: WireFields {
        /// The project and owner.
        var status = StatusRequest()
        /// The page and the glob.
        var rows = MCPPage.Arguments()

        /// No arguments, filled by decoding.
        init() {}

        /// STATUS's project and owner, the page's.
        static let fields: [Field<ReportArguments>] =
            Field.group(\.status, StatusRequest.fields.filter { ["project", "owner"].contains($0.key) })
            + Field.group(\.rows, MCPPage.Arguments.fields("screens", defaultLimit: reportPageLimit))
    }

    /// The `list_projects` tool.
    static var listProjects: MCPTool {
        MCPTool.bound(
            ProjectListRequest.self, name: "list_projects", title: "List projects",
            description: "The projects (apps under audit) with their SDK, deployment target and required poses, "
                + "as `barkeep project list --json`. The project argument is not used.",
            output: MCPSchema.object(["projects": MCPSchema.array(ProjectRecord.jsonSchema)], required: ["projects"])
        ) { reply, _ in
            let names = reply.rows.map(\.name)
            return MCPToolOutput(
                structured: ["projects": reply.rows.map(\.json)],
                summary: names.isEmpty
                    ? "No projects yet." : "\(Output.count(names.count, "project")): \(names.joined(separator: ", ")).")
        }
    }

    /// The `project_status` tool.
    static var projectStatus: MCPTool {
        MCPTool.taking(
            StatusArguments.self, name: "project_status", title: "Project status",
            description: "The dashboard of a project, as `barkeep status --json`: the last scan, totals, blocked "
                + "items by SDK, a row per owner and a page of rows per screen (untriaged and in-progress findings "
                + "by severity, steps done, required poses settled, done) and the unmapped findings. The filters "
                + "and the page choose the screen rows; the totals stay the project's.",
            effect: .read,
            output: MCPSchema.object(
                [
                    "project": MCPSchema.object([:]), "last_scan": MCPSchema.types("object", "null"),
                    "totals": MCPSchema.object([:]), "blocked": MCPSchema.array(MCPSchema.object([:])),
                    "owners": MCPSchema.array(MCPSchema.object([:])),
                    "screens": MCPSchema.array(MCPSchema.object([:])), AuditArea.unmapped: MCPSchema.object([:]),
                    "page": MCPPage.schema,
                ], required: ["project", "totals", "screens", "page"])
        ) { arguments, call in
            let project = arguments.status.project
            let page = arguments.rows.page()
            let glob = arguments.rows.screens
            // The rows up to the page's end, unless the glob chooses rows after the daemon answers: the reply holds
            // no more than the page and what comes before it.
            var request = arguments.status
            if glob == nil, page.end <= ScreenListing.maximumLimit { request.limit = RowLimit(page.end) }
            var parts = try call.send(request).parts
            let status = try decoded { () throws(ReportError) in try ProjectStatusReply(parts) }
            // The rows the filters chose, before the daemon's limit (the page's end).
            var total = status.selection?.matched ?? status.screens.count
            var rows = parts.screens
            if let glob {
                rows = rows.filter { glob.matches($0.key) }
                total = rows.count
            }
            let shown = page.rows(of: rows)
            parts.screens = Array(shown)
            var object = parts.statusJSON
            object.removeValue(forKey: "selection")
            object["page"] = page.json(total: total)
            // The project's screens and those done, as `barkeep status` counts them (the totals, without the app
            // area or the components).
            let totals = status.totals
            return MCPToolOutput(
                structured: object,
                summary: "\(project): \(totals.screensDone) of \(Output.count(totals.screens, "screen")) done; "
                    + "\(Output.count(totals.needsWork, "finding")) \(totals.needsWork == 1 ? "needs" : "need") work. "
                    + page.sentence("row", shown: shown.count, total: total))
        }
    }

    /// The `list_screens` tool.
    static var listScreens: MCPTool {
        MCPTool.taking(
            ScreenListArguments.self, name: "list_screens", title: "List screens",
            description: "A project's screens (then the app area and components) with where each stands, a page at a "
                + "time, as `barkeep screen list --json`: findings needing work, steps done of those that apply, "
                + "poses settled, done.",
            effect: .read,
            output: MCPSchema.object(
                [
                    "screens": MCPSchema.array(MCPSchema.screen),
                    "matched": MCPSchema.integer("How many rows the filters matched, in all pages."),
                    "page": MCPPage.schema,
                ], required: ["screens", "matched", "page"])
        ) { arguments, call in
            let page = arguments.rows.page()
            let glob = arguments.rows.screens
            // The daemon's own filters and, unless the glob chooses rows after it answers, the rows up to the
            // page's end, so that the reply holds no more than the page and what comes before it.
            var request = arguments.listing
            if glob == nil, page.end <= ScreenListing.maximumLimit { request.limit = RowLimit(page.end) }
            let reply = try call.send(request)
            var rows = reply.rows
            var matched = reply.summary?.matched ?? rows.count
            if let glob {
                rows = rows.filter { glob.matches($0.key) }
                matched = rows.count
            }
            let shown = page.rows(of: rows)
            let screens = shown.map(\.listJSON)
            let done = shown.filter { $0.isDone == true }.count
            return MCPToolOutput(
                structured: ["screens": screens, "matched": matched, "page": page.json(total: matched)],
                summary: page.sentence("row", shown: screens.count, total: matched) + " \(done) of these done.")
        }
    }

    /// The `pose_matrix` tool.
    static var poseMatrix: MCPTool {
        MCPTool.taking(
            PoseMatrixArguments.self, name: "pose_matrix", title: "Pose matrix",
            description: "Each screen against each pose it must pass, with the latest result (none: nothing "
                + "recorded), as `barkeep poses --json`, a page of screens (by key) at a time.",
            effect: .read,
            output: MCPSchema.object(
                ["poses": MCPSchema.array(MCPSchema.pose), "page": MCPPage.schema], required: ["poses", "page"])
        ) { arguments, call in
            let request = arguments.poses
            let page = arguments.rows.page()
            let glob = arguments.rows.screens
            let owner = arguments.listing.owner
            // The screens of the page, by key: one named, or those the owner and the glob choose.
            let keys: [String]
            if let screen = request.screen {
                guard glob == nil && owner == nil else {
                    throw MCPArgumentError(message: "screen names one screen: give screens or owner without it")
                }
                keys = [screen]
            } else {
                let listing = ScreenListRequest(project: request.project, owner: owner, kind: .screen)
                keys = try call.send(listing).rows.map(\.key).filter { glob?.matches($0) ?? true }
            }
            let shown = Set(page.rows(of: keys))
            let poses = try call.send(request).rows.filter { shown.contains($0.screen) }
            let settled = poses.filter { $0.result.result?.isSettled == true }.count
            return MCPToolOutput(
                structured: ["poses": poses.map(\.json), "page": page.json(total: keys.count)],
                summary: "\(settled) of \(Output.count(poses.count, "required pose")) settled. "
                    + page.sentence("screen", shown: shown.count, total: keys.count))
        }
    }

    /// The `checklist` tool: CHECKLIST, beside what each step asks (Core's ChecklistStep).
    static var checklist: MCPTool {
        MCPTool.bound(
            ChecklistRequest.self, name: "checklist", title: "Audit checklist",
            description: "The twelve steps of the bars audit checklist: what each asks of a screen and the scanner "
                + "rules whose open findings keep it from being done. The project argument is not used.",
            output: MCPSchema.object(
                [
                    "steps": MCPSchema.array(
                        MCPSchema.object(
                            [
                                "step": MCPSchema.integer("\(ChecklistStep.numbersSpoken)."),
                                "key": ["type": "string"],
                                "asks": MCPSchema.string("What the step asks of a screen."),
                                "rules": MCPSchema.array(["type": "string"], "The scanner rules that evidence it."),
                            ], required: ["step", "key", "asks", "rules"]))
                ], required: ["steps"])
        ) { reply, _ in
            MCPToolOutput(
                structured: ["steps": checklistSteps(reply)],
                summary: reply.rows.map { "\($0.step) \($0.key): \(ChecklistStep.numbered($0.step)?.asks ?? "")" }
                    .joined(separator: "\n"))
        }
    }

    /// The checklist's steps as checklist answers them: the daemon's rules (CHECKLIST) beside what each asks
    /// (Core's ChecklistStep).
    static func checklistSteps(_ reply: ChecklistRequest.Reply) -> [[String: Any]] {
        reply.rows.map { step in
            [
                "step": step.step, "key": step.key, "asks": ChecklistStep.numbered(step.step)?.asks ?? "",
                "rules": step.rules ?? [],
            ]
        }
    }

    /// The `readiness_report` tool.
    static var readinessReport: MCPTool {
        MCPTool.taking(
            ReportArguments.self, name: "readiness_report", title: "Readiness report",
            description: "The readiness report in Markdown, as `barkeep report`: the verified findings a later scan "
                + "still reports, a recommendation for each screen with work (opening with what is left), a line "
                + "for each screen only left to verify and for each ready one, the app area, the unmapped findings, "
                + "the verified, kept, declined and false-positive findings with their reasons, and the poses not "
                + "verified. screens and owner report a part; a page reports its screens (by key; the app area "
                + "counts as one), and only the whole project's report, on one page, lists the unmapped findings.",
            effect: .read,
            output: MCPSchema.object(
                [
                    "format": MCPSchema.string("The report's format.", values: ["markdown"]),
                    "report": MCPSchema.string("The report."), "page": MCPPage.schema,
                ], required: ["format", "report", "page"])
        ) { arguments, call in
            let page = arguments.rows.page(defaultLimit: reportPageLimit)
            let command = ReportCommand(
                project: arguments.status.project, isHTML: false,
                selection: ReportSelection(
                    owner: arguments.status.owner, keyGlob: arguments.rows.screens?.pattern,
                    rows: page.offset..<page.end))
            let (report, total) = try command.make(call.context)
            let shown = max(0, min(page.end, total) - page.offset)
            return MCPToolOutput(
                structured: ["format": "markdown", "report": report, "page": page.json(total: total)],
                summary: report + "\n" + page.sentence("row", shown: shown, total: total) + "\n")
        }
    }

    /// The screens a page of the readiness report holds unless the call says `limit`: their sections are longer
    /// than a status row.
    static let reportPageLimit = 10
}
