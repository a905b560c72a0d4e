import BarkeepAPI
import BarkeepProtocol
import Foundation

/// Follows a project's events through WATCH, across daemon restarts and broken connections: it reconnects and
/// resumes after the last event it handed on, so nothing is lost or repeated. `watch` prints the events; `status
/// --watch` redraws when they stop coming.
struct EventFollower {
    /// The WATCH to send: the project and the filters that choose the events (`kinds`, `screen`, `finding`), and
    /// `since` (nil: from now) for the first connection; later ones resume after the last event handed on.
    var request: WatchRequest
    /// How long without an event counts as quiet (then `onQuiet` runs); nil: never.
    var quiet: Duration?

    /// Follows until an error that reconnecting cannot mend (a first connection that fails, a deleted project, a
    /// revoked token). `onConnected` runs after each (re)connection, `onEvent` for each event, `onQuiet` after
    /// `quiet` without one.
    func run(
        _ context: CLIContext,
        onConnected: () throws -> Void = {},
        onEvent: (EventFields) throws -> Void,
        onQuiet: () throws -> Void = {}
    ) throws {
        var last = request.since?.value
        var hasConnected = false
        var delay = Duration.milliseconds(200)
        while true {
            let failure: CLIError
            do {
                try follow(context, last: &last, hasConnected: &hasConnected, onConnected, onEvent, onQuiet)
                return
            } catch let error as CLIError {
                failure = error
            }
            // The daemon restarted or the network broke: wait, then resume after the last event handed on.
            guard hasConnected, failure.isConnectionProblem else { throw failure }
            FileHandle.standardError.write(Data("barkeep: \(failure); retrying\n".utf8))
            Thread.sleep(forTimeInterval: delay.seconds)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// One connection's worth: WATCH, then events until the connection ends.
    private func follow(
        _ context: CLIContext,
        last: inout Int64?,
        hasConnected: inout Bool,
        _ onConnected: () throws -> Void,
        _ onEvent: (EventFields) throws -> Void,
        _ onQuiet: () throws -> Void
    ) throws {
        let client = try context.connect()
        var request = self.request
        // The filter is the daemon's: resuming after the last event handed on skips nothing it would pass.
        if let last { request.since = SequenceNumber(last) }
        let started: WatchReply
        do {
            started = try client.send(request)
        } catch {
            throw context.explained(error)
        }
        if last == nil { last = started.since }
        let version = client.greeting?.protocolVersion ?? ProtocolVersion.assumed
        if hasConnected { FileHandle.standardError.write(Data("barkeep: reconnected, resuming\n".utf8)) }
        hasConnected = true
        client.startStreaming()
        try onConnected()
        while true {
            let next: String?
            if let quiet {
                next = try client.nextLine(within: quiet)
            } else {
                next = try client.nextLine()
            }
            guard let line = next else {
                try onQuiet()
                continue
            }
            guard line.hasPrefix("*") else {
                // The server ends a stream early only with an error line: a watcher that fell behind resumes; a
                // deleted project or a revoked token ends the command.
                if case .error(let code, let message) = try? FinalLine(parsing: line) {
                    if code == .busy { throw CLIError.connectionLost(context.server, "\(message) (\(code.rawValue))") }
                    throw CLIError.server(code, message)
                }
                continue
            }
            let event: EventFields
            do {
                event = try EventFields(
                    record: try Record(parsing: line), version: version, context: WatchRequest.spec.name)
            } catch {
                throw CLIError.badReply(error.description)
            }
            last = Int64(event.seq)
            try onEvent(event)
        }
    }
}
