import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import BarkeepServer
import BarkeepStore
import Foundation

/// barkeepd's command line, as a parsable command.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "barkeepd",
        abstract: "Barkeep's daemon: keeps the iPhone Duo bars audit in PostgreSQL and serves the line protocol.",
        discussion: """
            Without --database-url, barkeepd creates (on first start) and runs a private PostgreSQL cluster in
            DATA_DIR/pg, reachable only through a Unix socket, and stops it when it stops. SIGTERM, SIGINT or SIGHUP
            stop the daemon gracefully. Logs are logfmt lines on standard error; a line with msg=ready says it serves.
            """,
        arguments: [
            .option(
                "data-dir", valueName: "DIR", default: ServerAddress.defaultDataDirectory,
                help: "Where the daemon keeps its files."),
            .option(
                "database-url",
                valueName: "URL",
                environment: "BARKEEP_DATABASE_URL",
                help: "Use this PostgreSQL server (libpq URL or conninfo) instead of the embedded one."
            ),
            .option(
                "read-database-url",
                valueName: "URL",
                environment: "BARKEEP_READ_DATABASE_URL",
                help: "Send read-only commands and HTTP GETs to this PostgreSQL streaming replica of the database "
                    + "(libpq URL or conninfo), with as many connections as --pool-size; writes stay on the primary."
            ),
            .option(
                "max-replica-lag",
                valueName: "DURATION",
                default: DurationText.describe(ReplicaLimit.defaultMaximumLag),
                help: "Read the primary while the replica is further behind than this (500ms, 5s)."
            ),
            .option(
                "replica-wait",
                valueName: "DURATION",
                default: DurationText.describe(ReplicaLimit.defaultCatchUpWait),
                help: "How long a client's read after its own write waits for the replica to replay it before it "
                    + "reads the primary."
            ),
            .option(
                "listen", valueName: "HOST:PORT", default: ServerAddress.defaultTCP.description,
                help: "TCP address to serve."),
            .option(
                "http", valueName: "HOST:PORT", default: ServerAddress.defaultHTTP.description,
                help: "HTTP address to serve (the web dashboard and the JSON API); TLS too with --tls-cert."),
            .flag("no-http", help: "Serve no HTTP."),
            .option(
                "public-url", valueName: "URL",
                help: "The web dashboard's address as people reach it (behind a proxy), for the links the daemon "
                    + "hands out (barkeep check's Markdown); default: the HTTP listener's address."),
            .option(
                "http-max-connections",
                valueName: "N",
                help:
                    "HTTP clients served at once, apart from --max-connections; past it 503 "
                    + "(default: half of --max-connections, at most \(ServerConfiguration.maximumHTTPConnectionsCap))."
            ),
            .option(
                "http-idle-timeout",
                valueName: "SECONDS",
                default: String(HTTPLimit.idleSeconds),
                help: "How long a kept-alive HTTP connection may wait for its next request."
            ),
            .option(
                "session-lifetime",
                valueName: "SECONDS",
                default: String(SessionLimit.defaultLifetimeSeconds),
                help: "How long a web sign-in lasts, from sign-in (using it does not extend it)."
            ),
            .option(
                "socket", valueName: "PATH",
                help: "Unix socket to serve (default \(ServerAddress.socketPath(in: "DATA_DIR")))."),
            .option("log-level", valueName: "LEVEL", default: "info", help: "debug, info, warning or error."),
            .option(
                "pg-bin", valueName: "DIR", help: "Directory of initdb, pg_ctl and postgres for the embedded database."),
            .option("pool-size", valueName: "N", default: "4", help: "Database connections."),
            .option(
                "database-wait",
                valueName: "SECONDS",
                default: "30",
                help: "How long to retry an unreachable database at start."
            ),
            .option(
                "max-connections",
                valueName: "N",
                help:
                    "Clients served at once, besides \(ServerConfiguration.ownerReserve) more for the owner on the Unix "
                    + "socket; past it ERR BUSY "
                    + "(default: the descriptor limit less pool size less 128)."
            ),
            .option("max-line", valueName: "BYTES", default: "65536", help: "Longest request line accepted."),
            .option(
                "max-upload", valueName: "BYTES", default: String(UploadLimit.defaultBytes),
                help: "Largest upload accepted (\(QuantityText.describe(bytes: UploadLimit.defaultBytes)))."),
            .option(
                "max-screenshot", valueName: "BYTES", default: String(ScreenshotLimit.defaultBytes),
                help:
                    "Largest screenshot accepted (SCREENSHOT PUT; "
                    + "\(QuantityText.describe(bytes: ScreenshotLimit.defaultBytes)))."),
            .option(
                "max-upload-total",
                valueName: "BYTES",
                help: "Upload bytes all connections may hold at once; past it BUSY (default 4 x --max-upload)."
            ),
            .option(
                "upload-timeout",
                valueName: "SECONDS",
                default: "60",
                help: "How long an upload may send nothing before it is refused and closed."
            ),
            .option(
                "metrics-listen",
                valueName: "HOST:PORT",
                help: "Serve Prometheus metrics over HTTP at this address (default: off)."
            ),
            .option(
                "tls-cert",
                valueName: "FILE",
                help: "Require TLS on TCP with this certificate chain (PEM) and --tls-key; the Unix socket stays plain."
            ),
            .option("tls-key", valueName: "FILE", help: "The private key (PEM) of --tls-cert."),
            .flag("no-sources", help: "Run no sync sources (docs/sources.md); other daemons of the database still do."),
            .option(
                "source-lease",
                valueName: "SECONDS",
                default: "30",
                help: "How long a source stays with this daemon unrenewed, so another takes it over."
            ),
            .option(
                "source-rescan",
                valueName: "SECONDS",
                default: "60",
                help: "How often each inbox is listed whole besides inotify."
            ),
            .flag("no-hooks", help: "Deliver no webhooks (docs/hooks.md); other daemons of the database still do."),
            .option(
                "hook-timeout",
                valueName: "SECONDS",
                default: String(HookDeliverer.defaultTimeout.components.seconds),
                help: "How long one webhook delivery may take, connect to answer."
            ),
            .option(
                "hook-max-backoff",
                valueName: "SECONDS",
                default: String(HookRetry.standard.maximumDelay.components.seconds),
                help: "The longest wait before a failed webhook delivery is retried."
            ),
            .option(
                "hook-max-failures",
                valueName: "N",
                default: String(HookRetry.standard.maximumFailures),
                help: "Failed deliveries in a row after which a webhook is paused."
            ),
            .option(
                "scanner-user",
                valueName: "USER",
                default: "nobody",
                help: "Run as root, run repository scanners as this user; ignored otherwise."
            ),
            .flag(
                "verify-summaries",
                help:
                    "Compare every project's dashboard summary with a recomputation, print the differences and exit "
                    + "(0: equal, 1: different, 2: failed); serves nothing."
            ),
            .flag(
                "repair-summaries",
                help: "With --verify-summaries: replace each differing project's summary with the recomputation."
            ),
            .flag("version", help: "Print the version and exit."),
        ]
    )
}

