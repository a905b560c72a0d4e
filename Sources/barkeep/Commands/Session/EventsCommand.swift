import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol

/// `barkeep events PROJECT [--after SEQ] [--limit N]`: one page of the project's event log, oldest first, and the
/// command that prints the next one.
struct EventsCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "events",
        abstract: "Print a page of a project's event log, oldest first.",
        discussion: """
            Prints the events after sequence number SEQ (default: from the first), at most N of them, each as
            barkeep watch prints it, then the command for the next page. With --json prints an object: rows (the
            events as barkeep watch --json prints them) and summary.next, the SEQ of the next page.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("after", valueName: "SEQ", help: "Only the events after this sequence number."),
            .option(
                "limit", valueName: "N", default: String(EventPage.defaultLimit),
                help: "At most N events (1 to \(EventPage.maximumLimit))."),
        ]
    )

    let request: EventsRequest

    init(_ parsed: ParsedCommand) throws(UsageError) {
        var request = EventsRequest(project: parsed.value("project") ?? "")
        request.after = try typedOption("after", parsed)
        request.limit = try typedOption("limit", parsed)
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(request)
        if context.isJSON {
            try Output.json(request.jsonBody(of: reply))
            return
        }
        let after = request.after?.value ?? 0
        guard !reply.rows.isEmpty else {
            print("No events after \(after).")
            return
        }
        for event in reply.rows {
            print(
                event.line(clean: Output.plain) { text, part in
                    part == .kind ? Output.bold(text) : Output.dim(text)
                })
        }
        let next = reply.summary?.next ?? Int(after)
        print("Next page: barkeep events \(request.project) --after \(next)")
    }
}
