import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep ping`: checks that the daemon answers.
struct PingCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "ping",
        abstract: "Check that barkeepd answers; prints PONG.",
        discussion: "With --json prints {\"milliseconds\":N,\"reply\":\"PONG\",\"server\":ADDR}."
    )

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        let client = try context.connect()
        let started = ContinuousClock.now
        _ = try client.send(PingRequest())
        let elapsed = ContinuousClock.now - started
        let reply = Pong.word
        if context.isJSON {
            let milliseconds = elapsed.milliseconds
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
