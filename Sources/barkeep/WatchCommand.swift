import BarkeepCore
import BarkeepProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `barkeep watch PROJECT`: prints the project's events as they happen, and resumes where it left off when the
/// daemon restarts or the connection breaks.
struct WatchCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "watch",
        abstract: "Print a project's events as they happen (Ctrl-C to stop).",
        discussion: """
            With --since SEQ, first prints the stored events after sequence number SEQ (0: the whole history).
            When the connection breaks it reconnects and resumes after the last event printed: nothing is lost or
            printed twice. With --json prints one JSON object per event.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("since", valueName: "SEQ", help: "Start after this event sequence number (default: now)."),
        ]
    )

    let project: String
    let since: Int64?

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
    }

    func run(_ context: CLIContext) throws {
        try EventFollower(project: project, since: since).run(context) { record in
            printEvent(record, context: context)
        }
    }

    private func printEvent(_ record: Record, context: CLIContext) {
        if context.isJSON {
            try? Output.json(record.json(integers: ["seq"]))
            return
        }
        var text = "\(Output.dim(record["seq"] ?? "?"))  \(record["at"]?.prefix(19) ?? "")  "
        text += "\(Output.bold(record["kind"] ?? "?"))  \(record["subject"] ?? "")"
        if record["from"] != nil || record["to"] != nil {
            text += "  \(record["from"] ?? "∅") → \(record["to"] ?? "∅")"
        }
        if let reason = record["reason"] { text += "  (\(reason))" }
        text += "  \(Output.dim("by " + (record["actor"] ?? "?")))"
        print(text)
        // Lines go out as they happen, even into a pipe.
        fflush(nil)
    }
}
