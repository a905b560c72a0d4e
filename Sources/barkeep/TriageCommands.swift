import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// How `finding set` and `finding assign` name their findings: numbers (`12,15,16`), or `--where` and the filter
/// options of `barkeep findings`, which then need `--dry-run` or `--yes`. The value to set comes last.
struct BulkSelection {
    /// The project.
    let project: String
    /// `N[,N…]`, each bare (`F-12` read as 12); nil with `--where`.
    let numbers: String?
    /// The status or name to set.
    let value: String
    /// The filters, as wire keys (with `--where`).
    let filters: [(key: String, value: String)]
    /// `--dry-run`: list what would change, change nothing.
    let isDryRun: Bool

    /// The positionals and options, `value` the last positional's key (it may not be a filter's).
    static func arguments(value: String, help: String) -> [ArgumentDefinition] {
        [
            .positional("project", help: "The project."),
            .positional(
                "numbers", optional: true,
                help: "N[,N…]: the findings' numbers in the project, 12 or F-12 (not with --where)."),
            .positional(value, optional: true, help: help),
            .flag("where", help: "Choose the findings with the filter options below (as barkeep findings) instead."),
            .flag("dry-run", help: "List what would change; change nothing."),
            .flag("yes", help: "With --where: change every finding the filters choose."),
        ] + FindingFilterOptions.arguments
    }

    /// A selection made without a command line (the MCP tools): `numbers` or else `filters`.
    init(
        project: String, numbers: String?, value: String, filters: [(key: String, value: String)], isDryRun: Bool
    ) {
        self.project = project
        self.numbers = numbers
        self.value = value
        self.filters = filters
        self.isDryRun = isDryRun
    }

    /// Reads the selection; `value` is the last positional's key.
    init(_ parsed: ParsedCommand, value valueKey: String) throws(UsageError) {
        func usage(_ message: String) -> UsageError { UsageError(message, commandPath: parsed.commandPath) }
        project = parsed.value("project") ?? ""
        isDryRun = parsed.flag("dry-run")
        if isDryRun && parsed.flag("yes") { throw usage("--dry-run and --yes exclude each other") }
        if parsed.flag("where") {
            guard let only = parsed.value("numbers"), parsed.value(valueKey) == nil else {
                throw usage("with --where give only PROJECT and the \(valueKey.uppercased()): the filters choose")
            }
            guard isDryRun || parsed.flag("yes") else {
                throw usage(
                    "--where changes every finding the filters choose: add --dry-run to list them, or --yes to "
                        + "change them")
            }
            numbers = nil
            value = only
            filters = try FindingFilterOptions.keywords(parsed)
        } else {
            guard let numbers = parsed.value("numbers"), let value = parsed.value(valueKey) else {
                throw usage("give N[,N…] and the \(valueKey.uppercased()), or --where and filter options")
            }
            if FindingFilterOptions.isGiven(parsed) { throw usage("filter options choose findings only after --where") }
            // `12,F-15`: each as the CLI prints it, sent bare.
            var bare: [String] = []
            for text in numbers.split(separator: ",", omittingEmptySubsequences: false) {
                bare.append(String(try NumberInProject.findingNumber(String(text), parsed)))
            }
            self.numbers = bare.joined(separator: ",")
            self.value = value
            filters = []
        }
    }

    /// One number without a dry run: the command's reply and output are those of one finding.
    var isSingle: Bool { !isDryRun && numbers.map { !$0.contains(",") } == true }

    /// The request `FINDING SUBVERB …` for this selection, with `keywords` of the command's own.
    func request(_ subverb: String, _ keywords: [(key: String, value: String)] = []) -> Request {
        var request = Request(verb: "FINDING", arguments: [subverb, project] + (numbers.map { [$0] } ?? []) + [value])
        if numbers == nil { request.keywordList.append(("where", "yes")) }
        request.keywordList += filters + keywords
        if isDryRun { request.keywordList.append(("dry-run", "yes")) }
        return request
    }

    /// The JSON object of a bulk reply: {dry_run, changed, unchanged, refused, findings (each with change, from,
    /// to, refusal)}.
    func json(_ response: Response) -> [String: Any] {
        let count = { (key: String) in Int(response.fields[key] ?? "") ?? 0 }
        return [
            "dry_run": isDryRun, "changed": count("changed"), "unchanged": count("unchanged"),
            "refused": count("refused"),
            "findings": response.records.map { record in
                var object = FindingsCommand.json(record)
                for key in ["change", "from", "to", "refusal"] { object[key] = record[key] ?? NSNull() }
                return object
            },
        ]
    }

