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

    /// The integer fields of a `source` record, for JSON.
    static let integers: Set<String> = [
        "id", "settle", "every", "timeout", "max-output", "last-scan-run", "failures",
    ]

    /// A `source` record as a JSON object: its numbers as numbers, `run_requested` as `true` when present.
    static func json(_ record: Record) -> [String: Any] {
        var object = record.json(integers: integers)
        if object["run_requested"] != nil { object["run_requested"] = true }
        return object
    }

    /// What the source reads, in a few words.
    static func target(_ record: Record) -> String {
        if let inbox = record["inbox"] { return "inbox \(inbox)" }
        return "repo \(record["repo"] ?? "") @\(record["branch"] ?? "")"
    }

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

    let project: String
    let keywords: [(key: String, value: String)]

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
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
        var keywords: [(key: String, value: String)] = []
        if let inbox { keywords.append(("inbox", Self.absolute(inbox))) }
        if let repo { keywords.append(("repo", Self.absolute(repo))) }
        for key in ["format", "settle", "scanner", "branch", "every", "timeout", "max-output"] {
            if let value = parsed.value(key) { keywords.append((key, value)) }
        }
        self.keywords = keywords
    }

    /// `path` made absolute from the current directory, `.` and `..` resolved.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    func run(_ context: CLIContext) throws {
        var request = Request(verb: "SOURCE", arguments: ["ADD", project])
        request.keywordList = keywords
        let response = try context.request(request)
        try context.printRecord(of: "source", in: response, json: SourceGroup.json) { record in
            "Added source \(record["id"] ?? "?") to \(record["project"] ?? project): \(SourceGroup.target(record)) "
                + "(\(record["format"] ?? "")). A daemon running sources takes it up at once."
        }
    }
}

struct SourceListCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the sources of a project, or of every project: last run, next run and holder.",
        arguments: [.positional("project", optional: true, help: "Only this project's sources.")]
    )

    let project: String?

    init(_ parsed: ParsedCommand) throws(UsageError) { project = parsed.value("project") }

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: "SOURCE", arguments: ["LIST"] + (project.map { [$0] } ?? [])))
        if context.isJSON {
            try Output.json(response.records.map(SourceGroup.json))
        } else if response.records.isEmpty {
            print("No sources. Add one with: barkeep source add PROJECT --inbox DIR, or --repo PATH --scanner CMD")
        } else {
            Output.table(
                ["ID", "PROJECT", "READS", "FORMAT", "STATE", "LAST RUN", "OUTCOME", "NEXT RUN", "HOLDER"],
                response.records.map { record in
                    [
                        record["id"] ?? "", record["project"] ?? "", SourceGroup.target(record), record["format"] ?? "",
                        record["state"] ?? "", SourceGroup.time(record["last-run"]) ?? "never",
                        record["last-outcome"] ?? "-",
                        record["kind"] == SourceKind.repo.rawValue
                            ? SourceGroup.time(record["next-run"]) ?? "-" : "on arrival",
                        record["holder"] ?? "none",
                    ]
                }
            )
        }
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
        let records = try context.request(Request(verb: "SOURCE", arguments: ["SHOW", id])).records
        guard let source = records.first else { throw CLIError.badReply("SOURCE SHOW returned nothing") }
        let history = records.dropFirst()
        if context.isJSON {
            var object = SourceGroup.json(source)
            object["history"] = history.map(WatchCommand.json)
            try Output.json(object)
            return
        }
        func seconds(_ key: String) -> String {
            source[key].flatMap(Int.init).map { QuantityText.describe(seconds: $0) } ?? "?"
        }
        let limits =
            source["kind"] == SourceKind.repo.rawValue
            ? "checks every \(seconds("every")), scanner killed after \(seconds("timeout")) or "
                + (source["max-output"].flatMap(Int.init).map { QuantityText.describe(bytes: $0) } ?? "?")
                + " of output"
            : "a file written in place settles after \(seconds("settle"))"
        Output.fields([
            ("Source", source["id"]), ("Project", source["project"]), ("Reads", SourceGroup.target(source)),
            ("Scanner", source["scanner"]), ("Format", source["format"]), ("Limits", limits),
            ("State", source["state"]),
            (
                "Holder",
                source["holder"].map { "\($0) until \(SourceGroup.time(source["lease-until"]) ?? "?")" } ?? "none"
            ),
            (
                "Last run",
                SourceGroup.time(source["last-run"]).map { "\($0), \(source["last-outcome"] ?? "")" } ?? "never"
            ),
            ("Last error", source["last-error"]), ("Last scan run", source["last-scan-run"]),
            ("Last commit", source["last-commit"]),
            ("Failures", source["failures"].flatMap { $0 == "0" ? nil : "\($0) in a row" }),
            ("Next run", source["kind"] == SourceKind.repo.rawValue ? SourceGroup.time(source["next-run"]) : nil),
            ("Run asked", source["run-requested"]),
            ("Added", SourceGroup.time(source["created"]).map { "\($0) by \(source["created-by"] ?? "?")" }),
        ])
        guard !history.isEmpty else { return }
        print("")
        Output.table(
            ["SEQ", "AT", "EVENT", "OUTCOME", "DETAIL"],
            history.map { event in
                [
                    event["seq"] ?? "", SourceGroup.time(event["at"]) ?? "",
                    (event["kind"] ?? "").replacingOccurrences(of: "source.", with: ""),
                    event["to"] ?? "", event["reason"] ?? event["from"] ?? "",
                ]
            }
        )
    }
}

/// `source pause|resume|run-now ID`: a leased action on a source.
protocol SourceActionCommand: LeasedActionCommand {}

extension SourceActionCommand {
    /// `SOURCE`.
    static var noun: String { "SOURCE" }

    /// A `source` record as a JSON object.
    static func json(_ record: Record) -> [String: Any] { SourceGroup.json(record) }
}

struct SourcePauseCommand: SourceActionCommand {
    static let configuration = action(
        "pause", "Stop a source's runs until resumed; a scan running is stopped (writer).")
    static let verb = "PAUSE"

    let id: String

    func sentence(_ source: Record) -> String { "Paused source \(source["id"] ?? id)." }
}

struct SourceResumeCommand: SourceActionCommand {
    static let configuration = action(
        "resume", "Start a paused source's runs again; it is due at once (writer).")
    static let verb = "RESUME"

    let id: String

    func sentence(_ source: Record) -> String { "Resumed source \(source["id"] ?? id)." }
}

struct SourceRunNowCommand: SourceActionCommand {
    static let configuration = action(
        "run-now",
        "Run a source as soon as its daemon can: scan the repository even if its head did not move, "
            + "or list the inbox again (writer).")
    static let verb = "RUN"

    let id: String

    func sentence(_ source: Record) -> String {
        "Asked for a run of source \(source["id"] ?? id); "
            + (source["holder"].map { "\($0) starts it now." }
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
        let response = try context.request(Request(verb: "SOURCE", arguments: ["REMOVE", id]))
        if context.isJSON {
            try Output.json(["removed": Int(response.fields["removed"] ?? id) ?? 0])
        } else {
            print("Removed source \(response.fields["removed"] ?? id).")
        }
    }
}
