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
            ScreenRemoveCommand.self, ScreenDiscoverCommand.self,
        ]
    )
}

/// The JSON object of a `screen` record.
private func screenJSON(_ record: Record) -> [String: Any] {
    var object = record.json(
        integers: ["findings", "steps-done", "steps-applicable", "poses-passed", "poses-required", "reattributed"],
        lists: ["paths"]
    )
    if let done = record["done"] { object["done"] = done == "yes" }
    object.removeValue(forKey: "type")
    return object
}

/// `--title`, `--owner` and the glob options as request keywords; each glob option's values are also split at
/// commas (a glob never holds one).
private func screenKeywords(_ parsed: ParsedCommand, globOptions: [String]) -> [(key: String, value: String)] {
    var keywords = ["title", "owner"].compactMap { key in parsed.value(key).map { (key, $0) } }
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
            glob matches are unmapped. A glob belongs to one screen.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", help: "The screen's key: letters, digits, '.', '_' and '-' (Inbox)."),
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
            FINDINGS counts findings needing work; STEPS counts done steps of those that apply; POSES passed
            required poses. With --json prints an array of {key, title, owner, paths, findings, steps_done,
            steps_applicable, poses_passed, poses_required, done, created}.
            """,
        arguments: [.positional("project", help: "The project.")]
    )

    let project: String

    init(_ parsed: ParsedCommand) throws(UsageError) { project = parsed.value("project") ?? "" }

    func run(_ context: CLIContext) throws {
        let records = try context.request(Request(verb: "SCREEN", arguments: ["LIST", project])).records
        if context.isJSON {
            try Output.json(records.map(screenJSON))
        } else if records.isEmpty {
            print(
                "No screens yet. Add one with: barkeep screen add \(project) KEY --path GLOB, or find them with: "
                    + "barkeep screen discover \(project) SOURCE-DIR")
        } else {
            Output.table(
                ["SCREEN", "OWNER", "FINDINGS", "STEPS", "POSES", "DONE", "PATHS"],
                records.map { record in
                    [
                        record["key"] ?? "", record["owner"] ?? "-", record["findings"] ?? "",
                        "\(record["steps-done"] ?? "0")/\(record["steps-applicable"] ?? "0")",
                        "\(record["poses-passed"] ?? "0")/\(record["poses-required"] ?? "0")",
                        record["done"] ?? "", (record["paths"] ?? "").replacingOccurrences(of: ",", with: " "),
                    ]
                }
            )
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

    func run(_ context: CLIContext) throws {
        let records = try context.request(Request(verb: "SCREEN", arguments: ["SHOW", project, key])).records
        func of(_ type: String) -> [Record] { records.filter { $0["type"] == type } }
        guard let screen = of("screen").first else { throw CLIError.badReply("SCREEN SHOW returned no screen") }
        if context.isJSON {
            func strip(_ object: [String: Any]) -> [String: Any] {
                var object = object
                object.removeValue(forKey: "type")
                return object
            }
            try Output.json([
                "screen": screenJSON(screen),
                "steps": of("step").map { strip($0.json(integers: ["step"], lists: ["blockers"])) },
                "poses": of("pose").map { strip(PosesCommand.json($0)) },
                "findings": of("finding").map(FindingsCommand.json),
                "why": of("why").map { ["topic": $0["topic"] ?? "", "text": $0["text"] ?? ""] },
                "history": of("event").map { strip($0.json(integers: ["seq"])) },
            ])
            return
        }
        Output.fields([
            ("Screen", screen["key"]), ("Title", screen["title"]), ("Owner", screen["owner"]),
            ("Paths", screen["paths"]?.replacingOccurrences(of: ",", with: " ")),
            ("Done", screen["done"] == "yes" ? "yes" : "no"),
        ])
        let findings = of("finding")
        if !findings.isEmpty {
            print("\n" + Output.bold("Findings needing work"))
            Output.table(
                ["#", "STATUS", "SEVERITY", "WHAT", "WHERE"],
                findings.map { record in
                    [
                        record["id"] ?? "", record["status"] ?? "", record["severity"] ?? "",
                        record["rule"] ?? record["title"] ?? "",
                        record["file"].map { "\($0):\(record["line"] ?? "")" } ?? "",
                    ]
                }
            )
        }
        print(
            "\n"
                + Output.bold("Checklist (\(screen["steps-done"] ?? "0") of \(screen["steps-applicable"] ?? "0") done)")
        )
        Output.table(
            ["STEP", "KEY", "STATE", "OPEN FINDINGS"],
            of("step").map { record in
                [record["step"] ?? "", record["key"] ?? "", record["state"] ?? "", record["blockers"] ?? ""]
            }
        )
        print(
            "\n" + Output.bold("Poses (\(screen["poses-passed"] ?? "0") of \(screen["poses-required"] ?? "0") passed)"))
        Output.table(
            ["POSE", "RESULT", "RECORDED", "EVIDENCE"],
            of("pose").map { record in
                [
                    record["pose"] ?? "", record["result"] ?? "", String((record["recorded"] ?? "").prefix(16)),
                    [record["screenshot"], record["finding"].map { "finding \($0)" }, record["reason"]]
                        .compactMap { $0 }.joined(separator: "; "),
                ]
            }
        )
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
            for reason in why { print("  - \(reason["text"] ?? "")") }
        }
    }
}

struct ScreenSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change a screen's title, owner or paths (writer); findings are re-attributed.",
        discussion: """
            --path replaces every glob of the screen; --add-path and --remove-path change one at a time. An empty
            --title or --owner clears it.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", help: "The screen's key."),
            .option("title", valueName: "TEXT", help: "A new title."),
            .option("owner", valueName: "NAME", help: "A new owner."),
            .option("path", valueName: "GLOB", repeatable: true, help: "The globs it owns from now on."),
            .option("add-path", valueName: "GLOB", repeatable: true, help: "A glob to add."),
            .option("remove-path", valueName: "GLOB", repeatable: true, help: "A glob to give up."),
        ]
    )

    let project: String
    let key: String
    let keywords: [(key: String, value: String)]

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        key = parsed.value("key") ?? ""
        keywords = screenKeywords(parsed, globOptions: ["path", "add-path", "remove-path"])
        guard !keywords.isEmpty else {
            throw UsageError(
                "give --title, --owner, --path, --add-path or --remove-path", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "SCREEN", arguments: ["SET", project, key])
        request.keywordList = keywords
        let records = try context.request(request).records
        guard let screen = records.first else { throw CLIError.badReply("SCREEN SET returned nothing") }
        if context.isJSON {
            try Output.json(screenJSON(screen))
        } else {
            let paths = (screen["paths"] ?? "").replacingOccurrences(of: ",", with: " ")
            print("Screen \(Output.bold(key)):")
            Output.fields([
                ("Title", screen["title"] ?? "-"), ("Owner", screen["owner"] ?? "-"),
                ("Paths", paths.isEmpty ? "none" : paths),
                ("Re-attributed", Output.count(Int(screen["reattributed"] ?? "") ?? 0, "finding")),
            ])
        }
    }
}

struct ScreenRemoveCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Remove a screen (writer): its findings go to other screens or unmapped; its history stays.",
        arguments: [
            .positional("project", help: "The project."),
            .positional("key", help: "The screen's key."),
            .flag("yes", help: "Confirm: the screen's step states and pose results are deleted."),
        ]
    )

    let project: String
    let key: String

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        key = parsed.value("key") ?? ""
        guard parsed.flag("yes") else {
            throw UsageError(
                "removing \(key) deletes its step states and pose results; add --yes to confirm",
                commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: "SCREEN", arguments: ["REMOVE", project, key]))
        let findings = Int(response.fields["findings"] ?? "") ?? 0
        if context.isJSON {
            try Output.json(["removed": key, "findings": findings] as [String: Any])
        } else {
            print(
                "Removed screen \(key); its \(Output.count(findings, "finding")) went to other screens or unmapped.")
        }
    }
}
