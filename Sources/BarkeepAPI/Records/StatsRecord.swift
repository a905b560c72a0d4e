import BarkeepProtocol

/// STATS's record: one daemon's counters since it started.
public struct StatsRecord: WireFields {
    /// The daemon's id.
    public var server = ""
    /// Its version.
    public var version = ""
    /// Seconds since it started.
    public var uptime = 0
    /// Connections open now.
    public var connections = 0
    /// Connections accepted since it started.
    public var accepted = 0
    /// Commands answered.
    public var commands = 0
    /// Connections watching events.
    public var watchers = 0
    /// HTTP connections open now (the web pages and the JSON API).
    public var httpConnections = 0
    /// Overview parts served from a rendering kept for the project's status version, rather than rendered again.
    public var pagesShared = 0
    /// Kept STATUS replies answered on the event loop.
    public var statusKeptLoop = 0
    /// Kept STATUS replies that needed the pool.
    public var statusKeptPool = 0
    /// Status-version lookups the event loop sent to the database (each checks every STATUS waiting then).
    public var statusLookups = 0
    /// Whether the daemon serves its database alone (sole mode: STATUS checks kept until something changes them);
    /// nil without a database.
    public var sole: Bool?
    /// Since when it does.
    public var soleSince: String?
    /// The database pool's connections; nil without a pool.
    public var poolSize: Int?
    /// Those busy.
    public var poolBusy: Int?
    /// Jobs waiting for one.
    public var poolQueued: Int?
    /// Jobs refused (BUSY).
    public var poolRejected: Int?
    /// Where reads go, with a read replica (`--read-database-url`): serving, lagging or down; nil without one.
    public var replica: String?
    /// The replica's lag when last measured, in milliseconds.
    public var replicaLagMilliseconds: Int?
    /// Reads the replica served.
    public var replicaReads: Int?
    /// Reads the primary served while a replica was configured (lagging, down, or not caught up with the client).
    public var primaryReads: Int?
    /// Of those, reads sent to the replica that went to the primary after all.
    public var replicaFallbacks: Int?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "stats"

    /// The fields, in wire order.
    public static let fields: [Field<StatsRecord>] = [
        Field("server", \.server, "The daemon's id."),
        Field("version", \.version, "Its version."),
        Field("uptime", \.uptime, "Seconds since it started."),
        Field("connections", \.connections, "Connections open now."),
        Field("accepted", \.accepted, "Connections accepted since it started."),
        Field("commands", \.commands, "Commands answered."),
        Field("watchers", \.watchers, "Connections watching events."),
        Field("http-connections", \.httpConnections, "HTTP connections open now."),
        Field("pages-shared", \.pagesShared, "Overview parts served from a kept rendering."),
        Field("status-kept-loop", \.statusKeptLoop, "Kept STATUS replies answered on the event loop."),
        Field("status-kept-pool", \.statusKeptPool, "Kept STATUS replies that needed the database pool."),
        Field("status-lookups", \.statusLookups, "Status-version lookups the event loop sent to the database."),
        Field("sole", \.sole, "Whether the daemon serves its database alone (sole mode)."),
        Field("sole-since", \.soleSince, "Since when it does."),
        Field("pool-size", \.poolSize, "The database pool's connections."),
        Field("pool-busy", \.poolBusy, "Those busy."),
        Field("pool-queued", \.poolQueued, "Jobs waiting for one."),
        Field("pool-rejected", \.poolRejected, "Jobs refused (BUSY)."),
        Field("replica", \.replica, "With a read replica: where reads go (serving, lagging, down)."),
        Field("replica-lag-ms", \.replicaLagMilliseconds, "The replica's lag when last measured, in milliseconds."),
        Field("replica-reads", \.replicaReads, "Reads the replica served."),
        Field("primary-reads", \.primaryReads, "Reads the primary served instead (lagging, down, not caught up)."),
        Field("replica-fallbacks", \.replicaFallbacks, "Reads sent to the replica that the primary served after all."),
    ]
}
