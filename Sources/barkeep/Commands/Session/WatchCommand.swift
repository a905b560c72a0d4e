import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep watch PROJECT`: prints the project's events as they happen, and resumes where it left off when the
/// daemon restarts or the connection breaks. `--kind`, `--screen` and `--finding` choose which events; the daemon
/// filters them.
struct WatchCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "watch",
        abstract: "Print a project's events as they happen (Ctrl-C to stop).",
        discussion: """
            With --since SEQ, first prints the stored events after sequence number SEQ (0: the whole history).
            When the connection breaks it reconnects and resumes after the last event printed: nothing is lost or
            printed twice. --kind, --screen and --finding print only the events of those kinds, of that screen
            (or counting for it) and of that finding. With --json prints one JSON object per event.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("since", valueName: "SEQ", help: "Start after this event sequence number (default: now)."),
            .option(
                "kind", valueName: "KINDS", repeatable: true,
                help: "Only events of these kinds, comma-separated (finding.status,finding.new)."),
            .option(
                "screen", valueName: "KEY",
                help: "Only events about this screen, component, app or unmapped, or counting for it."),
            .option("finding", valueName: "N", help: "Only the events of the finding or item numbered N."),
        ]
    )

    let project: String
    let since: Int64?
    /// The kinds chosen; nil: every kind.
    let kinds: [EventKind]?
    /// The screen and the finding chosen, as given (checked as the daemon checks them, before anything is sent).
    let screen: String?
    let finding: String?

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        if let text = parsed.value("since") {
            guard let value = Int64(text), value >= 0 else {
                throw UsageError("--since must be a sequence number (0 or more)", commandPath: parsed.commandPath)
            }
            since = value
        } else {
            since = nil
        }
        let kinds = parsed.values("kind")
        if kinds.isEmpty {
            self.kinds = nil
        } else {
            do throws(CoreError) {
                self.kinds = try EventKind.kinds(parsing: kinds.joined(separator: ","))
            } catch {
                throw UsageError(error.description, commandPath: parsed.commandPath)
            }
        }
        screen = parsed.value("screen")
        finding = parsed.value("finding")
    }

    func run(_ context: CLIContext) throws {
        var request = WatchRequest(project: project)
        request.since = since.map(SequenceNumber.init)
        request.kinds = kinds.map(EventKindList.init)
        request.screen = try screen.map { text throws(CLIError) in try wireValue(text, key: "screen") }
        request.finding = try finding.map { text throws(CLIError) in try wireValue(text, key: "finding") }
        try EventFollower(request: request).run(context) { event in
            printEvent(event, context: context)
        }
    }

    private func printEvent(_ event: EventFields, context: CLIContext) {
        if context.isJSON {
            if let line = try? event.jsonText() { print(line) }
        } else {
            print(
                event.line(clean: Output.plain) { text, part in
                    part == .kind ? Output.bold(text) : Output.dim(text)
                })
        }
        // Lines go out as they happen, even into a pipe.
        fflush(nil)
    }
}
