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
    /// The WATCH keys that choose the events.
    let filter: [(String, String)]

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
        var filter: [(String, String)] = []
        let kinds = parsed.values("kind")
        if !kinds.isEmpty {
            let parsedKinds: [EventKind]
            do throws(CoreError) {
                parsedKinds = try EventKind.kinds(parsing: kinds.joined(separator: ","))
            } catch {
                throw UsageError(error.description, commandPath: parsed.commandPath)
            }
            filter.append(("kinds", parsedKinds.map(\.rawValue).joined(separator: ",")))
        }
        if let screen = parsed.value("screen") { filter.append(("screen", screen)) }
        if let finding = parsed.value("finding") { filter.append(("finding", finding)) }
        self.filter = filter
    }

    func run(_ context: CLIContext) throws {
        try EventFollower(project: project, since: since, filter: filter).run(context) { record in
            printEvent(record, context: context)
        }
    }

    /// An event record as a JSON object, as `watch --json` prints it and the histories of `finding show`, `screen
    /// show` and `source show` hold it (EventRecord, shared with the daemon's webhooks).
    static func json(_ record: Record) -> [String: Any] { EventRecord.json(record) }

    private func printEvent(_ record: Record, context: CLIContext) {
        if context.isJSON {
            if let line = try? EventRecord.jsonText(record) { print(line) }
        } else {
            print(
                EventRecord.line(record.plain) { text, part in
                    part == .kind ? Output.bold(text) : Output.dim(text)
                })
        }
        // Lines go out as they happen, even into a pipe.
        fflush(nil)
    }
}
