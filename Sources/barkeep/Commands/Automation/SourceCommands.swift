import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep source …`: the drop folders and repositories the daemons pull scans from by themselves.
struct SourceGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "source",
        abstract: "Sync sources: drop folders and repositories the daemons ingest scans from by themselves.",
        discussion:
            "docs/sources.md tells how each kind works, when a dropped file counts as complete, and the limits.",
        subcommands: [
            SourceAddCommand.self, SourceListCommand.self, SourceShowCommand.self, SourcePauseCommand.self,
            SourceResumeCommand.self, SourceRunNowCommand.self, SourceRemoveCommand.self,
        ]
    )

    /// `2026-12-01 10:04:05` from a record's time.
    static func time(_ text: String?) -> String? { text.map { String($0.prefix(19)) } }
}

struct SourceAddCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a drop folder (--inbox) or a repository (--repo) to a project (admin).",
        discussion: """
            Paths are on the daemon's host; a relative one is made absolute from the current directory. Durations are
            seconds or a number with s, m, h or d (90, 10m); sizes are bytes or a number with KiB, MiB or GiB.
            """,
        arguments: [
            .positional("project", help: "The project the scans are ingested into."),
            .option("inbox", valueName: "DIR", help: "Watch this folder and ingest every complete file dropped in it."),
            .option("repo", valueName: "PATH", help: "Scan each new head of a branch of this git repository."),
            .option("format", valueName: "FORMAT", default: "duo-scan", help: "duo-scan, sarif or sdk-check."),
            .option(
                "settle", valueName: "DURATION", default: "5s",
                help: "Inbox: how long a file written in place must stay unchanged."),
            .option(
                "scanner", valueName: "COMMAND",
                help: "Repo: the shell command printing the scan; {root} is the checkout (required)."),
            .option("branch", valueName: "NAME", default: "main", help: "Repo: the branch followed."),
            .option(
                "every", valueName: "DURATION", default: "10m", help: "Repo: how often the branch head is checked."),
            .option("timeout", valueName: "DURATION", default: "10m", help: "Repo: the scanner's time limit."),
            .option(
                "max-output", valueName: "SIZE", default: "64MiB", help: "Repo: the most output a scanner may write."),
        ]
    )

    let request: SourceAddRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let inbox = parsed.value("inbox")
        let repo = parsed.value("repo")
        guard (inbox == nil) != (repo == nil) else {
            throw UsageError("give exactly one of --inbox DIR or --repo PATH", commandPath: parsed.commandPath)
        }
        let repoOnly = ["scanner", "branch", "every", "timeout", "max-output"]
        if inbox != nil, let key = repoOnly.first(where: { parsed.value($0) != nil }) {
            throw UsageError("--\(key) is for a --repo source", commandPath: parsed.commandPath)
        }
        if repo != nil {
            if parsed.value("settle") != nil {
                throw UsageError("--settle is for an --inbox source", commandPath: parsed.commandPath)
            }
            guard parsed.value("scanner") != nil else {
                throw UsageError(
                    "--repo needs --scanner 'COMMAND {root}' (the command that prints the scan)",
                    commandPath: parsed.commandPath)
            }
        }
        var request = SourceAddRequest(project: parsed.value("project") ?? "")
        request.inbox = inbox.map(Self.absolute)
        request.repo = repo.map(Self.absolute)
        request.format = parsed.value("format")
        request.settle = parsed.value("settle")
        request.scanner = parsed.value("scanner")
        request.branch = parsed.value("branch")
        request.every = parsed.value("every")
        request.timeout = parsed.value("timeout")
        request.maximumOutput = parsed.value("max-output")
        self.request = request
    }

    /// `path` made absolute from the current directory, `.` and `..` resolved.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    func run(_ context: CLIContext) throws {
        let source = try context.send(request).rows.first
        try context.printRecord(source, of: SourceNoun.noun) { source in
            "Added source \(source.id) to \(source.project): \(source.target) (\(source.format)). "
                + "A daemon running sources takes it up at once."
        }
    }
}

struct SourceListCommand: LeasedListCommand {
    typealias Noun = SourceNoun

    static let configuration = listing(
        "List the sources of a project, or of every project: last run, next run and holder.")
    static let columns = ["ID", "PROJECT", "READS", "FORMAT", "STATE", "LAST RUN", "OUTCOME", "NEXT RUN", "HOLDER"]
    static let emptyMessage =
        "No sources. Add one with: barkeep source add PROJECT --inbox DIR, or --repo PATH --scanner CMD"

    let project: String?

    init(project: String?) { self.project = project }

    static func row(_ source: SourceRecord) -> [String] {
        [
            String(source.id), source.project, source.target, source.format, source.state.rawValue,
            SourceGroup.time(source.lastRun) ?? "never", source.lastOutcome?.rawValue ?? "-",
            source.kind == .repo ? SourceGroup.time(source.nextRun) ?? "-" : "on arrival", source.holder ?? "none",
        ]
    }
}

struct SourceShowCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a source: its settings, last run and error, next run, holder and its latest runs.",
        arguments: [.positional("id", help: "The source's id.")]
    )

    let id: String

    init(_ parsed: ParsedCommand) throws(UsageError) { id = parsed.value("id") ?? "" }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(SourceShowRequest(id: try LeasedID.given(id)))
        let source = reply.head
        let history = reply.rows
        if context.isJSON {
            var object = source.listJSON
            object["history"] = history.map(\.json)
            try Output.json(object)
            return
        }
        func seconds(_ value: Int?) -> String { value.map { QuantityText.describe(seconds: $0) } ?? "?" }
        let limits =
            source.kind == .repo
            ? "checks every \(seconds(source.every)), scanner killed after \(seconds(source.timeout)) or "
                + (source.maximumOutput.map { QuantityText.describe(bytes: $0) } ?? "?") + " of output"
            : "a file written in place settles after \(seconds(source.settle))"
        Output.fields([
            ("Source", String(source.id)), ("Project", source.project), ("Reads", source.target),
            ("Scanner", source.scanner), ("Format", source.format), ("Limits", limits),
            ("State", source.state.rawValue),
            ("Holder", source.holder.map { "\($0) until \(SourceGroup.time(source.leaseUntil) ?? "?")" } ?? "none"),
            (
                "Last run",
                SourceGroup.time(source.lastRun).map { "\($0), \(source.lastOutcome?.rawValue ?? "")" } ?? "never"
            ),
            ("Last error", source.lastError), ("Last scan run", source.lastScanRun.map(String.init)),
            ("Last commit", source.lastCommit),
            ("Failures", source.failures.flatMap { $0 == 0 ? nil : "\($0) in a row" }),
            ("Next run", source.kind == .repo ? SourceGroup.time(source.nextRun) : nil),
            ("Run asked", source.isRunRequested?.wire),
            ("Added", SourceGroup.time(source.created).map { "\($0) by \(source.createdBy)" }),
        ])
        guard !history.isEmpty else { return }
        print("")
        Output.table(
            ["SEQ", "AT", "EVENT", "OUTCOME", "DETAIL"],
            history.map { event in
                [
                    String(event.seq), SourceGroup.time(event.at) ?? "",
                    event.kind.replacingOccurrences(of: "source.", with: ""), event.to ?? "",
                    event.reason ?? event.from ?? "",
                ]
            }
        )
    }
}

struct SourcePauseCommand: LeasedActionCommand {
    typealias Request = SourcePauseRequest
    static let configuration = action(
        "pause", "Stop a source's runs until resumed; a scan running is stopped (writer).")

    let id: String

    func sentence(_ source: SourceRecord) -> String { "Paused source \(source.id)." }
}

struct SourceResumeCommand: LeasedActionCommand {
    typealias Request = SourceResumeRequest
    static let configuration = action(
        "resume", "Start a paused source's runs again; it is due at once (writer).")

    let id: String

    func sentence(_ source: SourceRecord) -> String { "Resumed source \(source.id)." }
}

struct SourceRunNowCommand: LeasedActionCommand {
    typealias Request = SourceRunRequest
    static let configuration = action(
        "run-now",
        "Run a source as soon as its daemon can: scan the repository even if its head did not move, "
            + "or list the inbox again (writer).")

    let id: String

    func sentence(_ source: SourceRecord) -> String {
        "Asked for a run of source \(source.id); "
            + (source.holder.map { "\($0) starts it now." }
                ?? "no daemon holds it now: it runs once one takes it up.")
    }
}

struct SourceRemoveCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "remove", abstract: "Delete a source; the runs it ingested and its history stay (admin).",
        arguments: [.positional("id", help: "The source's id.")])

    let id: String

    init(_ parsed: ParsedCommand) throws(UsageError) { id = parsed.value("id") ?? "" }

    func run(_ context: CLIContext) throws {
        let removed = try context.send(SourceRemoveRequest(id: try LeasedID.given(id))).summary
        if context.isJSON {
            try Output.json(removed.json)
        } else {
            print("Removed source \(removed.removed).")
        }
    }
}
