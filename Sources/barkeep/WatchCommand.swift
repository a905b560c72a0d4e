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
        var last = since
        var hasConnected = false
        var delay = Duration.milliseconds(200)
        while true {
            let failure: CLIError
            do {
                try stream(context, last: &last, hasConnected: &hasConnected)
                return
            } catch {
                failure = error
            }
            // The daemon restarted or the network broke: wait, then resume after the last event printed. A first
            // connection that fails, or any other error, ends the command.
            guard hasConnected, failure.isConnectionProblem else { throw failure }
            FileHandle.standardError.write(Data("barkeep: \(failure); retrying\n".utf8))
            Thread.sleep(forTimeInterval: delay.seconds)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// One connection's worth of watching: WATCH, then print events until the connection ends.
    private func stream(_ context: CLIContext, last: inout Int64?, hasConnected: inout Bool) throws(CLIError) {
        let client = try context.connect()
        var request = Request(verb: "WATCH", arguments: [project])
        if let last { request.keywordList = [("since", String(last))] }
        let response: Response
        do {
            response = try client.send(request)
        } catch {
            throw context.explained(error)
        }
        if last == nil { last = response.fields["since"].flatMap { Int64($0) } }
        if hasConnected { FileHandle.standardError.write(Data("barkeep: reconnected, resuming\n".utf8)) }
        hasConnected = true
        client.startStreaming()
        while true {
            let line = try client.nextLine()
            guard line.hasPrefix("*") else {
                // The server ends a stream early only with an error line: a watcher that fell behind resumes; a
                // deleted project or a revoked token ends the command.
                if case .error(let code, let message) = try? FinalLine(parsing: line) {
                    if code == .busy { throw .connectionLost(context.server, "\(message) (\(code.rawValue))") }
                    throw .server(code, message)
                }
                continue
            }
            let record: Record
            do {
                record = try Record(parsing: line)
            } catch {
                throw .badReply(error.description)
            }
            if let seq = record["seq"].flatMap({ Int64($0) }) { last = seq }
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
