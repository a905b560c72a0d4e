import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol

/// `barkeep stats`: the daemon's counters.
struct StatsCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Show the daemon's connections, commands served, uptime and database pool."
    )

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: "STATS"))
        guard let record = response.records.first else { throw CLIError.badReply("STATS returned no record") }
        if context.isJSON {
            try Output.json(
                record.json(integers: [
                    "uptime", "connections", "accepted", "commands", "watchers", "status-kept-loop",
                    "status-kept-pool", "pool-size", "pool-busy", "pool-queued", "pool-rejected",
                ])
            )
            return
        }
        let uptime = Int(record["uptime"] ?? "") ?? 0
        Output.fields([
            ("Server", record["server"]), ("Version", record["version"]),
            ("Uptime", "\(uptime / 86_400)d \(uptime / 3600 % 24)h \(uptime / 60 % 60)m \(uptime % 60)s"),
            ("Connections", record["connections"].map { "\($0) open, \(record["accepted"] ?? "?") accepted" }),
            ("Commands", record["commands"]), ("Watchers", record["watchers"]),
            (
                "Kept STATUS",
                record["status-kept-loop"].map {
                    "\($0) answered on the event loop, \(record["status-kept-pool"] ?? "?") through the pool"
                }
            ),
            (
                "Database pool",
                record["pool-size"].map {
                    "\($0) connections, \(record["pool-busy"] ?? "?") busy, \(record["pool-queued"] ?? "?") queued, "
                        + "\(record["pool-rejected"] ?? "?") refused"
                }
            ),
        ])
    }
}
