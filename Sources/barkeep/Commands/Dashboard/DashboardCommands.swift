import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import BarkeepReport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The time the dashboard and the report are drawn at: `BARKEEP_NOW` (an ISO 8601 time such as
/// `2026-11-29T12:00:00Z`) when set, for reproducible output, else the clock.
func drawingTime() throws(CLIError) -> Date {
    guard let text = ProcessInfo.processInfo.environment["BARKEEP_NOW"], !text.isEmpty else { return Date() }
    guard let date = ReportTime.parse(text) else {
        throw .badInput("BARKEEP_NOW must be a time such as 2026-11-29T12:00:00Z, not \(ValueExcerpt.quoted(text))")
    }
    return date
}

/// Reads a typed reply into the report module's views, or says the reply was not what this CLI understands.
func decoded<T>(_ decode: () throws(ReportError) -> T) throws(CLIError) -> T {
    do {
        return try decode()
    } catch {
        throw .badReply(error.description)
    }
}

/// The report's requests sent over the wire, each refusal explained as the CLI explains it.
struct WireReportSource: ReportSource {
    /// The connection.
    var client: Client
    /// The CLI's context, which words errors.
    var context: CLIContext

    func send<R: CommandRequest>(_ request: R) throws -> R.Reply {
        do {
            return try client.send(request)
        } catch {
            throw context.explained(error)
        }
    }
}

/// `--owner`, `--not-done`, `--sort` and `--limit`: which screen rows `status` and `screen list` show.
enum ScreenFilterOptions {
    /// The options' definitions.
    static let arguments: [ArgumentDefinition] = [
        .option(
            "owner", valueName: "NAME", help: "Only the screens NAME owns; '\(ScreenOwner.nobody)': those no one owns."),
        .flag("not-done", help: "Only the screens not done."),
        .option(
            "sort", valueName: "ORDER", default: "key",
            help: "key, work (most findings needing work first) or owner."),
        .option("limit", valueName: "N", help: "At most N rows, after the order."),
    ]

    /// What the options given choose (and `--kind`, where the command has it), checked.
    struct Chosen {
        /// `--owner`.
        var owner: String?
        /// `--not-done`.
        var isNotDoneOnly = false
        /// `--sort`.
        var sort: ScreenOrder?
        /// `--limit`.
        var limit: RowLimit?
        /// `--kind`.
        var kind: ScreenKind?
    }

    /// The options given, checked; the daemon refuses what only it can tell (a limit past its largest).
    static func chosen(_ parsed: ParsedCommand) throws(UsageError) -> Chosen {
        var chosen = Chosen()
        if let owner = parsed.value("owner") {
            guard !owner.isEmpty else { throw UsageError("--owner needs a name", commandPath: parsed.commandPath) }
            chosen.owner = owner
        }
        chosen.isNotDoneOnly = parsed.flag("not-done")
        if let sort = parsed.value("sort") {
            guard let order = ScreenOrder(rawValue: sort) else {
                throw UsageError(
                    "--sort must be key, work or owner, not \(ValueExcerpt.quoted(sort))",
                    commandPath: parsed.commandPath)
            }
            chosen.sort = order
        }
        if let limit = parsed.value("limit") {
            guard let number = Int(limit), number > 0 else {
                throw UsageError(
                    "--limit must be a positive number, not \(ValueExcerpt.quoted(limit))",
                    commandPath: parsed.commandPath)
            }
            chosen.limit = RowLimit(number)
        }
        if let kind = parsed.value("kind") {
            guard let screenKind = ScreenKind(rawValue: kind) else {
                throw UsageError(
                    "--kind must be screen, component or area, not \(ValueExcerpt.quoted(kind))",
                    commandPath: parsed.commandPath)
            }
            chosen.kind = screenKind
        }
        return chosen
    }
}

/// `barkeep status PROJECT`: the team's dashboard.
struct StatusCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show a project's dashboard: scans, totals, blocked items, poses, checklist, owners, every screen.",
        discussion: """
            One screen a lead reads in ten seconds: the SDK and deployment target, the last scan, findings by
            status, blocked items by SDK, pose coverage, checklist completion and screens done; a row per owner
            (screens, done, untriaged findings by severity, in progress, blocked); then a row per screen (title when
            the terminal has room, untriaged findings by severity, in progress, blocked, steps done, required poses
            settled (passed or not applicable) with the failing ones named, done) and one for unmapped findings. --owner, --not-done, --sort and
            --limit choose the screen rows; the totals stay the project's. On a terminal the table fits its width
            (COLUMNS, else the terminal's size); into a pipe nothing is cut. --watch redraws on every change of the
            project (through WATCH, no polling) and keeps going across daemon restarts; Ctrl-C stops it. With
            --json prints {project, last_scan, totals, blocked, owners, selection, screens, unmapped}, one object
            per redraw with --watch. BARKEEP_NOW sets the time ages are computed from.
            """,
        arguments: [.positional("project", help: "The project.")] + ScreenFilterOptions.arguments + [
            .flag("watch", help: "Redraw whenever the project changes.")
        ]
    )

    let project: String
    let isWatching: Bool
    let request: StatusRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        isWatching = parsed.flag("watch")
        let chosen = try ScreenFilterOptions.chosen(parsed)
        var request = StatusRequest(project: project)
        request.owner = chosen.owner
        request.isNotDoneOnly = chosen.isNotDoneOnly ? true : nil
        request.sort = chosen.sort
        request.limit = chosen.limit
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        guard isWatching else {
            try draw(try fetch(context), context: context, clearing: false)
            return
        }
        var isStale = false
        try EventFollower(request: WatchRequest(project: project), quiet: .milliseconds(250)).run(
            context,
            onConnected: { try draw(try fetch(context), context: context, clearing: true) },
            onEvent: { _ in isStale = true },
            onQuiet: {
                // A scan brings thousands of events at once: one redraw when they stop coming.
                guard isStale else { return }
                isStale = false
                try draw(try fetch(context), context: context, clearing: true)
            }
        )
    }

    /// The status's typed parts.
    private func fetch(_ context: CLIContext) throws(CLIError) -> StatusParts {
        try context.send(request).parts
    }

    private func draw(_ parts: StatusParts, context: CLIContext, clearing: Bool) throws {
        if context.isJSON {
            try Output.json(StatusReply(parts).jsonBody)
            return
        }
        let status = try decoded { () throws(ReportError) in try ProjectStatusReply(parts) }
        // On a terminal a redraw replaces the screen; into a pipe each drawing follows the last after a blank line.
        if clearing { print(isatty(STDOUT_FILENO) == 1 ? "\u{1B}[H\u{1B}[2J" : "\n", terminator: "") }
        print(
            StatusView.render(
                status, now: try drawingTime(), colored: Output.isColored, width: Output.terminalWidth),
            terminator: "")
        fflush(nil)
    }
}

