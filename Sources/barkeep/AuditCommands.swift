import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// Prints the `item` records of an SDK change: what became workable, what needs an availability gate, what is
/// blocked now.
enum ItemChanges {
    /// A sentence and a table; nothing when no item changed.
    static func print(_ changes: [ItemChangeRecord]) {
        let unblocked = changes.filter { !$0.isBlocked }
        let blocked = changes.filter(\.isBlocked)
        if changes.isEmpty { Swift.print("No item changed.") }
        if !unblocked.isEmpty {
            let gated = unblocked.filter { $0.gate != nil }.count
            Swift.print(
                "Unblocked \(Output.count(unblocked.count, "item")), now workable"
                    + (gated > 0 ? "; \(gated) of them \(gated == 1 ? "needs" : "need") an availability gate:" : ":"))
            Output.table(
                ["#", "SCREEN", "ITEM", "NOW", "GATE"],
                unblocked.map { change in
                    [
                        String(change.id), change.screen, change.title, change.to.rawValue,
                        change.gate.map { "if #available(iOS \($0), *)" } ?? "-",
                    ]
                }
            )
        }
        if !blocked.isEmpty {
            Swift.print("Blocked \(Output.count(blocked.count, "item")):")
            Output.table(
                ["#", "SCREEN", "ITEM", "WAS", "WHY"],
                blocked.map { change in
                    [String(change.id), change.screen, change.title, change.from.rawValue, change.reason ?? ""]
                }
            )
        }
    }
}

/// A value of a request's field read from the command line as the daemon would read it: a bad one is refused with
/// the daemon's words and code, before anything is sent.
func wireValue<V: WireValue>(_ text: String, key: String) throws(CLIError) -> V {
    do {
        return try V(wire: text)
    } catch {
        throw .refused(.badArgument, FieldProblem(key: key, jsonName: key, problem: error).message)
    }
}

// MARK: - item

/// The options of `item add` and `item set` whose values the daemon refuses in its own words: kept as given, read
/// into the request when the command runs.
struct ItemOptionValues {
    /// `--severity`.
    let severity: String?
    /// `--needs`, each symbol.
    let needs: [String]
    /// `--sdk`.
    let sdk: String?

    /// The values read as the request's fields; a bad one refused as the daemon would refuse it.
    func read<Symbol: WireValue>() throws(CLIError) -> (severity: Severity?, needs: [Symbol], sdk: SDKVersion?) {
        (
            try severity.map { text throws(CLIError) in try wireValue(text, key: "severity") },
            try needs.map { text throws(CLIError) in try wireValue(text, key: "needs") },
            try sdk.map { text throws(CLIError) in try wireValue(text, key: "sdk") }
        )
    }
}

/// `barkeep item …`.
struct ItemGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "item",
        abstract: "Add, edit and remove audit items by hand.",
        subcommands: [ItemAddCommand.self, ItemSetCommand.self, ItemRemoveCommand.self]
    )
}