/// The daemon's settings, validated.
struct DaemonOptions {
    var dataDirectory: String
    var databaseURL: String?
    /// The streaming replica read-only commands read from (--read-database-url); nil: none.
    var readDatabaseURL: String?
    /// The most lag at which reads still go to the replica (--max-replica-lag).
    var maximumReplicaLag: Duration
    /// How long a read after the client's own write waits for the replica (--replica-wait).
    var replicaWait: Duration
    var listen: ServerAddress
    var socketPath: String
    /// The HTTP listener (--http); nil: --no-http.
    var http: ServerAddress?
    /// --http-max-connections; nil: from the connection limit (`ServerConfiguration.defaultMaximumHTTPConnections`).
    var maximumHTTPConnections: Int?
    /// How long a kept-alive HTTP connection may wait for its next request (--http-idle-timeout).
    var httpIdleTimeout: Duration
    /// The web dashboard's address as people reach it (--public-url), without a trailing `/`; nil: not given.
    var publicURL: String?
    /// How long a web session lasts from sign-in (--session-lifetime).
    var sessionLifetime: Duration
    var logLevel: LogLevel
    var pgBin: String?
    var poolSize: Int
    var databaseWait: Duration
    var maximumLineLength: Int
    var maximumUpload: Int
    /// --max-connections; nil: from the descriptor limit (`ServerConfiguration.defaultMaximumConnections`).
    var maximumConnections: Int?
    /// The largest screenshot accepted (--max-screenshot).
    var maximumScreenshot: Int
    /// Upload bytes all connections may hold at once (--max-upload-total).
    var maximumUploadTotal: Int
    /// How long an upload may send nothing (--upload-timeout).
    var uploadTimeout: Duration
    var metricsListen: ServerAddress?
    /// TLS for the TCP listener (--tls-cert, --tls-key); nil: plain text.
    var tls: TLSConfiguration?
    /// Whether this daemon runs sync sources (--no-sources: not).
    var runsSources: Bool
    /// How long a source's lease lasts unrenewed.
    var sourceLease: Duration
    /// How often each inbox is listed whole.
    var sourceRescan: Duration
    /// Whether this daemon delivers webhooks (--no-hooks: not).
    var runsHooks: Bool
    /// How long one webhook delivery may take (--hook-timeout).
    var hookTimeout: Duration
    /// When failed webhook deliveries are retried and hooks paused (--hook-max-backoff, --hook-max-failures).
    var hookRetry: HookRetry
    /// The user a root daemon runs repository scanners as (--scanner-user, `nobody` by default).
    var scannerUser: String
    /// --verify-summaries: check the dashboard's summaries and exit instead of serving.
    var verifiesSummaries: Bool
    /// --repair-summaries: with --verify-summaries, repair the summaries that differ.
    var repairsSummaries: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message, commandPath: "barkeepd") }
        /// The option `name` as a whole number within `range` (`unit`: "seconds", "bytes" or none), or `value`.
        func number(
            _ name: String,
            _ range: ClosedRange<Int>,
            default value: Int = 0,
            of unit: String? = nil
        ) throws(UsageError) -> Int {
            // A default the configuration declares is read and checked like a value given.
            guard let text = parsed.valueOrDefault(name) else { return value }
            guard let number = Int(text), range.contains(number) else {
                let kind = unit.map { "a number of \($0)" } ?? "a number"
                throw fail("--\(name) must be \(kind) from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        let directory = parsed.valueOrDefault("data-dir") ?? ""
        guard !directory.isEmpty else { throw fail("--data-dir must not be empty") }
        dataDirectory = URL(fileURLWithPath: directory).standardizedFileURL.path
        /// The option `name` (read from `variable` too) as a database URL that libpq can parse, or nil.
        func checkedURL(_ name: String, variable: String) throws(UsageError) -> String? {
            guard let url = parsed.value(name) else { return nil }
            do {
                try PostgresConfiguration(conninfo: url).validate()
            } catch {
                throw fail("--\(name) (or \(variable)): \(error)")
            }
            return url
        }
        databaseURL = try checkedURL("database-url", variable: "BARKEEP_DATABASE_URL")
        readDatabaseURL = try checkedURL("read-database-url", variable: "BARKEEP_READ_DATABASE_URL")
        /// The option `name` as a duration whose milliseconds lie within `range`.
        func duration(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Duration {
            let text = parsed.valueOrDefault(name) ?? ""
            guard let value = DurationText.parse(text), range.contains(Int(value.milliseconds)) else {
                throw fail(
                    "--\(name) must be a duration from \(range.lowerBound)ms to \(range.upperBound / 1000)s "
                        + "(500ms, 5s), not \(ValueExcerpt.quoted(text))")
            }
            return value
        }
        maximumReplicaLag = try duration("max-replica-lag", ReplicaLimit.maximumLagMilliseconds)
        replicaWait = try duration("replica-wait", ReplicaLimit.catchUpWaitMilliseconds)
        if let text = parsed.value("listen") {
            do {
                listen = try ServerAddress(parsing: text)
            } catch {
                throw fail("--listen: \(error)")
            }
            if case .unix = listen { throw fail("--listen takes HOST:PORT; use --socket for a Unix socket") }
        } else {
            listen = .defaultTCP
        }
        if parsed.flag("no-http") {
            if parsed.value("http") != nil { throw fail("--http and --no-http contradict each other; give one") }
            http = nil
        } else {
            let text = parsed.valueOrDefault("http") ?? ServerAddress.defaultHTTP.description
            do {
                http = try ServerAddress(parsing: text)
            } catch {
                throw fail("--http: \(error)")
            }
            if case .unix = http { throw fail("--http takes HOST:PORT") }
        }
        maximumHTTPConnections =
            parsed.value("http-max-connections") == nil
            ? nil : try number("http-max-connections", 1...1_000_000, default: 0)
        httpIdleTimeout = .seconds(try number("http-idle-timeout", 1...3600, of: "seconds"))
        if let text = parsed.value("public-url") {
            let isHTTP = text.hasPrefix("http://") || text.hasPrefix("https://")
            let host = text.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
            guard isHTTP, !host.isEmpty, !text.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" }) else {
                throw fail(
                    "--public-url must be an http:// or https:// URL without a query, not \(ValueExcerpt.quoted(text))")
            }
            publicURL = text.hasSuffix("/") ? String(text.dropLast()) : text
        } else {
            publicURL = nil
        }
        sessionLifetime = .seconds(try number("session-lifetime", SessionLimit.lifetimeSeconds, of: "seconds"))
        socketPath =
            parsed.value("socket").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            ?? ServerAddress.socketPath(in: dataDirectory)
        guard socketPath.utf8.count <= ServerAddress.maximumSocketPathLength else {
            throw fail("the socket path \(socketPath) is too long (at most 107 bytes); choose one with --socket")
        }
        if let text = parsed.value("log-level") {
            guard let level = LogLevel(name: text) else {
                throw fail("--log-level must be debug, info, warning or error, not \(ValueExcerpt.quoted(text))")
            }
            logLevel = level
        } else {
            logLevel = .info
        }
        pgBin = parsed.value("pg-bin")
        poolSize = try number("pool-size", 1...256)
        databaseWait = .seconds(try number("database-wait", 0...3600, of: "seconds"))
        maximumUpload = try number("max-upload", 1024...(1 << 32), of: "bytes")
        maximumUploadTotal = try number(
            "max-upload-total", maximumUpload...(1 << 40), default: 4 * maximumUpload, of: "bytes")
        maximumScreenshot = try number("max-screenshot", 1024...(1 << 30), of: "bytes")
        uploadTimeout = .seconds(try number("upload-timeout", 1...3600, of: "seconds"))
        maximumConnections =
            parsed.value("max-connections") == nil ? nil : try number("max-connections", 1...1_000_000, default: 0)
        maximumLineLength = try number("max-line", 1024...(16 << 20), of: "bytes")
        if let text = parsed.value("metrics-listen") {
            do {
                metricsListen = try ServerAddress(parsing: text)
            } catch {
                throw fail("--metrics-listen: \(error)")
            }
            if case .unix = metricsListen { throw fail("--metrics-listen takes HOST:PORT") }
        } else {
            metricsListen = nil
        }
        tls = try Self.tlsConfiguration(parsed, fail: fail)
        runsSources = !parsed.flag("no-sources")
        verifiesSummaries = parsed.flag("verify-summaries")
        repairsSummaries = parsed.flag("repair-summaries")
        if repairsSummaries && !verifiesSummaries { throw fail("--repair-summaries needs --verify-summaries") }
        sourceLease = .seconds(try number("source-lease", 3...3600, of: "seconds"))
        sourceRescan = .seconds(try number("source-rescan", 1...86_400, of: "seconds"))
        runsHooks = !parsed.flag("no-hooks")
        hookTimeout = .seconds(try number("hook-timeout", 1...120, of: "seconds"))
        hookRetry = HookRetry(
            baseDelay: HookRetry.standard.baseDelay,
            maximumDelay: .seconds(try number("hook-max-backoff", 1...3600, of: "seconds")),
            maximumFailures: try number("hook-max-failures", 1...1000)
        )
        scannerUser = parsed.valueOrDefault("scanner-user") ?? ""
        if scannerUser.isEmpty { throw fail("--scanner-user takes a user name") }
    }

    /// --tls-cert and --tls-key, both or neither, loaded once here so that an unreadable file or a key that does
    /// not match its certificate stops the daemon before anything starts.
    private static func tlsConfiguration(
        _ parsed: ParsedCommand,
        fail: (String) -> UsageError
    ) throws(UsageError) -> TLSConfiguration? {
        let certificate = parsed.value("tls-cert")
        let key = parsed.value("tls-key")
        guard let certificate, let key else {
            if certificate != nil { throw fail("--tls-cert needs --tls-key (the certificate's private key)") }
            if key != nil { throw fail("--tls-key needs --tls-cert (the certificate)") }
            return nil
        }
        let configuration = TLSConfiguration(
            certificateFile: URL(fileURLWithPath: certificate).standardizedFileURL.path,
            keyFile: URL(fileURLWithPath: key).standardizedFileURL.path
        )
        do {
            try configuration.validate()
        } catch {
            if case .tls(let reason) = error { throw fail("--tls-cert/--tls-key: \(reason)") }
            throw fail("--tls-cert/--tls-key: \(error)")
        }
        return configuration
    }
}
