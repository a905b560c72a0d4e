import CLibpq

/// Where and how to connect to PostgreSQL.
public struct PostgresConfiguration: Sendable, Equatable {
    /// A libpq connection URL (`postgresql://user@host/db`) or key/value conninfo (`host=/tmp dbname=barkeep`).
    public var conninfo: String
    /// When set, overrides the database named in `conninfo`.
    public var database: String?
    /// Reported in `pg_stat_activity` unless `conninfo` names one (after it, `/instance` when set).
    public var applicationName: String
    /// The daemon the connection is of (a short random tag per process), appended to `applicationName` as
    /// `/instance`: a daemon tells its own backends from any other's (`Presence`). Kept by `with(applicationName:)`.
    public var instance: String?
    /// Seconds to wait for a connection before giving up.
    public var connectTimeoutSeconds: Int
    /// Seconds after which a TCP connection whose server went silent (a cut network, a failover) is given up: the
    /// kernel's keepalive probes and `tcp_user_timeout` follow from it. Ignored on Unix sockets, which close at once.
    public var lossTimeoutSeconds = 60
    /// When set, every session of the connection (a reopened one too) waits at most this many milliseconds for a
    /// lock (`lock_timeout`), then fails with SQLSTATE 55P03.
    public var lockTimeoutMilliseconds: Int?

    /// Creates a configuration.
    public init(
        conninfo: String,
        database: String? = nil,
        applicationName: String = PostgresConfiguration.daemonApplicationPrefix,
        connectTimeoutSeconds: Int = 10
    ) {
        self.conninfo = conninfo
        self.database = database
        self.applicationName = applicationName
        self.connectTimeoutSeconds = connectTimeoutSeconds
    }

    /// Checks that `conninfo` is a URL or key/value string libpq can read, before any connection is tried. The
    /// error never repeats the text, which may hold a password.
    public func validate() throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &message) else {
            if let message { PQfreemem(message) }
            throw .invalid(
                "not a valid PostgreSQL URL or conninfo string (its text is not repeated: it may hold a password)")
        }
        PQconninfoFree(options)
    }

    /// The same server, under another application name (as `pg_stat_activity` shows it).
    public func with(applicationName: String) -> PostgresConfiguration {
        var copy = self
        copy.applicationName = applicationName
        return copy
    }

    /// The same server, another database.
    public func with(database: String) -> PostgresConfiguration {
        var copy = self
        copy.database = database
        return copy
    }

    /// The prefix of every daemon connection's application name (the default `applicationName`).
    public static let daemonApplicationPrefix = "barkeepd"

    /// What a daemon's connection of its own is for, named in its application name (`daemonApplicationName`); the
    /// pool's connections have none (`daemonApplicationPrefix` alone).
    public enum DaemonRole: String, Sendable, CaseIterable {
        /// The presence lock's connection (`Presence`).
        case presence
        /// The event loop's status version lookups.
        case status
        /// The sources' scheduler.
        case sources
        /// The hooks' delivery thread.
        case hooks
        /// The event dispatcher of WATCH and the web pages' live updates.
        case watch
        /// The embedded cluster's check for daemons still connected before it stops.
        case clusterCheck = "cluster-check"
    }

    /// The application name of a daemon's connection for `role`: `barkeepd-presence`, `barkeepd-status`, ….
    public static func daemonApplicationName(_ role: DaemonRole) -> String {
        daemonApplicationPrefix + "-" + role.rawValue
    }

    /// What a connection of `instance` ends its application name with (`reportedApplicationName`).
    public static func instanceSuffix(_ instance: String) -> String { "/" + instance }

    /// The application name `pg_stat_activity` shows: `applicationName`, then `instance`'s suffix when set.
    public var reportedApplicationName: String {
        instance.map { applicationName + Self.instanceSuffix($0) } ?? applicationName
    }

    /// libpq keyword/value pairs: the first `dbname` is expanded as a full connection string, and every later
    /// keyword overrides what it said.
    var keywordValues: [(String, String)] {
        var pairs: [(String, String)] = [
            ("dbname", conninfo),
            ("fallback_application_name", reportedApplicationName),
            ("client_encoding", "UTF8"),
            ("connect_timeout", String(connectTimeoutSeconds)),
            // A server that vanishes without closing the connection (a failover, a cut network) is noticed within
            // `lossTimeoutSeconds` (a minute by default) instead of the kernel's fifteen. Ignored on Unix sockets.
            ("keepalives", "1"),
            ("keepalives_idle", String(max(1, lossTimeoutSeconds / 2))),
            ("keepalives_interval", String(max(1, lossTimeoutSeconds / 6))),
            ("keepalives_count", "3"),
            ("tcp_user_timeout", String(max(1, lossTimeoutSeconds) * 1000)),
        ]
        if let database { pairs.append(("dbname", database)) }
        return pairs
    }
}