/// `barkeep burndown PROJECT`: work left over time.
struct BurndownCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "burndown",
        abstract: "Chart the findings needing work and the blocked items over time, from the event history.",
        discussion: """
            --by run takes a point after each scan run (and `now` for the changes since the last one); --by day at
            the end of each day something changed, --by week at the end of each week (ISO, Monday to Sunday, UTC).
            What a scan run changed counts at its commit's time when it was ingested with --commit-time, else when it
            was ingested. --svg FILE also writes the chart as an SVG file. With --json prints an array of {label,
            at, needs_work, blocked}.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("by", valueName: "run|day|week", default: "run", help: "Where to take the points."),
            .option("svg", valueName: "FILE", help: "Also write the chart as SVG to FILE."),
            .option("width", valueName: "N", default: "72", help: "Chart width in columns."),
            .option("height", valueName: "N", default: "12", help: "Chart height in rows."),
        ]
    )

    let project: String
    let granularity: Burndown.Granularity
    let svg: String?
    let width: Int
    let height: Int

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        let by = parsed.valueOrDefault("by") ?? ""
        guard let granularity = Burndown.Granularity(rawValue: by) else {
            throw UsageError(
                "--by must be \(Burndown.Granularity.names), not \(ValueExcerpt.quoted(by))",
                commandPath: parsed.commandPath)
        }
        self.granularity = granularity
        svg = parsed.value("svg")
        guard let width = Int(parsed.valueOrDefault("width") ?? ""), (20...400).contains(width),
            let height = Int(parsed.valueOrDefault("height") ?? ""), (4...100).contains(height)
        else {
            throw UsageError("--width must be 20 to 400 and --height 4 to 100", commandPath: parsed.commandPath)
        }
        self.width = width
        self.height = height
    }

    func run(_ context: CLIContext) throws {
        let records = try context.send(BurndownRequest(project: project, granularity: granularity)).rows
        let points = records.map(\.point)
        if let svg {
            let document = BurndownChart.svg(points, title: "\(project): work left by \(granularity.rawValue)")
            do {
                try Data(document.utf8).write(to: URL(fileURLWithPath: svg))
            } catch {
                throw CLIError.badInput("cannot write \(svg): \(error.localizedDescription)")
            }
        }
        if context.isJSON {
            try Output.json(records.map(\.json))
        } else if points.isEmpty {
            print("No history yet: ingest a scan or add an item.")
        } else {
            print(BurndownChart.terminal(points, width: width, height: height), terminator: "")
            if let svg { print("Wrote \(svg).") }
        }
    }
}

/// `barkeep report PROJECT`: the readiness report, of the whole project or of a part (`--owner`, `--screens`).
struct ReportCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Write the readiness report (Markdown or one self-contained HTML file).",
        discussion: """
            The report's header names the toolchain (the project's SDK and deployment target), the last scan and the
            app's lifecycle; a summary follows (with the findings needing work per tier: 0 blockers, 1 correctness
            on the inner display, 2 bars, 3 richer adoption), then the verified findings a later scan still reports,
            then a recommendation per screen with work: its verdict first (findings to fix by checklist step, items
            blocked and the symbols they wait for, failed poses, poses not verified, checklist steps to do), every
            finding needing work of the screen and of the components it uses (by tier, then number; blocked ones
            name the SDK they wait for) and its failed poses with their screenshots; then the app area and the
            unmapped findings; a line per screen with nothing to fix that is not done (To verify) and per screen
            that is (Ready); what is verified, kept, declined or a false positive, and the poses not verified, a
            line per screen. Each item keeps its id (F-12) from one report to the next. --owner and --screens
            report a part: the screens of that owner, or whose key matches the
            glob (both: those that match both). The HTML holds the pose matrix and the burndown as inline SVG and
            loads nothing from the network. BARKEEP_NOW sets the time the report says it was generated at.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("format", valueName: "FORMAT", default: "markdown", help: "markdown or html."),
            .option("output", short: "o", valueName: "FILE", help: "Write to FILE instead of standard output."),
            .option(
                "owner", valueName: "NAME",
                help: "Report only the screens NAME owns; '\(ScreenOwner.nobody)': those no one owns."),
            .option("screens", valueName: "GLOB", help: "Report only the screens whose key matches GLOB (* and ?)."),
        ]
    )

    /// What the report is made of.
    static let requests: [String]? = ["STATUS", "FINDINGS", "POSES", "STEPS", "BURNDOWN", "SCREEN LIST"]

    let project: String
    let isHTML: Bool
    let output: String?
    let selection: ReportSelection

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        let format = parsed.valueOrDefault("format") ?? ""
        guard ["markdown", "html"].contains(format) else {
            throw UsageError(
                "--format must be markdown or html, not \(ValueExcerpt.quoted(format))", commandPath: parsed.commandPath
            )
        }
        isHTML = format == "html"
        output = parsed.value("output")
        let owner = parsed.value("owner")
        let glob = parsed.value("screens")
        for (name, value) in [("owner", owner), ("screens", glob)] where value?.isEmpty == true {
            throw UsageError("--\(name) must not be empty", commandPath: parsed.commandPath)
        }
        selection = ReportSelection(owner: owner, keyGlob: glob)
    }

    /// A report of `project` made without a command line (the MCP server's readiness_report).
    init(project: String, isHTML: Bool, selection: ReportSelection) {
        self.project = project
        self.isHTML = isHTML
        self.output = nil
        self.selection = selection
    }

    /// Reads what the report needs from the daemon and renders it.
    func document(_ context: CLIContext) throws -> String { try make(context).document }

    /// Reads what the report needs from the daemon and renders it; `chosen` counts the screens (and the app area)
    /// the owner and the glob choose, of which the selection's rows are a page. A page that holds them all is the
    /// report of them all; one past the last is refused.
    func make(_ context: CLIContext) throws -> (document: String, chosen: Int) {
        let source = WireReportSource(client: try context.connect(), context: context)
        let input: ReportInput
        do {
            input = try ReportInput.gathered(project: project, from: source, embeddingScreenshots: isHTML)
        } catch let error as CLIError {
            throw error
        } catch let error as ReportError {
            throw CLIError.badReply(error.description)
        }
        var selection = self.selection
        let rows = selection.rows
        selection.rows = nil
        let chosen = selection.screens(of: input.status).count
        if !selection.isWholeProject && chosen == 0 {
            throw CLIError.badInput("no screen of \(project) is \(selectionWords)")
        }
        if let rows, rows.lowerBound > 0 || rows.upperBound < chosen {
            guard rows.lowerBound < chosen else {
                throw CLIError.badInput("offset \(rows.lowerBound) is past the last of the \(chosen) screens chosen")
            }
            selection.rows = rows.lowerBound..<min(rows.upperBound, chosen)
        }
        let now = try drawingTime()
        let document =
            isHTML
            ? ReadinessReport.html(input, selection: selection, now: now)
            : ReadinessReport.markdown(input, selection: selection, now: now)
        return (document, chosen)
    }

    func run(_ context: CLIContext) throws {
        let document = try document(context)
        guard let output else {
            if context.isJSON {
                try Output.json(["format": isHTML ? "html" : "markdown", "report": document])
            } else {
                print(document, terminator: "")
            }
            return
        }
        do {
            try Data(document.utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            throw CLIError.badInput("cannot write \(output): \(error.localizedDescription)")
        }
        if context.isJSON {
            try Output.json(["output": output, "bytes": document.utf8.count] as [String: Any])
        } else {
            print("Wrote the readiness report of \(project) to \(output).")
        }
    }

    /// `owned by ana and matching Feed*`: the selection, for the error when no screen is in it.
    private var selectionWords: String {
        [selection.owner.map { "owned by \($0)" }, selection.keyGlob.map { "matching \($0)" }].compactMap { $0 }
            .joined(separator: " and ")
    }
}