    /// Prints a bulk reply: a row per finding (`column` heads the from → to column), then `summary`; with
    /// --json an object. Findings refused leave the command failing (exit 1).
    func report(_ response: Response, column: String, summary: String, context: CLIContext) throws {
        let count = { (key: String) in Int(response.fields[key] ?? "") ?? 0 }
        let refused = count("refused")
        if context.isJSON {
            try Output.json(json(response))
        } else {
            if !response.records.isEmpty {
                // WHY only when something was refused.
                let why = refused > 0 ? ["WHY"] : []
                Output.table(
                    ["#", "CHANGE", column, "RULE", "SCREEN", "WHERE"] + why,
                    response.records.map { record in
                        [
                            record["id"] ?? "", record["change"] ?? "",
                            "\(record["from"] ?? Assignee.none) → \(record["to"] ?? Assignee.none)",
                            record["rule"] ?? "item", record["screen"] ?? "", FindingsCommand.place(record),
                        ] + why.map { _ in record["refusal"] ?? "" }
                    })
            }
            print(summary + " (\(count("unchanged")) unchanged, \(refused) refused).")
            if isDryRun && numbers == nil && count("changed") > 0 { print("Run it again with --yes to change them.") }
        }
        if refused > 0 {
            // The list first, then the error after it, even when both go to one pipe.
            fflush(nil)
            throw CLIError.badInput(
                "\(Output.count(refused, "finding")) left as \(refused == 1 ? "it is" : "they are"): the change is "
                    + "not allowed (see WHY)")
        }
    }

    /// `N findings of PROJECT`, from the reply's `changed` count.
    func counted(_ response: Response) -> String {
        "\(Output.count(Int(response.fields["changed"] ?? "") ?? 0, "finding")) of \(project)"
    }
}

/// `barkeep finding set`: triage one finding, a list, or every finding some filters choose.
struct FindingSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Triage findings: \(FindingLifecycle.personStatusesText) (writer).",
        discussion: """
            barkeep finding set PROJECT N[,N…] STATUS [--reason TEXT] [--dry-run]
            barkeep finding set PROJECT --where [FILTERS…] STATUS [--reason TEXT] (--dry-run | --yes)
            FILTERS are the options of barkeep findings (--rule DUO003 --status proposed,approved …; without
            --status, the findings that need work). \(FindingStatus.verdictsNeedingReason) need --reason. A later scan never overrides
            \(FindingLifecycle.stickyStatusesText). verified needs the fix applied first (or, for a scanner finding, the
            scanner no longer reporting it: fixed). A blocked item is unblocked only by the SDK; a fixed finding can
            only be verified or given a verdict. Findings the change is not allowed for are listed and left alone
            (exit 1). All changes are one transaction, an event each.
            """,
        arguments: BulkSelection.arguments(
            value: "new-status", help: "\(FindingLifecycle.personStatusesText).")
            + [.option("reason", valueName: "TEXT", help: "Why (required for \(FindingStatus.verdictsNeedingReason)).")]
    )

    let selection: BulkSelection
    let reason: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        selection = try BulkSelection(parsed, value: "new-status")
        reason = parsed.value("reason")
        let settable = FindingLifecycle.personStatuses
        guard let value = FindingStatus(rawValue: selection.value), settable.contains(value) else {
            throw UsageError(
                "status must be one of \(settable.map(\.rawValue).joined(separator: ", ")), not \(ValueExcerpt.quoted(selection.value))",
                commandPath: parsed.commandPath
            )
        }
        if value.requiresReason && (reason ?? "").isEmpty {
            throw UsageError("\(selection.value) needs --reason", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        let response = try context.request(selection.request("SET", reason.map { [("reason", $0)] } ?? []))
        let status = selection.value
        if selection.isSingle {
            guard let finding = response.records.first else { throw CLIError.badReply("FINDING SET returned nothing") }
            if context.isJSON {
                try Output.json(FindingsCommand.json(finding))
            } else {
                print("Finding \(finding["id"] ?? "") of \(selection.project) is now \(finding["status"] ?? status).")
            }
            return
        }
        let verb = selection.isDryRun ? "Would change" : "Changed"
        try selection.report(
            response, column: "STATUS", summary: "\(verb) \(selection.counted(response)) to \(status)",
            context: context)
    }
}

