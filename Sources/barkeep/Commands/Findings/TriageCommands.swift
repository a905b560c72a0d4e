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
    /// The findings' numbers (`F-12` read as 12); nil with `--where`.
    let numbers: FindingNumberList?
    /// The status or name to set.
    let value: String
    /// The filters (with `--where`).
    let filters: FindingFilters
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
    init(project: String, numbers: FindingNumberList?, value: String, filters: FindingFilters, isDryRun: Bool) {
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
            filters = FindingFilters(keywords: try FindingFilterOptions.keywords(parsed))
        } else {
            guard let numbers = parsed.value("numbers"), let value = parsed.value(valueKey) else {
                throw usage("give N[,N…] and the \(valueKey.uppercased()), or --where and filter options")
            }
            if FindingFilterOptions.isGiven(parsed) { throw usage("filter options choose findings only after --where") }
            // `12,F-15`: each as the CLI prints it, sent bare.
            var bare: [Int] = []
            for text in numbers.split(separator: ",", omittingEmptySubsequences: false) {
                bare.append(try NumberInProject.findingNumber(String(text), parsed))
            }
            self.numbers = FindingNumberList(bare)
            self.value = value
            filters = FindingFilters()
        }
    }

    /// One number without a dry run: the command's reply and output are those of one finding.
    var isSingle: Bool { !isDryRun && numbers?.numbers.count == 1 }

    /// The `FINDING SET` request for this selection.
    func setRequest(reason: String?) -> FindingSetRequest {
        var request = FindingSetRequest()
        (request.project, request.numbers, request.newStatus) = (project, numbers, value)
        (request.isWhere, request.filters) = (numbers == nil ? true : nil, filters)
        (request.reason, request.isDryRun) = (reason, isDryRun ? true : nil)
        return request
    }

    /// The `FINDING ASSIGN` request for this selection.
    func assignRequest() -> FindingAssignRequest {
        var request = FindingAssignRequest()
        (request.project, request.numbers, request.name) = (project, numbers, value)
        (request.isWhere, request.filters) = (numbers == nil ? true : nil, filters)
        request.isDryRun = isDryRun ? true : nil
        return request
    }

    /// Prints a bulk reply: a row per finding (`column` heads the from → to column), then `summary`; with
    /// --json an object. Findings refused leave the command failing (exit 1).
    func report(_ reply: BulkChangeReply, column: String, summary: String, context: CLIContext) throws {
        let counts = reply.summary ?? BulkChangeSummary()
        let refused = counts.refused
        if context.isJSON {
            try Output.json(reply.bulkJSON(isDryRun: isDryRun))
        } else {
            if !reply.rows.isEmpty {
                // WHY only when something was refused.
                let why = refused > 0 ? ["WHY"] : []
                Output.table(
                    ["#", "CHANGE", column, "RULE", "SCREEN", "WHERE"] + why,
                    reply.rows.map { row in
                        [
                            String(row.finding.id), row.change,
                            "\(row.from ?? Assignee.none) → \(row.to ?? Assignee.none)",
                            row.finding.rule ?? "item", row.finding.screen, row.finding.place,
                        ] + why.map { _ in row.refusal ?? "" }
                    })
            }
            print(summary + " (\(counts.unchanged) unchanged, \(refused) refused).")
            if isDryRun && numbers == nil && counts.changed > 0 { print("Run it again with --yes to change them.") }
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
    func counted(_ reply: BulkChangeReply) -> String {
        "\(Output.count(reply.summary?.changed ?? 0, "finding")) of \(project)"
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
        let reply = try context.send(selection.setRequest(reason: reason))
        let status = selection.value
        if selection.isSingle {
            guard let finding = reply.rows.first?.finding else {
                throw CLIError.badReply("FINDING SET returned nothing")
            }
            if context.isJSON {
                try Output.json(reply.json(isDryRun: false, isSingle: true))
            } else {
                print("Finding \(finding.id) of \(selection.project) is now \(finding.status.rawValue).")
            }
            return
        }
        let verb = selection.isDryRun ? "Would change" : "Changed"
        try selection.report(
            reply, column: "STATUS", summary: "\(verb) \(selection.counted(reply)) to \(status)",
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
        let reply = try context.send(selection.assignRequest())
        let name = selection.value.lowercased() == Assignee.none ? nil : selection.value
        if selection.isSingle {
            guard let finding = reply.rows.first?.finding else {
                throw CLIError.badReply("FINDING ASSIGN returned nothing")
            }
            if context.isJSON {
                try Output.json(reply.json(isDryRun: false, isSingle: true))
            } else {
                let who = name.map { "assigned to \($0)" } ?? "assigned to no one"
                print("Finding \(finding.id) of \(selection.project) is now \(who).")
            }
            return
        }
        let verb = selection.isDryRun ? "Would assign" : "Assigned"
        try selection.report(
            reply, column: "ASSIGNEE",
            summary: "\(verb) \(selection.counted(reply)) to \(name ?? "no one")", context: context)
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

    let request: MineRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let name = parsed.value("as")
        if let name, !Assignee.isValid(name) {
            throw UsageError(Assignee.rule(for: name), commandPath: parsed.commandPath)
        }
        request = MineRequest(project: parsed.value("project") ?? "", person: name)
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
            return
        }
        let (who, screens, findings) = (reply.summary.name, reply.screens, reply.findings)
        print("Screens \(who) owns in \(request.project): \(screens.count)")
        if !screens.isEmpty {
            Output.table(
                ["SCREEN", "KIND", "FINDINGS", "STEPS", "POSES", "DONE"],
                screens.map { screen in
                    [
                        screen.key, screen.kind.rawValue, screen.findings.map(String.init) ?? "",
                        "\(screen.stepsDone ?? 0)/\(screen.stepsApplicable ?? 0)",
                        "\(screen.posesPassed ?? 0)/\(screen.posesRequired ?? 0)", screen.isDone.map(\.wire) ?? "",
                    ]
                })
        }
        print("\nFindings needing work assigned to \(who): \(findings.count)")
        if !findings.isEmpty { FindingsCommand.table(findings) }
    }
}