struct ItemAddCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add an audit item to a screen (writer): a finding with source manual.",
        discussion: """
            An item needing a symbol that the project's SDK does not declare is blocked from the start, with the
            SDK that would bring it (needs the iOS 27.1 SDK (axisBehavior)); barkeep sdk set unblocks it. A symbol
            the SDK symbol table does not know is refused with the nearest known names, unless --sdk says which
            SDK declares it. With --json prints the item as barkeep findings --json prints a finding, with its
            reason.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("screen", valueName: "KEY", help: "The screen it belongs to (required)."),
            .option("step", valueName: "STEP", help: "Its checklist step: 1 to 12, or the step's key (required)."),
            .option("title", valueName: "TEXT", help: "What to do (required)."),
            .option("needs", valueName: "SYMBOL", repeatable: true, help: "An SDK symbol the fix needs (repeatable)."),
            .option(
                "severity", valueName: "S", default: Severity.medium.rawValue,
                help: QuantityText.alternatives(Severity.allCases.map(\.rawValue)) + "."),
            .option("sdk", valueName: "VERSION", help: "The SDK declaring the needed symbols the table lacks."),
        ]
    )

    /// The request, less the values the daemon's words refuse (read when it runs).
    let request: ItemAddRequest
    let values: ItemOptionValues

    init(_ parsed: ParsedCommand) throws(UsageError) {
        var required: [String] = []
        for key in ["screen", "step", "title"] {
            guard let value = parsed.value(key) else {
                throw UsageError("item add needs --\(key)", commandPath: parsed.commandPath)
            }
            required.append(value)
        }
        try checkStep(parsed.value("step"), parsed)
        request = ItemAddRequest(
            project: parsed.value("project") ?? "", screen: required[0], step: required[1], title: required[2])
        values = ItemOptionValues(
            severity: parsed.value("severity"),
            needs: parsed.values("needs").flatMap { $0.split(separator: ",") }.map(String.init),
            sdk: parsed.value("sdk"))
    }

    func run(_ context: CLIContext) throws {
        var request = request
        (request.severity, request.needs, request.sdk) = try values.read()
        guard let item = try context.send(request).rows.first else {
            throw CLIError.badReply("ITEM ADD returned nothing")
        }
        if context.isJSON {
            try Output.json(item.itemJSON)
            return
        }
        var line = "Added item \(FindingNumber.label(item.id)) to \(item.screen): \(item.status.rawValue)"
        if let reason = item.reason { line += " (\(reason))" }
        if let gate = item.gate { line += "; its code needs if #available(iOS \(gate), *)" }
        print(line + ".")
    }
}

/// `barkeep item set PROJECT N …`: edits an item.
struct ItemSetCommand: RunnableCommand, NamesNumberInProject {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Edit an audit item (writer): its title, step, severity or the SDK symbols it needs.",
        discussion: """
            Each field that changes is an item.updated event. --needs replaces the symbols the item needs (give it
            once per symbol, or comma-separated; --needs '' clears them): an item whose new symbols the project's
            SDK lacks is blocked at once, and one that no longer needs a missing symbol returns to the status it had
            before it was blocked. Only items added by hand are edited; a scanner finding is triaged with finding
            set. With --json prints the item as barkeep findings --json prints a finding, with its reason.
            """,
        arguments: NumberInProject.arguments("The item's number in the project.") + [
            .option("title", valueName: "TEXT", help: "A new title."),
            .option("step", valueName: "STEP", help: "A new checklist step: 1 to 12, or the step's key."),
            .option(
                "severity", valueName: "S", help: QuantityText.alternatives(Severity.allCases.map(\.rawValue)) + "."),
            .option("needs", valueName: "SYMBOL", repeatable: true, help: "The SDK symbols the fix needs (replaces)."),
            .option("sdk", valueName: "VERSION", help: "The SDK declaring the needed symbols the table lacks."),
        ]
    )

    let target: NumberInProject
    /// The request, less the values the daemon's words refuse (read when it runs).
    let request: ItemSetRequest
    let values: ItemOptionValues

    init(_ parsed: ParsedCommand) throws(UsageError) {
        target = try NumberInProject.finding(parsed)
        var request = ItemSetRequest(project: target.project, number: Int(target.number) ?? 0)
        (request.title, request.step) = (parsed.value("title"), parsed.value("step"))
        try checkStep(parsed.value("step"), parsed)
        let given = parsed.values("needs")
        let symbols = given.flatMap { $0.split(separator: ",") }.map(String.init)
        // One empty value says "needs nothing".
        values = ItemOptionValues(
            severity: parsed.value("severity"), needs: given.isEmpty ? [] : symbols.isEmpty ? [""] : symbols,
            sdk: parsed.value("sdk"))
        guard request.title != nil || request.step != nil || values.severity != nil || !values.needs.isEmpty else {
            throw UsageError(
                "item set needs --title, --step, --severity or --needs", commandPath: parsed.commandPath)
        }
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        var request = request
        (request.severity, request.needs, request.sdk) = try values.read()
        guard let item = try context.send(request).rows.first else {
            throw CLIError.badReply("ITEM SET returned nothing")
        }
        if context.isJSON {
            try Output.json(item.itemJSON)
            return
        }
        var line = "Item \(FindingNumber.label(item.id)) of \(project): \(item.title ?? "?"), \(item.status.rawValue)"
        if let reason = item.reason { line += " (\(reason))" }
        print(line + ".")
    }
}

/// `barkeep item remove PROJECT N --yes`: removes an item.
struct ItemRemoveCommand: RunnableCommand, NamesNumberInProject {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Remove an audit item added by mistake (writer; needs --yes).",
        discussion: """
            The removal is an item.removed event; the item's history stays in the project's events. An item a
            failed pose maps to is kept (CONFLICT): the pose result would lose its evidence; pass the pose again,
            which verifies the item, or decline it. To say an item will not be done, decline it instead.
            """,
        arguments: NumberInProject.arguments("The item's number in the project.") + [
            .flag("yes", help: "Confirm the removal.")
        ]
    )

    let target: NumberInProject

    init(_ parsed: ParsedCommand) throws(UsageError) {
        target = try NumberInProject.finding(parsed)
        guard parsed.flag("yes") else {
            throw UsageError(
                "removing item \(number) of \(project) cannot be undone; add --yes to confirm",
                commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        let removed = try context.send(ItemRemoveRequest(project: project, number: Int(number) ?? 0)).summary
        if context.isJSON {
            try Output.json(["removed": removed.removed])
        } else {
            print("Removed item \(number) of \(project).")
        }
    }
}

// MARK: - sdk

/// `barkeep sdk …`.
struct SDKGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "sdk",
        abstract: "Move a project to another iOS SDK, unblocking what it brings.",
        subcommands: [SDKSetCommand.self]
    )
}

struct SDKSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Record the iOS SDK the team builds with now (admin).",
        discussion: """
            In one transaction every item whose symbols the new SDK declares returns to the status it had before
            it was blocked (an event each), and items needing a symbol it lacks are blocked. Prints what became
            workable and which need an if #available(iOS X, *) gate because the deployment target is lower. With
            --json prints {"sdk","previous","changes":[{id,title,screen,from,to,reason,gate}]}.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("version", help: "The SDK version, e.g. 27.1."),
        ]
    )

    let project: String
    let version: String

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        version = parsed.value("version") ?? ""
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(
            SDKSetRequest(project: project, version: (try wireValue(version, key: "version") as NewSDK).version))
        guard let change = reply.summary else { throw CLIError.badReply("SDK SET sent no sdk") }
        if context.isJSON {
            try Output.json([
                "sdk": change.sdk, "previous": change.previous, "changes": reply.rows.map(\.listJSON),
            ])
            return
        }
        if change.sdk == change.previous {
            print("\(project) already builds with the iOS \(change.sdk) SDK.")
        } else {
            print("\(project) now builds with the iOS \(change.sdk) SDK (was \(change.previous)).")
        }
        ItemChanges.print(reply.rows)
    }
}