/// `barkeep finding assign`: give findings to someone, or to no one.
struct FindingAssignCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "assign",
        abstract: "Assign findings to someone, or to no one (writer).",
        discussion: """
            barkeep finding assign PROJECT N[,N…] NAME|none [--dry-run]
            barkeep finding assign PROJECT --where [FILTERS…] NAME|none (--dry-run | --yes)
            NAME is written like a token name (1 to 64 of A-Z a-z 0-9 . _ @ -); none unassigns. FILTERS are the
            options of barkeep findings. All changes are one transaction, a finding.assigned event each.
            """,
        arguments: BulkSelection.arguments(value: "name", help: "Who: a name like a token's, or none.")
    )

    let selection: BulkSelection

    init(_ parsed: ParsedCommand) throws(UsageError) {
        selection = try BulkSelection(parsed, value: "name")
        let name = selection.value
        guard name.lowercased() == Assignee.none || Assignee.isValid(name) else {
            throw UsageError(Assignee.rule(for: name), commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        let response = try context.request(selection.request("ASSIGN"))
        let name = selection.value.lowercased() == Assignee.none ? nil : selection.value
        if selection.isSingle {
            guard let finding = response.records.first else {
                throw CLIError.badReply("FINDING ASSIGN returned nothing")
            }
            if context.isJSON {
                try Output.json(FindingsCommand.json(finding))
            } else {
                let who = name.map { "assigned to \($0)" } ?? "assigned to no one"
                print("Finding \(finding["id"] ?? "") of \(selection.project) is now \(who).")
            }
            return
        }
        let verb = selection.isDryRun ? "Would assign" : "Assigned"
        try selection.report(
            response, column: "ASSIGNEE",
            summary: "\(verb) \(selection.counted(response)) to \(name ?? "no one")", context: context)
    }
}

/// `barkeep finding comment PROJECT N TEXT`: a comment in a finding's history.
struct FindingCommentCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "comment",
        abstract: "Comment on a finding: a line in its history, not a change of status (writer).",
        discussion: "TEXT is one line of at most 4096 bytes. With --json prints the event as watch --json does.",
        arguments: NumberInProject.arguments("The finding's (or item's) number in the project.") + [
            .positional("text", help: "The comment.")
        ]
    )

    let request: FindingCommentRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let number = try findingNumber(parsed)
        let text = parsed.value("text") ?? ""
        if let refusal = FindingComment.refusal(of: text) { throw UsageError(refusal, commandPath: parsed.commandPath) }
        request = FindingCommentRequest(project: parsed.value("project") ?? "", number: number, text: text)
    }

    func run(_ context: CLIContext) throws {
        guard let event = try context.send(request).rows.first else {
            throw CLIError.badReply("FINDING COMMENT returned nothing")
        }
        if context.isJSON {
            try Output.json(event.commentJSON)
        } else {
            print("Commented on finding \(request.number.value) of \(request.project) (event \(event.seq)).")
        }
    }
}

/// `barkeep mine PROJECT [--as NAME]`: what is someone's to do.
struct MineCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "mine",
        abstract: "List the screens you own and the findings needing work assigned to you.",
        discussion: """
            You are the person your token stands for (its name before the first @: a token dana@laptop is dana), or
            your user on the daemon's Unix socket; --as NAME asks for someone else. With --json prints {name, screens, findings}: screens as barkeep screen list --json
            prints them, findings as barkeep findings --json.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("as", valueName: "NAME", help: "Whose (default: yours)."),
        ]
    )

    let project: String
    let name: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        name = parsed.value("as")
        if let name, !Assignee.isValid(name) {
            throw UsageError(Assignee.rule(for: name), commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "MINE", arguments: [project])
        if let name { request.keywordList.append(("as", name)) }
        let response = try context.request(request)
        let who = response.fields["name"] ?? name ?? ""
        let screens = response.records.filter { $0["type"] == "screen" }
        let findings = response.records.filter { $0["type"] == "finding" }
        if context.isJSON {
            try Output.json([
                "name": who, "screens": screens.map(screenJSON), "findings": findings.map(FindingsCommand.json),
            ])
            return
        }
        print("Screens \(who) owns in \(project): \(screens.count)")
        if !screens.isEmpty {
            Output.table(
                ["SCREEN", "KIND", "FINDINGS", "STEPS", "POSES", "DONE"],
                screens.map { record in
                    [
                        record["key"] ?? "", record["kind"] ?? "screen", record["findings"] ?? "",
                        "\(record["steps-done"] ?? "0")/\(record["steps-applicable"] ?? "0")",
                        "\(record["poses-passed"] ?? "0")/\(record["poses-required"] ?? "0")", record["done"] ?? "",
                    ]
                })
        }
        print("\nFindings needing work assigned to \(who): \(findings.count)")
        if !findings.isEmpty { FindingsCommand.table(findings) }
    }
}
