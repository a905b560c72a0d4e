import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep runs PROJECT`: the project's scan runs, newest first.
struct RunsCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "runs",
        abstract: "List a project's scan runs, newest first, with what each changed.",
        arguments: [
            .positional("project", help: "The project."),
            .option("limit", valueName: "N", default: "100", help: "At most N runs."),
        ]
    )

    let request: RunsRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = RunsRequest(project: parsed.value("project") ?? "", limit: try typedOption("limit", parsed))
    }

    func run(_ context: CLIContext) throws {
        let runs = try context.send(request).rows
        if context.isJSON {
            try Output.json(request.jsonBody(of: RunsRequest.Reply(runs)))
        } else if runs.isEmpty {
            print("No runs yet. Upload one with: barkeep ingest \(request.project) FILE")
        } else {
            Output.table(
                [
                    "RUN", "INGESTED", "TOOL", "COMMIT", "COMMITTED", "SCOPE", "NEW", "FIXED", "REOPENED",
                    "UNCHANGED", "MOVED", "CHANGED", "RENAMED",
                ],
                runs.map { run in
                    [
                        String(run.id), String(run.ingested.prefix(16)),
                        [run.tool, run.toolVersion].compactMap { $0 }.joined(separator: " "),
                        String((run.commit ?? "").prefix(8)), String((run.commitTime ?? "").prefix(16)),
                        run.scope ?? "", String(run.new), String(run.fixed), String(run.reopened),
                        String(run.unchanged), String(run.moved), String(run.changed), String(run.renamed),
                    ]
                }
            )
        }
    }
}

/// The option `--NAME` read as the request's field reads it: what the field refuses is a usage error, worded as the
/// daemon words it.
func typedOption<V: WireValue>(_ name: String, _ parsed: ParsedCommand) throws(UsageError) -> V? {
    guard let text = parsed.value(name) else { return nil }
    do {
        return try V(wire: text)
    } catch {
        throw UsageError(
            error.isPredicate ? "--\(name) \(error.message)" : error.message, commandPath: parsed.commandPath)
    }
}

/// The positional `number` read as a finding's (or item's) number: `12` or `F-12` (NumberInProject.findingNumber).
func findingNumber(_ parsed: ParsedCommand) throws(UsageError) -> ProjectNumber {
    ProjectNumber(try NumberInProject.findingNumber(parsed.value("number") ?? "", parsed))
}

/// The positional `number` read as a run's number: what the field refuses is a usage error.
func runNumber(_ parsed: ParsedCommand) throws(UsageError) -> RunNumber {
    do {
        return try RunNumber(wire: parsed.value("number") ?? "")
    } catch {
        throw UsageError(error.message, commandPath: parsed.commandPath)
    }
}

/// `barkeep run PROJECT N`: one run, by its number in the project; `barkeep run show PROJECT N` says the same.
struct RunGroup: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Show one scan run of a project: what was scanned, by whom, and what it changed.",
        discussion: "barkeep run show PROJECT N is the same command. With --json prints the object barkeep runs --json "
            + "prints for it.",
        arguments: RunShowCommand.configuration.arguments,
        subcommands: [RunShowCommand.self]
    )

    /// `RUN SHOW`, which the words `run` alone do not name.
    static var requests: [String]? { ["RUN SHOW"] }

    let show: RunShowCommand

    init(_ parsed: ParsedCommand) throws(UsageError) {
        show = try RunShowCommand(parsed)
    }

    func run(_ context: CLIContext) throws {
        try show.run(context)
    }
}

/// `barkeep run show PROJECT N`: one run, by its number in the project (as `barkeep run PROJECT N`).
struct RunShowCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a scan run: what was scanned, by whom, and what it changed.",
        discussion: "With --json prints the object barkeep runs --json prints for it.",
        arguments: NumberInProject.arguments("The run's number in the project (from barkeep runs).")
    )

    let request: RunShowRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = RunShowRequest(project: parsed.value("project") ?? "", number: try runNumber(parsed))
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        guard let run = reply.rows.first else { throw CLIError.badReply("RUN SHOW returned nothing") }
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
            return
        }
        let counts = [
            ("new", run.new), ("fixed", run.fixed), ("reopened", run.reopened), ("unchanged", run.unchanged),
            ("moved", run.moved), ("changed", run.changed), ("renamed", run.renamed),
        ].map { "\($0.1) \($0.0)" }
        Output.fields([
            ("Run", String(run.id)), ("Project", request.project), ("Ingested", run.ingested), ("By", run.actor),
            ("Format", run.format),
            ("Tool", [run.tool, run.toolVersion].compactMap { $0 }.joined(separator: " ")),
            ("Commit", run.commit), ("Commit time", run.commitTime),
            ("Scope", run.scope ?? "the whole project"),
            ("Files scanned", run.filesScanned.map { String($0) }), ("Lifecycle", run.lifecycle),
            ("Changed", run.format == "sdk-check" ? nil : counts.joined(separator: ", ")),
        ])
    }
}

/// `barkeep findings PROJECT`: the project's findings, filtered.
struct FindingsCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "findings",
        abstract: "List a project's findings, by file and line: by default those that need work.",
        discussion: """
            Findings and items are numbered from 1 in each project; the number (id) is what finding show and
            finding set take. Lists take comma-separated values (--status proposed,approved). Without --status,
            the findings that need work (open: \(FindingLifecycle.needsWorkStatuses.map(\.rawValue).joined(separator: ", "))); --status all lists every one.
            A finding no screen counts is unmapped, and says why: its file matches no glob (no-glob), its
            component is used by no screen (unused-component), its file is in an excluded path (excluded: barkeep
            screen exclude, or what discovery left out), or it names no file (no-file); the table then has an
            UNMAPPED column, and a last line counts each reason with what to do.
            With --json prints an array of objects with id, source (scanner or manual), rule, title, severity,
            file, line, snippet, status, screen, assignee, step, needs (SDK symbols), gate (the iOS version to wrap
            its code in if #available for), first_seen_run, last_seen_run, still_reported_run (for a verified
            finding a later scan still reports, the latest run that did: its status reads "verified, still reported
            in run N"), unmapped (the reason, for a finding no screen counts) and excluded (the excluded path holding
            its file); absent values are null (needs: []).
            Without --limit and --after, every finding the filters choose, by file and line. With either, one page
            by number: the findings numbered after --after, at most --limit (default \(FindingPage.defaultLimit));
            when more follow, the last line says the --after of the next page; with --json an object: rows (those
            objects) and summary (limit, and next: the --after of the next page, null on the last).
            """,
        arguments: [.positional("project", help: "The project.")] + FindingFilterOptions.arguments + [
            .option(
                "limit", valueName: "N",
                help: "A page: at most N findings (1 to \(FindingPage.maximumLimit)), by number; the last line says "
                    + "the --after of the next page."),
            .option(
                "after", valueName: "NUMBER",
                help: "A page: only the findings numbered after NUMBER (the previous page's next), by number; "
                    + "\(FindingPage.defaultLimit) of them unless --limit."),
            FindingsExport.option,
        ]
    )

    let request: FindingsRequest
    /// `--format csv|sarif`; nil for the text table.
    let export: FindingsExport?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        var request = FindingsRequest(
            project: parsed.value("project") ?? "",
            filters: FindingFilters(keywords: try FindingFilterOptions.keywords(parsed)))
        request.limit = try typedOption("limit", parsed)
        request.after = try typedOption("after", parsed)
        export = try FindingsExport(parsed)
        if request.isPaged, export != nil {
            throw UsageError(
                "--limit and --after list a page; an export holds every finding", commandPath: parsed.commandPath)
        }
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        if let export { return try export.run(request, context) }
        let reply = try context.send(request)
        let findings = reply.rows
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
        } else if findings.isEmpty {
            print("No findings.")
        } else {
            Self.table(findings)
            Self.printUnmappedReasons(findings)
        }
        if !context.isJSON, let next = reply.summary?.next {
            print("More follow: the next page is --after \(next).")
        }
    }

    /// Prints findings as the table of `barkeep findings`: with an UNMAPPED column when any is unmapped.
    static func table(_ findings: [FindingRecord]) {
        let isExplaining = findings.contains { $0.unmapped != nil }
        Output.table(
            ["#", "STATUS", "SEVERITY", "RULE", "SCREEN"] + (isExplaining ? ["UNMAPPED"] : [])
                + ["ASSIGNEE", "WHERE", "SNIPPET"],
            findings.map { finding in
                [String(finding.id), finding.statusText, finding.severity, finding.rule ?? "item", finding.screen]
                    + (isExplaining ? [unmappedCell(finding)] : []) + [
                        finding.assignee ?? "-", finding.place,
                        String((finding.snippet ?? finding.title ?? "").prefix(60)),
                    ]
            }
        )
    }

    /// Why a finding is unmapped, for the table: the reason, and the excluded path for `excluded`.
    static func unmappedCell(_ finding: FindingRecord) -> String {
        guard let reason = finding.unmapped else { return "" }
        return finding.excluded.map { "\(reason) (\($0))" } ?? reason
    }

    /// The last lines of a listing holding unmapped findings: how many of them for each reason (Core's
    /// UnmappedReason, in its order), what it means and what to do.
    static func printUnmappedReasons(_ findings: [FindingRecord]) {
        let reasons = findings.compactMap { $0.unmapped.flatMap(UnmappedReason.init(rawValue:)) }
        guard !reasons.isEmpty else { return }
        print("\nUnmapped: \(Output.count(reasons.count, "finding")) no screen counts.")
        for reason in UnmappedReason.allCases {
            let count = reasons.filter { $0 == reason }.count
            guard count > 0 else { continue }
            print("  \(count) \(reason.rawValue): \(reason.explanation); \(reason.remedy).")
        }
    }
}

/// `barkeep finding …`.
struct FindingGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "finding",
        abstract: "Show one finding with its history, triage findings, assign them, comment on them.",
        subcommands: [
            FindingShowCommand.self, FindingSetCommand.self, FindingAssignCommand.self, FindingCommentCommand.self,
        ]
    )
}

/// `barkeep finding show PROJECT N`: one finding and its history.
struct FindingShowCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a finding and its history.",
        arguments: NumberInProject.arguments("The finding's (or item's) number in the project, 12 or F-12.")
    )

    let request: FindingShowRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        request = FindingShowRequest(project: parsed.value("project") ?? "", number: try findingNumber(parsed))
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        let (finding, history) = (reply.head, reply.rows)
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
            return
        }
        Output.fields([
            ("Finding", String(finding.id)), ("Project", finding.project), ("Status", finding.statusText),
            ("Reason", finding.reason), ("Rule", finding.rule), ("Title", finding.title),
            ("Severity", finding.severity), ("Screen", finding.screen), ("Assignee", finding.assignee),
            ("Where", finding.file.map { "\($0):\(finding.line.map { String($0) } ?? "")" }),
            ("Step", finding.step.map { String($0) }), ("Snippet", finding.snippet), ("Message", finding.message),
            ("Needs", finding.needs?.joined(separator: " ")),
            ("Gate", finding.gate.map { "if #available(iOS \($0), *)" }),
            (
                "Runs",
                finding.source == "manual"
                    ? nil
                    : "first seen in \(finding.firstSeenRun.map { String($0) } ?? "-"), last in "
                        + "\(finding.lastSeenRun.map { String($0) } ?? "-")"
            ),
        ])
        guard !history.isEmpty else { return }
        print("")
        Output.table(
            ["SEQ", "AT", "CHANGE", "BY", "REASON"],
            history.map { event in
                [
                    String(event.seq), String(event.at.prefix(19)), Self.change(event, of: finding), event.actor,
                    event.reason ?? "",
                ]
            }
        )
    }

    /// What an event of a finding's history changed, for the table.
    static func change(_ event: EventFields, of finding: FindingRecord) -> String {
        switch EventKind(rawValue: event.kind) {
        case .findingNew: finding.source == "manual" ? "added (\(event.to ?? ""))" : "found"
        case .findingStatus: "\(event.from ?? "∅") → \(event.to ?? "∅")"
        case .findingChanged: "line edited: \(event.from ?? "") → \(event.to ?? "")"
        case .findingRenamed: "file renamed: \(event.from ?? "") → \(event.to ?? "")"
        case .findingPersisted: "verified, still reported"
        case .findingAssigned: "assigned \(event.from ?? Assignee.none) → \(event.to ?? Assignee.none)"
        case .findingComment: "comment"
        case .poseRecorded: "pose \(event.subject) \(event.to ?? "")"
        default: "\(event.kind) \(event.subject)"
        }
    }
}
