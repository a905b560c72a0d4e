import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep ping`: checks that the daemon answers.
struct PingCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "ping",
        abstract: "Check that barkeepd answers; prints PONG.",
        discussion: "With --json prints {\"reply\":\"PONG\",\"server\":ADDR,\"milliseconds\":N}."
    )

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        let client = try context.connect()
        let started = ContinuousClock.now
        let reply = try client.send(Request(verb: "PING"))
        let elapsed = ContinuousClock.now - started
        guard reply == "PONG" else { throw CLIError.badReply("PING answered '\(reply)'") }
        if context.isJSON {
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
            let object: [String: Any] = [
                "reply": reply, "server": context.server.description,
                "milliseconds": (milliseconds * 1000).rounded() / 1000,
            ]
            let data = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(reply)
        }
    }
}
