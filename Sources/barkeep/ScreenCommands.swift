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

/// The JSON object of a `screen` record.
func screenJSON(_ record: Record) -> [String: Any] {
    var object = record.json(
        integers: ["findings", "steps-done", "steps-applicable", "poses-passed", "poses-required", "reattributed"],
        lists: ["paths", "uses", "components"]
    )
    if object["uses"] == nil { object["uses"] = [String]() }
    if record["kind"] == ScreenKind.component.rawValue && object["components"] == nil {
        object["components"] = [String]()
    }
    // The poses a screen must pass (and, after a change of many, had to) when not the project's: a list (empty for
    // none); absent, the project's.
    for key in ["poses", "from-poses"] {
        guard let poses = record[key] else { continue }
        object[key.replacingOccurrences(of: "-", with: "_")] =
            poses == "none" ? [] : poses.split(separator: ",").map(String.init)
    }
    if let done = record["done"] { object["done"] = done == "yes" }
    if let changed = record["changed"] { object["changed"] = changed == "yes" }
    object.removeValue(forKey: "type")
    return object
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

    let project: String
    let key: String
    let keywords: [(key: String, value: String)]

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        key = parsed.value("key") ?? ""
        keywords = screenKeywords(parsed, globOptions: ["path"])
        guard keywords.contains(where: { $0.key == "path" }) else {
            throw UsageError("screen add needs at least one --path GLOB", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "SCREEN", arguments: ["ADD", project, key])
        request.keywordList = keywords
        let records = try context.request(request).records
        guard let screen = records.first else { throw CLIError.badReply("SCREEN ADD returned nothing") }
        if context.isJSON {
            try Output.json(screenJSON(screen))
        } else {
            print(
                "Added screen \(Output.bold(key)) owning "
                    + "\((screen["paths"] ?? "").replacingOccurrences(of: ",", with: " ")); "
                    + "\(Output.count(Int(screen["reattributed"] ?? "") ?? 0, "finding")) attributed to it.")
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

    let project: String
    let filters: [(key: String, value: String)]

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        filters = try ScreenFilterOptions.keywords(parsed)
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "SCREEN", arguments: ["LIST", project])
        request.keywordList = filters
        let response = try context.request(request)
        let records = response.records
        let matched = Int(response.fields["matched"] ?? "") ?? records.count
        if context.isJSON {
            try Output.json(records.map(screenJSON))
        } else if records.isEmpty && filters.isEmpty {
            print(
                "No screens yet. Add one with: barkeep screen add \(project) KEY --path GLOB, or find them with: "
                    + "barkeep screen discover \(project) SOURCE-DIR")
        } else if records.isEmpty {
            print("No screen matches the filters.")
        } else {
            // Unless an order is asked for, screens come first, then the app area, then the components.
            let order: [String] = ScreenKind.allCases.map(\.rawValue)
            let sorted =
                filters.contains { $0.key == "sort" }
                ? records
                : records.enumerated().sorted { left, right in
                    let (a, b) = (left.element["kind"] ?? "screen", right.element["kind"] ?? "screen")
                    return (order.firstIndex(of: a) ?? 0, left.offset) < (order.firstIndex(of: b) ?? 0, right.offset)
                }.map(\.element)
            Output.table(
                ["SCREEN", "KIND", "TITLE", "OWNER", "FINDINGS", "STEPS", "POSES", "DONE", "PATHS"],
                sorted.map { record in
                    [
                        record["key"] ?? "", record["kind"] ?? "screen", record["title"] ?? "-",
                        record["owner"] ?? "-", record["findings"] ?? "",
                        "\(record["steps-done"] ?? "0")/\(record["steps-applicable"] ?? "0")",
                        "\(record["poses-passed"] ?? "0")/\(record["poses-required"] ?? "0")",
                        record["done"] ?? "", (record["paths"] ?? "").replacingOccurrences(of: ",", with: " "),
                    ]
                }
            )
            if matched > records.count { print("(\(records.count) of \(matched) rows: --limit)") }
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

    let project: String
    let key: String

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        key = parsed.value("key") ?? ""
    }

    /// The JSON object of a `SCREEN SHOW` reply: {screen, steps, poses, findings, why, history}.
    static func json(_ records: [Record]) -> [String: Any] {
        func of(_ type: String) -> [Record] { records.filter { $0["type"] == type } }
        func strip(_ object: [String: Any]) -> [String: Any] {
            var object = object
            object.removeValue(forKey: "type")
            return object
        }
        return [
            "screen": of("screen").first.map(screenJSON) ?? [:],
            "steps": of("step").map { strip(StepSetCommand.json($0)) },
            "poses": of("pose").map { strip($0.json(integers: ["finding"])) },
            "findings": of("finding").map(FindingsCommand.json),
            "why": of("why").map { ["topic": $0["topic"] ?? "", "text": $0["text"] ?? ""] },
            "history": of("event").map(WatchCommand.json),
        ]
    }

    func run(_ context: CLIContext) throws {
        let records = try context.request(Request(verb: "SCREEN", arguments: ["SHOW", project, key])).records
        func of(_ type: String) -> [Record] { records.filter { $0["type"] == type } }
        guard let screen = of("screen").first else { throw CLIError.badReply("SCREEN SHOW returned no screen") }
        if context.isJSON {
            try Output.json(Self.json(records))
            return
        }
        let kind = ScreenKind(rawValue: screen["kind"] ?? "") ?? .screen
        Output.fields([
            ("Screen", screen["key"]), ("Kind", kind == .screen ? nil : kind.rawValue), ("Title", screen["title"]),
            ("Owner", screen["owner"]), ("Paths", screen["paths"]?.replacingOccurrences(of: ",", with: " ")),
            (kind == .component ? "Used by" : "Uses", screen["uses"]?.replacingOccurrences(of: ",", with: " ")),
            ("Uses", kind == .component ? screen["components"]?.replacingOccurrences(of: ",", with: " ") : nil),
            ("Poses", screen["poses"].map { $0 == "none" ? "none" : $0.replacingOccurrences(of: ",", with: " ") }),
            ("Done", screen["done"] == "yes" ? "yes" : "no"),
        ])
        let findings = of("finding")
        if !findings.isEmpty {
            // A screen's findings include those of the components it uses: SCREEN says whose each is.
            print("\n" + Output.bold("Findings needing work"))
            Output.table(
                ["#", "STATUS", "SEVERITY", "WHAT", "SCREEN", "WHERE"],
                findings.map { record in
                    [
                        record["id"] ?? "", record["status"] ?? "", record["severity"] ?? "",
                        record["rule"] ?? record["title"] ?? "", record["screen"] ?? "",
                        record["file"].map { "\($0):\(record["line"] ?? "")" } ?? "",
                    ]
                }
            )
        }
        // A component and the app area have no checklist, and poses only when given some.
        if !of("step").isEmpty {
            print(
                "\n"
                    + Output.bold(
                        "Checklist (\(screen["steps-done"] ?? "0") of \(screen["steps-applicable"] ?? "0") done)")
            )
            Output.table(
                ["STEP", "KEY", "STATE", "OPEN FINDINGS"],
                of("step").map { record in
                    [record["step"] ?? "", record["key"] ?? "", record["state"] ?? "", record["blockers"] ?? ""]
                }
            )
        }
        printPoses(screen, of("pose"))
        let history = of("event")
        if !history.isEmpty {
            print("\n" + Output.bold(history.count >= 100 ? "History (the latest 100 events)" : "History"))
            Output.table(
                ["SEQ", "AT", "WHAT", "CHANGE", "BY"],
                history.map { event in
                    var change =
                        [event["from"], event["to"]].allSatisfy { $0 == nil }
                        ? "" : "\(event["from"] ?? "∅") → \(event["to"] ?? "∅")"
                    if let reason = event["reason"] { change += change.isEmpty ? reason : " (\(reason))" }
                    return [
                        event["seq"] ?? "", String((event["at"] ?? "").prefix(16)),
                        "\(event["kind"] ?? "") \(event["subject"] ?? "")", change, event["actor"] ?? "",
                    ]
                }
            )
        }
        let why = of("why")
        if why.isEmpty {
            print("\n\(key) is done.")
        } else {
            print("\n" + Output.bold("Why \(key) is not done"))
            for reason in why { print("  - " + Output.plain(reason["text"] ?? "")) }
        }
    }
}

extension ScreenShowCommand {
    /// The poses the screen must pass, with their latest results; nothing when it must pass none.
    fileprivate func printPoses(_ screen: Record, _ poses: [Record]) {
        guard !poses.isEmpty else { return }
        print(
            "\n"
                + Output.bold(
                    "Poses (\(screen["poses-passed"] ?? "0") of \(screen["poses-required"] ?? "0") "
                        + "\(PoseResult.settledWord))"))
        Output.table(
            ["POSE", "RESULT", "RECORDED", "EVIDENCE"],
            poses.map { record in
                [
                    record["pose"] ?? "", record["result"] ?? "", String((record["recorded"] ?? "").prefix(16)),
                    (try? PoseResultRecord(record: record, version: ProtocolVersion.current, context: "SCREEN SHOW"))?
                        .evidence ?? "",
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

    let project: String
    let target: ScreenTarget
    let keywords: [(key: String, value: String)]
    let confirmation: BulkConfirmation
    /// `--unowned`: with `--screens`, only the rows no one owns.
    let isUnownedOnly: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        target = try ScreenTarget(parsed)
        keywords = screenKeywords(parsed, globOptions: ["path", "add-path", "remove-path"])
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
        isUnownedOnly = parsed.flag("unowned")
        if isUnownedOnly && !target.isGlob {
            throw UsageError(
                "--unowned narrows --screens GLOB: give --screens with it", commandPath: parsed.commandPath)
        }
        confirmation = try BulkConfirmation(parsed, isBulk: target.isGlob)
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "SCREEN", arguments: ["SET", project] + target.arguments)
        request.keywordList =
            target.keywords + (isUnownedOnly ? [("unowned", "yes")] : []) + keywords + confirmation.keywords
        let response = try context.request(request)
        let records = response.records
        if case .glob = target {
            let changed = records.filter { $0["changed"] == "yes" }
            if context.isJSON {
                try Output.json(records.map(screenJSON))
            } else {
                let skipped = Int(response.fields["skipped"] ?? "") ?? 0
                print(
                    "\(confirmation.isDryRun ? "Would change" : "Changed") \(changed.count) of "
                        + "\(Output.count(records.count, "row")) matching \(target.name)"
                        + (isUnownedOnly ? " that no one owned" : "")
                        + (skipped > 0 ? " (\(skipped) skipped in part or whole: see WHY)" : "") + ":")
                func poses(_ text: String?) -> String {
                    text?.replacingOccurrences(of: ",", with: " ") ?? "the project's"
                }
                func fromTo(_ from: String, _ to: String) -> String { from == to ? to : "\(from) → \(to)" }
                Output.table(
                    ["SCREEN", "KIND", "OWNER", "POSES", "CHANGE", "WHY"],
                    records.map { record in
                        [
                            record["key"] ?? "", record["kind"] ?? "screen",
                            fromTo(record["from-owner"] ?? "-", record["owner"] ?? "-"),
                            record["kind"] == ScreenKind.screen.rawValue
                                ? fromTo(poses(record["from-poses"]), poses(record["poses"])) : "-",
                            record["changed"] ?? "",
                            record["skipped"].map { "\($0) skipped: \(record["why"] ?? "")" } ?? "",
                        ]
                    })
            }
            try confirmation.finish("\(Output.count(changed.count, "row")) would change")
            return
        }
        guard let screen = records.first else { throw CLIError.badReply("SCREEN SET returned nothing") }
        if context.isJSON {
            try Output.json(screenJSON(screen))
        } else {
            let paths = (screen["paths"] ?? "").replacingOccurrences(of: ",", with: " ")
            print("Screen \(Output.bold(target.name)):")
            Output.fields([
                ("Kind", screen["kind"] ?? ScreenKind.screen.rawValue),
                ("Title", screen["title"] ?? "-"), ("Owner", screen["owner"] ?? "-"),
                ("Paths", paths.isEmpty ? "none" : paths),
                ("Poses", screen["poses"].map { $0.replacingOccurrences(of: ",", with: " ") } ?? "the project's"),
                ("Re-attributed", Output.count(Int(screen["reattributed"] ?? "") ?? 0, "finding")),
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

    /// The request's positional arguments after the project.
    var arguments: [String] {
        if case .key(let key) = self { return [key] }
        return []
    }

    /// The request's selection keywords.
    var keywords: [(key: String, value: String)] {
        if case .glob(let glob) = self { return [("screens", glob)] }
        return []
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
        var request = Request(verb: "SCREEN", arguments: ["REMOVE", project] + target.arguments)
        request.keywordList = target.keywords + confirmation.keywords
        let response = try context.request(request)
        let findings = Int(response.fields["findings"] ?? "") ?? 0
        if !target.isGlob && !confirmation.isDryRun {
            if context.isJSON {
                try Output.json(["removed": target.name, "findings": findings] as [String: Any])
            } else {
                print(
                    "Removed screen \(target.name); its \(Output.count(findings, "finding")) went to other screens or "
                        + "unmapped.")
            }
            return
        }
        let records = response.records
        let gone = records.filter { $0["removed"] == "yes" }
        let number = { (record: Record, key: String) in Int(record[key] ?? "") ?? 0 }
        if context.isJSON {
            try Output.json([
                "dry_run": confirmation.isDryRun,
                "removed": gone.map { record in
                    [
                        "key": record["key"] ?? "", "kind": record["kind"] ?? "",
                        "paths": (record["paths"] ?? "").split(separator: ",").map(String.init),
                        "findings": number(record, "findings"), "steps_done": number(record, "steps-done"),
                        "pose_results": number(record, "pose-results"),
                    ] as [String: Any]
                },
                "skipped": records.filter { $0["removed"] != "yes" }.map {
                    ["key": $0["key"] ?? "", "why": $0["why"] ?? ""]
                },
                "findings": findings,
            ])
        } else {
            let steps = gone.map { number($0, "steps-done") }.reduce(0, +)
            let poses = gone.map { number($0, "pose-results") }.reduce(0, +)
            print(
                "\(confirmation.isDryRun ? "Would remove" : "Removed") \(Output.count(gone.count, "row")) "
                    + (target.isGlob ? "matching \(target.name)" : target.name) + " with "
                    + "\(Output.count(steps, "step")) done and \(Output.count(poses, "pose result")); "
                    + "their \(Output.count(findings, "finding")) "
                    + "\(confirmation.isDryRun ? "would go" : "went") to other screens or unmapped:")
            Output.table(
                ["SCREEN", "KIND", "PATHS", "FINDINGS", "STEPS DONE", "POSE RESULTS", "WHY"],
                records.map { record in
                    [
                        record["key"] ?? "", record["kind"] ?? "",
                        (record["paths"] ?? "").replacingOccurrences(of: ",", with: " "), record["findings"] ?? "",
                        record["steps-done"] ?? "", record["pose-results"] ?? "",
                        record["removed"] == "yes" ? "" : "skipped: \(record["why"] ?? "")",
                    ]
                })
        }
        try confirmation.finish(
            "\(Output.count(gone.count, "row")) would be removed with their step states and pose results")
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

    let arguments: [String]
    let isRemoving: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        arguments = ["project", "screen", "component"].map { parsed.value($0) ?? "" }
        isRemoving = parsed.flag("remove")
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "SCREEN", arguments: ["USES"] + arguments)
        if isRemoving { request.keywordList.append(("remove", "yes")) }
        guard let screen = try context.request(request).records.first else {
            throw CLIError.badReply("SCREEN USES returned nothing")
        }
        if context.isJSON {
            try Output.json(screenJSON(screen))
        } else if screen["kind"] == ScreenKind.component.rawValue {
            let uses = (screen["components"] ?? "").replacingOccurrences(of: ",", with: " ")
            let users = (screen["uses"] ?? "").replacingOccurrences(of: ",", with: " ")
            print(
                "Component \(Output.bold(arguments[1])) uses " + (uses.isEmpty ? "no component" : uses)
                    + (users.isEmpty ? "; no screen uses it yet." : "; its findings count for \(users)."))
        } else {
            let uses = (screen["uses"] ?? "").replacingOccurrences(of: ",", with: " ")
            print("Screen \(Output.bold(arguments[1])) uses " + (uses.isEmpty ? "no component." : uses + "."))
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
            let records = try context.request(Request(verb: "SCREEN", arguments: ["DISMISSALS", project])).records
            if context.isJSON {
                try Output.json(records.map { $0.json(integers: []) })
            } else if records.isEmpty {
                print("Nothing is dismissed.")
            } else {
                Output.table(
                    ["KEY", "BY", "WHEN"],
                    records.map { [$0["key"] ?? "", $0["actor"] ?? "", String(($0["dismissed"] ?? "").prefix(16))] })
            }
            return
        }
        var request = Request(verb: "SCREEN", arguments: ["DISMISS", project, key])
        if isUndoing { request.keywordList.append(("undo", "yes")) }
        _ = try context.request(request)
        if context.isJSON {
            try Output.json([isUndoing ? "undismissed" : "dismissed": key])
        } else {
            print(isUndoing ? "Discovery may propose \(key) again." : "Discovery will not propose \(key) again.")
        }
    }
}
