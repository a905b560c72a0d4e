import BarkeepCore
import BarkeepProtocol

/// What a server listens on and its limits.
public struct ServerConfiguration: Sendable {
    /// TCP and Unix socket addresses to listen on.
    public var addresses: [ServerAddress]
    /// The longest request line accepted, in bytes.
    public var maximumLineLength: Int
    /// The largest upload accepted, in bytes.
    public var maximumPayload: Int
    /// The largest screenshot accepted (`SCREENSHOT PUT`), in bytes (`--max-screenshot`): checked against the size
    /// the request announces, before any byte of it is read. It counts against `maximumPayloadTotal` as any upload.
    public var maximumScreenshot = ScreenshotLimit.defaultBytes
    /// The most upload bytes all connections together may hold, from the upload's announcement until its command
    /// finished; an upload that would pass it is refused `BUSY` and its bytes read and skipped.
    public var maximumPayloadTotal: Int
    /// How long an upload may go without a byte before it is refused (`BADARG`) and its connection closed.
    public var uploadTimeout: Duration
    /// Replies a client has not read yet, in bytes, past which the server stops reading its requests until it
    /// catches up.
    public var maximumPendingOutput: Int
    /// Events a watcher has not read yet, in bytes, past which it is disconnected.
    public var maximumWatcherBacklog: Int
    /// How long the read of a streamed reply (`FINDINGS`) keeps its database connection, and the cursor on it, while
    /// its client reads nothing; it lets go sooner once other work waits for a connection. The reply goes on from
    /// where it stopped, in a new read, when the client reads again.
    public var streamHold: Duration = .seconds(5)
    /// Clients served at once, TCP and Unix socket together: past it a new connection is answered `ERR BUSY` and
    /// closed. The daemon's owner on a Unix socket (`isOwner(uid:)`) may use `ownerReserve` connections beyond it,
    /// so that however many connections others hold, the owner can always get in.
    public var maximumConnections: Int
    /// The uid whose Unix socket peers are admins without a token (the daemon's own).
    public var ownerUID: UInt32
    /// This daemon's identity in HELLO and STATS.
    public var serverID: String
    /// With a certificate, every TCP listener requires TLS; Unix sockets stay plain text. Nil: plain text
    /// everywhere.
    public var tls: TLSConfiguration?
    /// Called (on the event dispatcher's thread) when an event says a source was added, paused, resumed, removed or
    /// asked to run, through this daemon or another on the database, so that this daemon's sync sources take it up
    /// at once rather than at their next lease renewal.
    public var sourcesChanged: (@Sendable () -> Void)?
    /// The webhooks' deliverer this daemon runs, if any: the event dispatcher wakes it when events arrive, and
    /// `HOOK TEST` uses its timeout.
    public var hooks: HookDeliverer?
    /// The HTTP listener's address (docs/design/web-dashboard.md, section 1), TLS when `tls` is set; nil: no HTTP.
    public var httpAddress: ServerAddress?
    /// The web dashboard's address as people reach it (`--public-url`: `https://barkeep.example.com`, no trailing
    /// `/`), for the links the daemon hands out; nil: the HTTP listener's own address.
    public var publicURL: String?
    /// HTTP clients served at once, a budget apart from `maximumConnections` so that an HTTP flood never takes the
    /// line protocol's slots: past it a new connection is answered `503` with `Retry-After: 1` and closed.
    public var maximumHTTPConnections = 512
    /// How long a kept-alive HTTP connection may wait for its next request before it is closed without a word.
    public var httpIdleTimeout = Duration.seconds(HTTPLimit.idleSeconds)
    /// How long a web session lasts from sign-in; using it does not extend it.
    public var sessionLifetime = Duration.seconds(SessionLimit.defaultLifetimeSeconds)
    /// How long `Server.start` waits for its presence on the database (a daemon serving it alone lets others in
    /// within a second; the rest is reaching the database).
    public var presenceTimeout = Duration.seconds(30)
    /// Directories no inbox may be or be inside, besides the system's (InboxLocation): the data directory, which
    /// holds the database cluster.
    public var protectedDirectories: [String] = []

    /// Creates a configuration; `maximumPayloadTotal` defaults to four times `maximumPayload`.
    public init(
        addresses: [ServerAddress],
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength,
        maximumPayload: Int = UploadLimit.defaultBytes,
        maximumPayloadTotal: Int? = nil,
        uploadTimeout: Duration = .seconds(60),
        maximumPendingOutput: Int = 1 << 20,
        maximumWatcherBacklog: Int = 4 << 20,
        maximumConnections: Int = 1024,
        ownerUID: UInt32,
        serverID: String = "barkeepd",
        tls: TLSConfiguration? = nil,
        sourcesChanged: (@Sendable () -> Void)? = nil
    ) {
        self.addresses = addresses
        self.maximumLineLength = maximumLineLength
        self.maximumPayload = maximumPayload
        self.maximumPayloadTotal = maximumPayloadTotal ?? 4 * maximumPayload
        self.uploadTimeout = uploadTimeout
        self.maximumPendingOutput = maximumPendingOutput
        self.maximumWatcherBacklog = maximumWatcherBacklog
        self.maximumConnections = maximumConnections
        self.ownerUID = ownerUID
        self.serverID = serverID
        self.tls = tls
        self.sourcesChanged = sourcesChanged
    }

    /// Whether a Unix socket peer of `uid` owns the daemon: its own user, or root (who may do anything to it
    /// anyway). The owner is admin without a token and alone may use `ownerReserve`.
    public func isOwner(uid: UInt32) -> Bool { uid == ownerUID || uid == 0 }

    /// Connections the daemon's owner may open on a Unix socket beyond `maximumConnections`; no one else may use
    /// them.
    public static let ownerReserve = 16

    /// The most HTTP connections a daemon serves by default, however many line connections it may hold.
    public static let maximumHTTPConnectionsCap = 4096

    /// The default HTTP connection limit beside a line connection limit of `maximumConnections`: half of it, at
    /// most `maximumHTTPConnectionsCap`, at least 1.
    public static func defaultMaximumHTTPConnections(maximumConnections: Int) -> Int {
        max(1, min(maximumHTTPConnectionsCap, maximumConnections / 2))
    }

    /// Descriptors a daemon keeps out of the connection limit by default, besides one per database connection: the
    /// owner's reserve (16), and 112 for the rest — listeners, the epoll and wakeup descriptors, the log, the
    /// data directory lock, the metrics endpoint, the event dispatcher's database connection, the cluster
    /// supervisor's reads of postmaster.pid and its pg_ctl pipes, and the sources' inotify, directories, files and
    /// scanner pipes.
    public static let descriptorReserve = 128

    /// The default connection limit for a process allowed `fileLimit` descriptors with `poolSize` database
    /// connections: `fileLimit - poolSize - descriptorReserve`, at least 1.
    public static func defaultMaximumConnections(fileLimit: Int, poolSize: Int) -> Int {
        max(1, fileLimit - poolSize - descriptorReserve)
    }

    /// Commands that may wait for a database connection: one per connection the server may hold, so that a client
    /// within the connection limit waits for its turn instead of being answered `BUSY`.
    public var databaseQueueLimit: Int { maximumConnections + Self.ownerReserve }
}