/// `barkeep blocked PROJECT`.
struct BlockedCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "blocked",
        abstract: "List the items blocked on the SDK, grouped by SDK and symbol.",
        discussion: """
            An item waiting for several symbols appears under each. With --json prints an array of
            {sdk, symbol, id, title, rule, screen, status, reason}.
            """,
        arguments: [.positional("project", help: "The project.")]
    )

    let project: String

    init(_ parsed: ParsedCommand) throws(UsageError) { project = parsed.value("project") ?? "" }

    func run(_ context: CLIContext) throws {
        let records = try context.send(BlockedRequest(project: project)).rows
        if context.isJSON {
            try Output.json(records.map(\.listJSON))
            return
        }
        guard !records.isEmpty else {
            print("Nothing is blocked.")
            return
        }
        var group: String?
        for record in records {
            let heading =
                record.sdk == BlockedRecord.noSDK
                ? "No iOS SDK declares \(record.symbol ?? "?")"
                : "iOS \(record.sdk) SDK — \(record.symbol ?? "no symbol")"
            if heading != group {
                if group != nil { print("") }
                print(Output.bold(heading))
                group = heading
            }
            let what = record.finding.title ?? record.finding.rule ?? ""
            print(Output.plain("  \(record.finding.id)  \(record.finding.screen)  \(what)"))
        }
    }
}

// MARK: - pose

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
            failed needs --screenshot and the finding it maps to (--finding N, an open finding or item of the
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
            .option("screenshot", valueName: "PATH", help: "The screenshot showing a failure."),
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
        (request.screenshot, request.item, request.reason) =
            (parsed.value("screenshot"), parsed.value("item"), parsed.value("reason"))
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
        let reply = try context.send(request)
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
