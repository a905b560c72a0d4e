import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep screen …`.
struct ScreenGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "screen",
        abstract: "Add, list, show, change and remove the screens of a project, or discover them in its sources.",
        subcommands: [
            ScreenAddCommand.self, ScreenListCommand.self, ScreenShowCommand.self, ScreenSetCommand.self,
            ScreenRemoveCommand.self, ScreenUsesCommand.self, ScreenDismissCommand.self, ScreenExcludeCommand.self,
            ScreenDiscoverCommand.self,
        ]
    )
}

/// `--title`, `--owner`, `--kind`, `--poses` and the glob options as request keywords; each glob option's values
/// are also split at commas (a glob never holds one).
private func screenKeywords(_ parsed: ParsedCommand, globOptions: [String]) -> [(key: String, value: String)] {
    var keywords = ["title", "owner", "kind", "poses"].compactMap { key in parsed.value(key).map { (key, $0) } }
    for option in globOptions {
        keywords += parsed.values(option).flatMap { $0.split(separator: ",") }.map { (option, String($0)) }
    }
    return keywords
}

/// `--kind`, refused by the CLI as the request's field refuses it.
private func addableKind(_ parsed: ParsedCommand) throws(UsageError) -> AddableScreenKind? {
    guard let text = parsed.value("kind") else { return nil }
    do {
        return try AddableScreenKind(wire: text)
    } catch {
        throw UsageError("--kind \(error.message), not \(ValueExcerpt.quoted(text))", commandPath: parsed.commandPath)
    }
}

struct ScreenAddCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a screen owning source paths (writer); the project's findings are re-attributed.",
        discussion: """
            A glob's * matches within a path component, ** across components, ? one character. A finding belongs
            to the screen whose matching glob is the most specific (the most literal characters); findings no
            glob matches are unmapped. A glob belongs to one screen. --kind component adds a component instead (a
            view used inside screens): its findings count for every screen that uses it (barkeep screen uses).
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", help: "The screen's key: letters, digits, '.', '_' and '-' (Inbox)."),
            .option("kind", valueName: "KIND", default: "screen", help: "screen or component."),
            .option("title", valueName: "TEXT", help: "A title."),
            .option("owner", valueName: "NAME", help: "Who owns it in the team."),
            .option("path", valueName: "GLOB", repeatable: true, help: "A source path glob it owns (repeatable)."),
        ]
    )

    let request: ScreenAddRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let paths = parsed.values("path").flatMap { $0.split(separator: ",") }.map(String.init)
        guard !paths.isEmpty else {
            throw UsageError("screen add needs at least one --path GLOB", commandPath: parsed.commandPath)
        }
        let kind = try addableKind(parsed)
        request = ScreenAddRequest(
            project: parsed.value("project") ?? "", key: parsed.value("key") ?? "", paths: paths,
            title: parsed.value("title"), owner: parsed.value("owner"), kind: kind)
    }

    func run(_ context: CLIContext) throws {
        let screens = try context.send(request).rows
        guard let screen = screens.first else { throw CLIError.badReply("SCREEN ADD returned nothing") }
        if context.isJSON {
            try Output.json(screen.listJSON)
        } else {
            print(
                "Added screen \(Output.bold(request.key)) owning \(screen.paths.joined(separator: " ")); "
                    + "\(Output.count(screen.reattributed ?? 0, "finding")) attributed to it.")
        }
    }
}

struct ScreenListCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List a project's screens with where each stands.",
        discussion: """
            Screens, then the app area (app-wide files), then components; --sort orders them all together. FINDINGS
            counts findings needing work (a screen's own and those of the components it uses); STEPS counts done
            steps of those that apply; POSES settled required poses (passed or not applicable). --owner, --not-done,
            --kind and --limit choose the rows. With --json prints an array of {key, kind, title, owner, paths,
            poses (when not the project's), uses, findings, steps_done, steps_applicable, poses_passed,
            poses_required, done, created}.
            """,
        arguments: [.positional("project", help: "The project.")] + ScreenFilterOptions.arguments + [
            .option("kind", valueName: "KIND", help: "Only rows of this kind: screen, component or area.")
        ]
    )

    let request: ScreenListRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let chosen = try ScreenFilterOptions.chosen(parsed)
        request = ScreenListRequest(
            project: parsed.value("project") ?? "", owner: chosen.owner, isNotDoneOnly: chosen.isNotDoneOnly,
            sort: chosen.sort, limit: chosen.limit, kind: chosen.kind)
    }

    /// Whether an option chose the rows or their order.
    private var isFiltered: Bool {
        request.owner != nil || request.isNotDoneOnly != nil || request.sort != nil || request.limit != nil
            || request.kind != nil
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        let screens = reply.rows
        let matched = reply.summary?.matched ?? screens.count
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
        } else if screens.isEmpty && !isFiltered {
            print(
                "No screens yet. Add one with: barkeep screen add \(request.project) KEY --path GLOB, or find them "
                    + "with: barkeep screen discover \(request.project) SOURCE-DIR")
        } else if screens.isEmpty {
            print("No screen matches the filters.")
        } else {
            // Unless an order is asked for, screens come first, then the app area, then the components.
            let order = ScreenKind.allCases
            let sorted =
                request.sort != nil
                ? screens
                : screens.enumerated().sorted { left, right in
                    (order.firstIndex(of: left.element.kind) ?? 0, left.offset)
                        < (order.firstIndex(of: right.element.kind) ?? 0, right.offset)
                }.map(\.element)
            Output.table(
                ["SCREEN", "KIND", "TITLE", "OWNER", "FINDINGS", "STEPS", "POSES", "DONE", "PATHS"],
                sorted.map { screen in
                    [
                        screen.key, screen.kind.rawValue, screen.title ?? "-", screen.owner ?? "-",
                        screen.findings.map(String.init) ?? "",
                        "\(screen.stepsDone ?? 0)/\(screen.stepsApplicable ?? 0)",
                        "\(screen.posesPassed ?? 0)/\(screen.posesRequired ?? 0)",
                        screen.isDone.map { $0 ? "yes" : "no" } ?? "", screen.paths.joined(separator: " "),
                    ]
                }
            )
            if matched > screens.count { print("(\(screens.count) of \(matched) rows: --limit)") }
        }
    }
}

struct ScreenShowCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a screen: its findings needing work, checklist steps, poses, history, and why it is not done.",
        discussion: """
            The history is the screen's own events (added, changed, steps, poses) and those of the findings it owns,
            the latest 100. With --json prints {screen, steps, poses, findings, history, why}.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", help: "The screen's key."),
        ]
    )

    let request: ScreenShowRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = ScreenShowRequest(project: parsed.value("project") ?? "", key: parsed.value("key") ?? "")
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        let detail = reply.parts
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
            return
        }
        let screen = detail.screen
        let kind = screen.kind
        func words(_ list: [String]?) -> String? { list.map { $0.joined(separator: " ") } }
        Output.fields([
            ("Screen", screen.key), ("Kind", kind == .screen ? nil : kind.rawValue), ("Title", screen.title),
            ("Owner", screen.owner), ("Paths", words(screen.paths)),
            (kind == .component ? "Used by" : "Uses", words(screen.uses)),
            ("Uses", kind == .component ? words(screen.components) : nil),
            ("Poses", screen.poses.map { $0 == "none" ? "none" : $0.replacingOccurrences(of: ",", with: " ") }),
            ("Done", screen.isDone == true ? "yes" : "no"),
        ])
        if !detail.findings.isEmpty {
            // A screen's findings include those of the components it uses: SCREEN says whose each is.
            print("\n" + Output.bold("Findings needing work"))
            Output.table(
                ["#", "STATUS", "SEVERITY", "WHAT", "SCREEN", "WHERE"],
                detail.findings.map { finding in
                    [
                        String(finding.id), finding.status.rawValue, finding.severity,
                        finding.rule ?? finding.title ?? "", finding.screen,
                        finding.file.map { "\($0):\(finding.line.map(String.init) ?? "")" } ?? "",
                    ]
                }
            )
        }
        // A component and the app area have no checklist, and poses only when given some.
        if !detail.steps.isEmpty {
            print(
                "\n" + Output.bold("Checklist (\(screen.stepsDone ?? 0) of \(screen.stepsApplicable ?? 0) done)"))
            Output.table(
                ["STEP", "KEY", "STATE", "OPEN FINDINGS"],
                detail.steps.map { step in
                    [String(step.step), step.key, step.state.rawValue, step.blockers?.joined(separator: ",") ?? ""]
                }
            )
        }
        printPoses(screen, detail.poses)
        printHistory(detail.history)
        if detail.why.isEmpty {
            print("\n\(request.key) is done.")
        } else {
            print("\n" + Output.bold("Why \(request.key) is not done"))
            for reason in detail.why { print("  - " + Output.plain(reason.text)) }
        }
    }
}

extension ScreenShowCommand {
    /// The poses the screen must pass, with their latest results; nothing when it must pass none.
    fileprivate func printPoses(_ screen: ScreenRecord, _ poses: [PoseResultRecord]) {
        guard !poses.isEmpty else { return }
        print(
            "\n"
                + Output.bold(
                    "Poses (\(screen.posesPassed ?? 0) of \(screen.posesRequired ?? 0) \(PoseResult.settledWord))"))
        Output.table(
            ["POSE", "RESULT", "RECORDED", "EVIDENCE"],
            poses.map { pose in [pose.pose.rawValue, pose.result.wire, pose.recordedMinute, pose.evidence] }
        )
    }

    /// The screen's history: its events and its findings', the latest 100.
    fileprivate func printHistory(_ history: [EventFields]) {
        guard !history.isEmpty else { return }
        print("\n" + Output.bold(history.count >= 100 ? "History (the latest 100 events)" : "History"))
        Output.table(
            ["SEQ", "AT", "WHAT", "CHANGE", "BY"],
            history.map { event in
                var change =
                    [event.from, event.to].allSatisfy { $0 == nil } ? "" : "\(event.from ?? "∅") → \(event.to ?? "∅")"
                if let reason = event.reason { change += change.isEmpty ? reason : " (\(reason))" }
                return [
                    String(event.seq), String(event.at.prefix(16)), "\(event.kind) \(event.subject)", change,
                    event.actor,
                ]
            }
        )
    }
}

struct ScreenSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change a screen's title, owner, kind, paths or required poses (writer); findings are re-attributed.",
        discussion: """
            --path replaces every glob of the screen; --add-path and --remove-path change one at a time (the app
            area's too: barkeep screen set PROJECT app --add-path 'App/AppDelegate.swift'). An empty --title or
            --owner clears it. --poses P1,P3 sets the poses this screen must pass instead of the project's;
            --poses none requires none (a debug screen); --poses project goes back to the project's. --kind screen
            or --kind component changes what the row is, in place: its globs, steps, pose results and history stay
            (a row that becomes a screen is no longer used by others). --screens GLOB instead of KEY changes the
            owner or poses of every screen and component whose key matches (* any characters, ? one), in one
            transaction: each takes what its kind allows (a component takes an owner but no poses) and the rest is
            listed as skipped with why; --unowned picks only those no one owns. With --screens, --dry-run lists what
            would change and --yes changes it; with neither the list is printed and the command exits 1. Paths,
            titles and kinds are changed one screen at a time.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", optional: true, help: "The screen's key (or --screens)."),
            .option("screens", valueName: "GLOB", help: "Every screen and component whose key matches GLOB."),
            .flag("unowned", help: "With --screens: only the rows no one owns."),
            .option("title", valueName: "TEXT", help: "A new title."),
            .option("owner", valueName: "NAME", help: "A new owner."),
            .option("kind", valueName: "KIND", help: "screen or component: what the row is from now on."),
            .option("path", valueName: "GLOB", repeatable: true, help: "The globs it owns from now on."),
            .option("add-path", valueName: "GLOB", repeatable: true, help: "A glob to add."),
            .option("remove-path", valueName: "GLOB", repeatable: true, help: "A glob to give up."),
            .option("poses", valueName: "POSES", help: "P1,P3,…, none, or project (the project's poses)."),
        ] + BulkConfirmation.arguments("with --screens: each match, its owner and poses from → to")
    )

    let request: ScreenSetRequest
    let target: ScreenTarget
    let confirmation: BulkConfirmation

    init(_ parsed: ParsedCommand) throws(UsageError) {
        target = try ScreenTarget(parsed)
        let keywords = screenKeywords(parsed, globOptions: ["path", "add-path", "remove-path"])
        guard !keywords.isEmpty else {
            throw UsageError(
                "give --title, --owner, --kind, --path, --add-path, --remove-path or --poses",
                commandPath: parsed.commandPath)
        }
        if case .glob = target, keywords.contains(where: { !["owner", "poses"].contains($0.key) }) {
            throw UsageError(
                "--screens changes --owner and --poses only: paths, titles and kinds are set one screen at a time",
                commandPath: parsed.commandPath)
        }
        let isUnownedOnly = parsed.flag("unowned")
        if isUnownedOnly && !target.isGlob {
            throw UsageError(
                "--unowned narrows --screens GLOB: give --screens with it", commandPath: parsed.commandPath)
        }
        confirmation = try BulkConfirmation(parsed, isBulk: target.isGlob)
        var request = ScreenSetRequest(project: parsed.value("project") ?? "", key: target.key, screens: target.glob)
        request.title = parsed.value("title")
        request.owner = parsed.value("owner")
        request.kind = try addableKind(parsed)
        request.poses = parsed.value("poses")
        func globs(_ option: String) -> [String] { keywords.filter { $0.key == option }.map(\.value) }
        request.paths = globs("path")
        request.addPaths = globs("add-path")
        request.removePaths = globs("remove-path")
        request.unowned = isUnownedOnly ? true : nil
        request.dryRun = confirmation.isDryRun ? true : nil
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        let screens = reply.rows
        if case .glob = target {
            let changed = screens.filter { $0.isChanged == true }
            if context.isJSON {
                try Output.json(screens.map(\.listJSON))
            } else {
                let skipped = reply.summary?.skipped ?? 0
                print(
                    "\(confirmation.isDryRun ? "Would change" : "Changed") \(changed.count) of "
                        + "\(Output.count(screens.count, "row")) matching \(target.name)"
                        + (request.unowned == true ? " that no one owned" : "")
                        + (skipped > 0 ? " (\(skipped) skipped in part or whole: see WHY)" : "") + ":")
                func poses(_ text: String?) -> String {
                    text?.replacingOccurrences(of: ",", with: " ") ?? "the project's"
                }
                func fromTo(_ from: String, _ to: String) -> String { from == to ? to : "\(from) → \(to)" }
                Output.table(
                    ["SCREEN", "KIND", "OWNER", "POSES", "CHANGE", "WHY"],
                    screens.map { screen in
                        [
                            screen.key, screen.kind.rawValue, fromTo(screen.fromOwner ?? "-", screen.owner ?? "-"),
                            screen.kind == .screen ? fromTo(poses(screen.fromPoses), poses(screen.poses)) : "-",
                            screen.isChanged.map { $0 ? "yes" : "no" } ?? "",
                            screen.skipped.map { "\($0) skipped: \(screen.why ?? "")" } ?? "",
                        ]
                    })
            }
            try confirmation.finish("\(Output.count(changed.count, "row")) would change")
            return
        }
        guard let screen = screens.first else { throw CLIError.badReply("SCREEN SET returned nothing") }
        if context.isJSON {
            try Output.json(screen.listJSON)
        } else {
            let paths = screen.paths.joined(separator: " ")
            print("Screen \(Output.bold(target.name)):")
            Output.fields([
                ("Kind", screen.kind.rawValue), ("Title", screen.title ?? "-"), ("Owner", screen.owner ?? "-"),
                ("Paths", paths.isEmpty ? "none" : paths),
                ("Poses", screen.poses.map { $0.replacingOccurrences(of: ",", with: " ") } ?? "the project's"),
                ("Re-attributed", Output.count(screen.reattributed ?? 0, "finding")),
            ])
        }
    }
}

/// A screen named by its key, or the screens whose keys a glob matches (`--screens GLOB`).
enum ScreenTarget {
    /// One screen.
    case key(String)
    /// Every screen (and component) whose key matches.
    case glob(String)

    /// The target of `key` and `--screens`: exactly one of them.
    init(_ parsed: ParsedCommand) throws(UsageError) {
        switch (parsed.value("key"), parsed.value("screens")) {
        case (let key?, nil): self = .key(key)
        case (nil, let glob?): self = .glob(glob)
        case (nil, nil): throw UsageError("give a screen KEY or --screens GLOB", commandPath: parsed.commandPath)
        case (_?, _?):
            throw UsageError("give a screen KEY or --screens GLOB, not both", commandPath: parsed.commandPath)
        }
    }

    /// The key; nil for a glob.
    var key: String? {
        if case .key(let key) = self { return key }
        return nil
    }

    /// The glob (`screens=`); nil for a key.
    var glob: String? {
        if case .glob(let glob) = self { return glob }
        return nil
    }

    /// Whether it is a glob (many rows).
    var isGlob: Bool {
        if case .glob = self { return true }
        return false
    }

    /// The key, or `'GLOB'`.
    var name: String {
        switch self {
        case .key(let key): key
        case .glob(let glob): "'\(glob)'"
        }
    }
}

struct ScreenRemoveCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Remove a screen (writer): its findings go to other screens or unmapped; its history stays.",
        discussion: """
            Discovery no longer proposes the key (undo with barkeep screen dismiss --undo). --screens GLOB instead of
            KEY removes every screen and component whose key matches (* any characters, ? one), in one transaction;
            the app area is never removed (listed as skipped). The step states and pose results of what is removed
            are deleted with it: --dry-run lists each row, its globs and what would be lost, --yes removes them, and
            with neither the list is printed and the command exits 1.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", optional: true, help: "The screen's key (or --screens)."),
            .option("screens", valueName: "GLOB", help: "Every screen and component whose key matches GLOB."),
        ] + BulkConfirmation.arguments("each row, its globs, findings, steps done and pose results")
    )

    let project: String
    let target: ScreenTarget
    let confirmation: BulkConfirmation

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        target = try ScreenTarget(parsed)
        confirmation = try BulkConfirmation(parsed, isBulk: true)
    }

    func run(_ context: CLIContext) throws {
        let request = ScreenRemoveRequest(
            project: project, key: target.key, screens: target.glob, isDryRun: confirmation.isDryRun)
        let reply = try context.send(request)
        guard case .records(let rows, let summary) = reply else {
            let findings = if case .ok(let removed) = reply { removed.findings } else { 0 }
            if context.isJSON {
                try Output.json(["removed": target.name, "findings": findings] as [String: Any])
            } else {
                print(
                    "Removed screen \(target.name); its \(Output.count(findings, "finding")) went to other screens or "
                        + "unmapped.")
            }
            return
        }
        let gone = rows.filter(\.isRemoved)
        if context.isJSON {
            try Output.json(Self.json(rows, summary: summary, isDryRun: confirmation.isDryRun))
        } else {
            let steps = gone.map(\.stepsDone).reduce(0, +)
            let poses = gone.map(\.poseResults).reduce(0, +)
            let rowsWord = target.isGlob ? "matching \(target.name)" : target.name
            print(
                "\(confirmation.isDryRun ? "Would remove" : "Removed") \(Output.count(gone.count, "row")) "
                    + rowsWord + " with \(Output.count(steps, "step")) done and \(Output.count(poses, "pose result")); "
                    + "their \(Output.count(summary.findings, "finding")) "
                    + "\(confirmation.isDryRun ? "would go" : "went") to other screens or unmapped:")
            Output.table(
                ["SCREEN", "KIND", "PATHS", "FINDINGS", "STEPS DONE", "POSE RESULTS", "WHY"],
                rows.map { row in
                    [
                        row.key, row.kind.rawValue, row.paths.joined(separator: " "), String(row.findings),
                        String(row.stepsDone), String(row.poseResults),
                        row.isRemoved ? "" : "skipped: \(row.why ?? "")",
                    ]
                })
        }
        try confirmation.finish(
            "\(Output.count(gone.count, "row")) would be removed with their step states and pose results")
    }

    /// The `--json` object of a removal of many (or a dry run): the rows removed, those skipped and their findings.
    private static func json(_ rows: [RemovalRecord], summary: RemovalSummary, isDryRun: Bool) -> [String: Any] {
        let removed: [[String: Any]] = rows.filter(\.isRemoved).map { row in
            [
                "key": row.key, "kind": row.kind.rawValue, "paths": row.paths, "findings": row.findings,
                "steps_done": row.stepsDone, "pose_results": row.poseResults,
            ]
        }
        let skipped: [[String: String]] = rows.filter { !$0.isRemoved }.map { ["key": $0.key, "why": $0.why ?? ""] }
        return ["dry_run": isDryRun, "removed": removed, "skipped": skipped, "findings": summary.findings]
    }
}

/// `barkeep screen uses PROJECT SCREEN COMPONENT[,COMPONENT…] [--remove]`: which components a screen (or a
/// component) uses.
struct ScreenUsesCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "uses",
        abstract: "Say that a screen or component uses components, or no longer does (writer).",
        discussion: """
            COMPONENT is a component's key, or a glob: the component owning it, created (named after the glob) when
            no screen or component owns it; several are comma-separated (Avatar,StatusRow,'Views/Badge*'), all in
            one transaction. A component's findings count for every screen that uses it, directly or through other
            components it is used by: in status, screen show, whether it is done, and the report; each is still one
            finding, triaged once. SCREEN may be a component too (a row that uses an avatar); a use that would go
            round is refused. Discovery records the uses it sees; this corrects them.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("screen", help: "The screen's (or component's) key."),
            .positional("component", help: "Components' keys or globs of their files, comma-separated."),
            .flag("remove", help: "It no longer uses them."),
        ]
    )

    let request: ScreenUsesRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = ScreenUsesRequest(
            project: parsed.value("project") ?? "", screen: parsed.value("screen") ?? "",
            components: [parsed.value("component") ?? ""], isRemoving: parsed.flag("remove"))
    }

    func run(_ context: CLIContext) throws {
        guard let screen = try context.send(request).rows.first else {
            throw CLIError.badReply("SCREEN USES returned nothing")
        }
        if context.isJSON {
            try Output.json(screen.listJSON)
        } else if screen.kind == .component {
            let uses = (screen.components ?? []).joined(separator: " ")
            let users = (screen.uses ?? []).joined(separator: " ")
            print(
                "Component \(Output.bold(request.screen)) uses " + (uses.isEmpty ? "no component" : uses)
                    + (users.isEmpty ? "; no screen uses it yet." : "; its findings count for \(users)."))
        } else {
            let uses = (screen.uses ?? []).joined(separator: " ")
            print("Screen \(Output.bold(request.screen)) uses " + (uses.isEmpty ? "no component." : uses + "."))
        }
    }
}

/// `barkeep screen dismiss PROJECT KEY [--undo]`: keys discovery does not propose again.
struct ScreenDismissCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "dismiss",
        abstract: "Keep discovery from proposing a screen again, or (--undo) let it (writer).",
        discussion: """
            Removing a screen dismisses its key too; adding a screen of that key by hand forgets the dismissal.
            barkeep screen discover marks dismissed proposals and --apply skips them. --list prints the dismissed
            keys (reader).
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", optional: true, help: "The key discovery proposes (omit with --list)."),
            .flag("undo", help: "Let discovery propose it again."),
            .flag("list", help: "List the dismissed keys."),
        ]
    )

    let project: String
    let key: String?
    let isUndoing: Bool
    let isListing: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        key = parsed.value("key")
        isUndoing = parsed.flag("undo")
        isListing = parsed.flag("list")
        guard isListing == (key == nil) else {
            throw UsageError("give a KEY to dismiss, or --list", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        guard let key else {
            let dismissals = try context.send(ScreenDismissalsRequest(project: project)).rows
            if context.isJSON {
                try Output.json(dismissals.map(\.json))
            } else if dismissals.isEmpty {
                print("Nothing is dismissed.")
            } else {
                Output.table(
                    ["KEY", "BY", "WHEN"], dismissals.map { [$0.key, $0.actor, String($0.dismissed.prefix(16))] })
            }
            return
        }
        _ = try context.send(ScreenDismissRequest(project: project, key: key, isUndoing: isUndoing))
        if context.isJSON {
            try Output.json([isUndoing ? "undismissed" : "dismissed": key])
        } else {
            print(isUndoing ? "Discovery may propose \(key) again." : "Discovery will not propose \(key) again.")
        }
    }
}
