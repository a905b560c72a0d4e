import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol

/// `barkeep stats`: the daemon's counters.
struct StatsCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Show the daemon's connections, commands served, uptime, database pool and read replica."
    )

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        guard let stats = try context.send(StatsRequest()).rows.first else {
            throw CLIError.badReply("STATS returned no record")
        }
        if context.isJSON {
            try Output.json(stats.json)
            return
        }
        let uptime = stats.uptime
        Output.fields([
            ("Server", stats.server), ("Version", stats.version),
            ("Uptime", "\(uptime / 86_400)d \(uptime / 3600 % 24)h \(uptime / 60 % 60)m \(uptime % 60)s"),
            ("Connections", "\(stats.connections) open, \(stats.accepted) accepted"),
            ("Commands", String(stats.commands)), ("Watchers", String(stats.watchers)),
            ("HTTP", "\(stats.httpConnections) open, \(stats.pagesShared) overview parts shared"),
            (
                "Kept STATUS",
                "\(stats.statusKeptLoop) answered on the event loop, \(stats.statusKeptPool) through the pool; "
                    + "\(stats.statusLookups) lookups"
            ),
            // With a database: whether this daemon serves it alone (sole mode, docs/operations.md).
            ("Sole", stats.sole.map { $0 ? "yes, since \(stats.soleSince ?? "?")" : "no" }),
            (
                "Database pool",
                stats.poolSize.map {
                    "\($0) connections, \(stats.poolBusy ?? 0) busy, \(stats.poolQueued ?? 0) queued, "
                        + "\(stats.poolRejected ?? 0) refused"
                }
            ),
            // With a read replica (barkeepd --read-database-url): where reads go now, and where they went.
            (
                "Read replica",
                stats.replica.map {
                    "\($0), lag \(stats.replicaLagMilliseconds ?? 0) ms; \(stats.replicaReads ?? 0) reads on it, "
                        + "\(stats.primaryReads ?? 0) on the primary (\(stats.replicaFallbacks ?? 0) after trying it)"
                }
            ),
        ])
    }
}
