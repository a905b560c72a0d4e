import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep pose …`.
struct PoseGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "pose",
        abstract: "Record pose verification results, and read their history.",
        subcommands: [PoseRecordCommand.self, PoseHistoryCommand.self]
    )
}

struct PoseRecordCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "record",
        abstract: "Record the result of verifying a screen in a pose, or in several, on one screen or many (writer).",
        discussion: """
            failed needs --screenshot FILE, a PNG or JPEG image that is uploaded first (stored once by its content
            hash, which the result names as sha256:HEX), and the finding it maps to (--finding N, an open finding or item of the
            screen, or --item TITLE to create an item on the screen); passed verifies the items failures of that
            pose on that screen created. not_run needs --reason; so does not_applicable, for a pose that cannot
            apply to the screen (it then counts as settled). A device-only pose (\(Pose.deviceOnlyList)) passes only
            with --device naming the device it passed on, never a simulator (a name saying Simulator). Results are
            never overwritten: the latest counts. Components are verified through the screens that use them: a
            component's result is refused, naming those screens. POSE may list several (P1,P2,P3), and --screens
            GLOB instead of SCREEN records for every screen whose key matches (components and the app area are
            skipped, with why), in one transaction; several results at once are listed first: --dry-run lists
            them, --yes records them, and with neither the list is printed and the command exits 1.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional(
                "target", repeatable: true,
                help: "SCREEN POSE RESULT, or POSE RESULT with --screens; POSE is \(Pose.range) in any case, or "
                    + "several joined by commas; RESULT "
                    + "\(QuantityText.alternatives(PoseResult.allCases.map(\.rawValue)))."),
            .option("screens", valueName: "GLOB", help: "Every screen whose key matches GLOB."),
            .option(
                "screenshot", valueName: "FILE",
                help: "The screenshot showing a failure: a PNG or JPEG file, uploaded (at most the daemon's "
                    + "--max-screenshot)."),
            .option("finding", valueName: "N", help: "The number of the finding (or item) a failure maps to."),
            .option("item", valueName: "TITLE", help: "Create an item for the failure and map it to it."),
            .option("reason", valueName: "TEXT", help: "Why it was not run."),
            .option("build", valueName: "TEXT", help: "The build verified."),
            .option("device", valueName: "TEXT", help: "The device or simulator used."),
        ] + BulkConfirmation.arguments("with several results: each screen and pose, from → to, or skipped")
    )

    /// The request, less its poses (read when it runs: an unknown pose is the daemon's refusal).
    let request: PoseRecordRequest
    let poses: String
    let confirmation: BulkConfirmation
    /// The screenshot to upload, read and checked before anything is sent.
    let screenshot: ScreenshotFile?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let target = parsed.values("target")
        let glob = parsed.value("screens")
        guard target.count == (glob == nil ? 3 : 2) else {
            throw UsageError(
                "give SCREEN POSE RESULT, or POSE RESULT with --screens GLOB", commandPath: parsed.commandPath)
        }
        guard let result = target.last.flatMap(PoseResult.init(rawValue:)) else {
            throw UsageError(
                "result must be " + PoseResult.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", not \(ValueExcerpt.quoted(target.last ?? ""))",
                commandPath: parsed.commandPath)
        }
        var request = PoseRecordRequest(
            project: parsed.value("project") ?? "", screen: glob == nil ? target[0] : nil, poses: [], result: result,
            screens: glob)
        (request.item, request.reason) = (parsed.value("item"), parsed.value("reason"))
        do throws(CLIError) {
            screenshot = try parsed.value("screenshot").map(ScreenshotFile.init(path:))
        } catch {
            throw UsageError("--screenshot: \(error.description)", commandPath: parsed.commandPath)
        }
        (request.build, request.device) = (parsed.value("build"), parsed.value("device"))
        if let finding = parsed.value("finding") {
            request.finding = ProjectNumber(try NumberInProject.findingNumber(finding, parsed))
        }
        poses = target[target.count - 2]
        confirmation = try BulkConfirmation(parsed, isBulk: glob != nil || poses.contains(","))
        request.dryRun = confirmation.isDryRun ? true : nil
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        var request = request
        do {
            request.poses = try PoseList(wire: poses)
        } catch {
            throw CLIError.refused(.badArgument, error.message)
        }
        let reply: PoseRecordRequest.Reply
        if let screenshot {
            // Uploaded on the connection that records the pose, which names it by its hash.
            let client = try context.connect()
            do throws(CLIError) {
                request.screenshot = try screenshot.upload(project: request.project, on: client).reference
                reply = try client.send(request)
            } catch {
                throw context.explained(error)
            }
        } else {
            reply = try context.send(request)
        }
        // The daemon answers one result (one screen, one pose once duplicates are gone: `P1,p1`) with its record
        // alone, and several with a summary: the reply, not the arguments, says which.
        guard let summary = reply.summary else {
            guard case .first(let row) = reply.rows.first else {
                throw CLIError.badReply("POSE RECORD returned no result")
            }
            let pose = row.pose
            if context.isJSON {
                try Output.json(pose.json)
                return
            }
            var line = "Recorded \(pose.pose.rawValue) \(pose.result.wire) for \(pose.screen)"
            if let finding = pose.finding { line += ", mapped to finding \(finding.value)" }
            print(line + ".")
            return
        }
        if context.isJSON {
            try Output.json([
                "dry_run": confirmation.isDryRun, "recorded": summary.recorded, "skipped": summary.skipped,
                "results": reply.rows.map { row in
                    var object = row.json
                    if case .first = row { object["skipped"] = false }
                    return object
                },
            ])
        } else {
            print(
                "\(confirmation.isDryRun ? "Would record" : "Recorded") \(Output.count(summary.recorded, "result")) "
                    + "(\(request.result.rawValue))"
                    + (summary.skipped > 0 ? "; \(Output.count(summary.skipped, "row")) skipped" : "") + ":")
            Output.table(
                ["SCREEN", "POSE", "RESULT", "WHY"],
                reply.rows.map { row in
                    switch row {
                    case .first(let recorded):
                        [
                            recorded.pose.screen, recorded.pose.pose.rawValue,
                            "\(recorded.from?.wire ?? PoseCellResult.noneWord) → \(recorded.pose.result.wire)", "",
                        ]
                    case .second(let skipped): [skipped.screen, skipped.poses, "-", "skipped: \(skipped.why)"]
                    }
                })
        }
        try confirmation.finish("\(Output.count(summary.recorded, "result")) would be recorded")
    }
}

struct PoseHistoryCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "Every result recorded for a screen, oldest first.",
        arguments: [
            .positional("project", help: "The project."),
            .positional("screen", help: "The screen's key."),
            .positional("pose", optional: true, help: "Only this pose."),
        ]
    )

    let request: PoseHistoryRequest
    let pose: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = PoseHistoryRequest(
            project: parsed.value("project") ?? "", screen: parsed.value("screen") ?? "", pose: nil)
        pose = parsed.value("pose")
    }

    func run(_ context: CLIContext) throws {
        var request = request
        if let pose {
            do {
                request.pose = try Pose(wire: pose)
            } catch {
                throw CLIError.refused(.badArgument, error.message)
            }
        }
        let records = try context.send(request).rows
        if context.isJSON {
            try Output.json(records.map(\.json))
        } else if records.isEmpty {
            print("No results recorded.")
        } else {
            Output.table(
                ["RECORDED", "POSE", "RESULT", "BY", "DEVICE", "EVIDENCE"],
                records.map { record in
                    [
                        record.recordedMinute, record.pose.rawValue, record.result.wire, record.actor ?? "",
                        record.device ?? "", record.evidence,
                    ]
                }
            )
        }
    }
}

/// `barkeep poses PROJECT`: the screens × required poses matrix.
struct PosesCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "poses",
        abstract: "Show the pose matrix: each screen against each required pose, latest result.",
        discussion: """
            ✓ passed, ✗ failed, – not run, · no result. With --json prints an array of {screen, pose, result, …}
            with result none where nothing was recorded.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("screen", valueName: "KEY", help: "Only this screen."),
        ]
    )

    let request: PosesRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = PosesRequest(project: parsed.value("project") ?? "", screen: parsed.value("screen"))
    }

    func run(_ context: CLIContext) throws {
        let records = try context.send(request).rows
        if context.isJSON {
            try Output.json(records.map(\.json))
            return
        }
        guard !records.isEmpty else {
            print("No screens yet. Add one with: barkeep screen add \(request.project) KEY --path GLOB")
            return
        }
        var poses: [Pose] = []
        var rows: [String: [Pose: PoseResult]] = [:]
        var screens: [String] = []
        for record in records {
            if !poses.contains(record.pose) { poses.append(record.pose) }
            if rows[record.screen] == nil { screens.append(record.screen) }
            rows[record.screen, default: [:]][record.pose] = record.result.result
        }
        /// A cell's mark, by Core's results: a result added there cannot go without one.
        func symbol(_ result: PoseResult?) -> String {
            switch result {
            case .passed: "✓"
            case .failed: "✗"
            case .notRun: "–"
            case .notApplicable: "n/a"
            case nil: "·"
            }
        }
        Output.table(
            ["SCREEN"] + poses.map(\.rawValue),
            screens.map { screen in [screen] + poses.map { symbol(rows[screen]?[$0]) } }
        )
    }
}
