import BarkeepCore
import BarkeepProtocol
import BarkeepServer
import BarkeepSources
import BarkeepStore
import CBarkeepSystem
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's life: start every component in order, serve until SIGTERM or SIGINT, then stop them in reverse
/// order. Whatever was started before a failure is stopped again, so a failed start leaves no process behind.
final class Daemon {
    private let options: DaemonOptions
    private let logger: Logger
    private let stopRequest = StopRequest()
    private var signalSources: [any DispatchSourceSignal] = []

    // Started components, stopped in reverse order.
    private var lock: DataDirectoryLock?
    private var cluster: PostgresCluster?
    private var supervisor: ClusterSupervisor?
    private var metrics: MetricsEndpoint?
    private var pool: PostgresPool?
    private var replica: ReadReplica?
    private var server: Server?
    private var sources: SourceRunner?
    private var hooks: HookDeliverer?
    private var presence: Presence?

    init(options: DaemonOptions, logger: Logger) {
        self.options = options
        self.logger = logger
    }

    /// Runs until a stop signal; returns the process exit code.
    func run() -> Int32 {
        if options.verifiesSummaries { return verifySummaries() }
        installSignalHandlers()
        do {
            try start()
        } catch {
            logger.error("start failed: \(error)")
            stop()
            return 1
        }
        let number = stopRequest.wait()
        let name = number == SIGINT ? "SIGINT" : number == SIGHUP ? "SIGHUP" : "SIGTERM"
        logger.info("stopping", ["signal": name])
        stop()
        logger.info("stopped")
        return 0
    }

    // MARK: - Start

    private func start() throws {
        // One descriptor per client: take all the kernel allows this process.
        let limit = barkeep_raise_file_limit()
        logger.debug("file descriptor limit", ["limit": String(limit)])
        try makeDataDirectory()
        lock = try DataDirectoryLock(directory: options.dataDirectory, logger: logger)
        try checkStop()

        // Every connection of this daemon says which daemon it is of (`PostgresConfiguration.instance`): a daemon
        // going sole waits until no other daemon's backend is left (`Presence`).
        let instance = Self.makeInstance()
        var configuration = try databaseConfiguration()
        configuration.instance = instance
        try checkStop()

        let version = try migrate(configuration)
        try checkStop()

        let maximumConnections =
            options.maximumConnections
            ?? ServerConfiguration.defaultMaximumConnections(
                fileLimit: limit > 0 ? limit : 1024,
                // A read replica has a pool as large, and its monitor two connections (the primary's and its own).
                poolSize: options.readDatabaseURL == nil ? options.poolSize : 2 * options.poolSize + 2)
        var serverConfiguration = ServerConfiguration(
            addresses: [options.listen, .unix(path: options.socketPath)],
            maximumLineLength: options.maximumLineLength,
            maximumPayload: options.maximumUpload,
            maximumPayloadTotal: options.maximumUploadTotal,
            uploadTimeout: options.uploadTimeout,
            maximumConnections: maximumConnections,
            ownerUID: geteuid(),
            serverID: Self.makeServerID(instance: instance),
            tls: options.tls
        )
        serverConfiguration.maximumScreenshot = options.maximumScreenshot
        serverConfiguration.httpAddress = options.http
        serverConfiguration.maximumHTTPConnections =
            options.maximumHTTPConnections
            ?? ServerConfiguration.defaultMaximumHTTPConnections(maximumConnections: maximumConnections)
        serverConfiguration.httpIdleTimeout = options.httpIdleTimeout
        serverConfiguration.publicURL = options.publicURL
        serverConfiguration.sessionLifetime = options.sessionLifetime
        // One command in flight per connection: every connection the server may hold can wait for the database.
        let pool = PostgresPool(
            configuration: configuration, size: options.poolSize, queueLimit: serverConfiguration.databaseQueueLimit)
        self.pool = pool
        let replica = try readReplica(
            primary: configuration, queueLimit: serverConfiguration.databaseQueueLimit)
        self.replica = replica

        // The daemon's presence on the database, held by the server from its start; the sources' ingests are
        // writes of this daemon too.
        let presence = Presence(configuration: configuration, logger: logger)
        self.presence = presence
        serverConfiguration.presenceTimeout = max(options.databaseWait, serverConfiguration.presenceTimeout)
        // The sources' runner exists before the server, whose SOURCE commands wake it; it starts after.
        let serverID = serverConfiguration.serverID
        var runner: SourceRunner?
        if options.runsSources {
            // Root runs scanners as an unprivileged user: the data directory must then let it reach its worktree.
            var scannerUser: ScannerUser?
            if geteuid() == 0 {
                guard let user = ScannerUser.named(options.scannerUser) else {
                    throw DaemonError.startup("--scanner-user \(options.scannerUser): no such user")
                }
                scannerUser = user
                chmod(options.dataDirectory, 0o711)
            }
            var sourceConfiguration = SourceRunner.Configuration(
                holder: serverID,
                database: configuration,
                lease: options.sourceLease,
                rescan: options.sourceRescan,
                workDirectory: options.dataDirectory + "/sources",
                maximumUpload: options.maximumUpload,
                environment: ProcessInfo.processInfo.environment,
                scannerUser: scannerUser,
                protectedDirectories: [options.dataDirectory],
                refusal: SourceRefusal.message(for:)
            )
            sourceConfiguration.presence = presence
            runner = try SourceRunner(configuration: sourceConfiguration, logger: logger.with(["component": "sources"]))
        }
        var sourcesChanged: (@Sendable () -> Void)?
        if let runner { sourcesChanged = { runner.sourcesChanged() } }
        var withSources = serverConfiguration
        withSources.sourcesChanged = sourcesChanged
        withSources.protectedDirectories = [options.dataDirectory]
        var deliverer: HookDeliverer?
        if options.runsHooks {
            deliverer = HookDeliverer(
                configuration: HookDeliverer.Configuration(
                    holder: serverID, database: configuration, lease: options.sourceLease, retry: options.hookRetry,
                    timeout: options.hookTimeout),
                logger: logger.with(["component": "hooks"])
            )
        }
        withSources.hooks = deliverer
        let server = try Server(
            configuration: withSources,
            commands: .standard,
            pool: pool,
            replica: replica,
            presence: presence,
            logger: logger
        )
        let bound = try server.start()
        self.server = server
        if let runner {
            runner.start()
            sources = runner
        }
        if let deliverer {
            deliverer.start()
            hooks = deliverer
        }
        if let cluster {
            let supervisor = ClusterSupervisor(cluster: cluster, logger: logger)
            supervisor.start()
            self.supervisor = supervisor
        }
        var fields: [(String, String)] = []
        for address in bound {
            switch address {
            case .tcp: fields.append(("tcp", address.description))
            case .unix(let path): fields.append(("socket", path))
            }
        }
        if let http = server.httpAddress {
            fields.append(("http", http.description))
            fields.append(("http_tls", options.tls == nil ? "no" : "yes"))
        }
        if case .tcp(let host, let port) = options.metricsListen {
            let metrics = try MetricsEndpoint(host: host, port: port, server: server, logger: logger)
            metrics.start()
            self.metrics = metrics
            fields.append(("metrics", metrics.boundAddress))
        }
        fields.append(("max_connections", String(maximumConnections)))
        fields.append(("database", cluster == nil ? "external" : "embedded"))
        if replica != nil { fields.append(("read_replica", "yes")) }
        fields.append(("schema", String(version)))
        fields.append(("version", BarkeepVersion.current))
        logger.log(.info, "ready", fieldList: fields)
    }

    /// A random tag of this process: its connections' `instance`, the start of its server id.
    private static func makeInstance() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16)
        return String(repeating: "0", count: 8 - random.count) + random
    }

    /// A new identity at every start: random (`instance`), with the host name so an operator knows where it runs.
    private static func makeServerID(instance: String) -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
        return instance + "@" + host
    }

    private func makeDataDirectory() throws {
        // As root the directory must stay traversable: the embedded server runs as postgres and lives inside it.
        let mode: Int = geteuid() == 0 ? 0o711 : 0o700
        do {
            try FileManager.default.createDirectory(
                atPath: options.dataDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: mode]
            )
        } catch {
            throw DaemonError.startup(
                "cannot create data directory \(options.dataDirectory): \(error.localizedDescription)")
        }
    }

    private func databaseConfiguration() throws -> PostgresConfiguration {
        if let url = options.databaseURL {
            return PostgresConfiguration(conninfo: url)
        }
        let binaries = try PostgresBinaries.locate(explicitDirectory: options.pgBin)
        let cluster = try PostgresCluster(
            binaries: binaries,
            options: .init(dataDirectory: options.dataDirectory + "/" + DataDirectory.clusterDirectoryName),
            logger: logger.with(["component": "postgres"])
        )
        try cluster.initializeIfNeeded()
        // Owned before it starts: if the start fails part-way (a timeout in crash recovery), stop() still stops it.
        self.cluster = cluster
        try cluster.start()
        try cluster.createDatabaseIfNeeded("barkeep")
        return cluster.configuration(database: "barkeep")
    }

    /// The read replica of --read-database-url, checked and started: it must answer, and be a standby
    /// (`pg_is_in_recovery()`), since reads from a server that is not replaying the primary's log would miss what was
    /// written there. Nil without the option.
    private func readReplica(primary: PostgresConfiguration, queueLimit: Int) throws -> ReadReplica? {
        guard let url = options.readDatabaseURL else { return nil }
        var configuration = PostgresConfiguration(conninfo: url)
        // This daemon's too, should the "replica" be the primary itself (`Presence`).
        configuration.instance = primary.instance
        let isStandby: Bool
        do {
            isStandby = try ReadReplica.isStandby(configuration)
        } catch {
            throw DaemonError.startup("--read-database-url: cannot reach the read replica: \(error)")
        }
        guard isStandby else {
            throw DaemonError.startup(
                "--read-database-url: that server is not a standby (pg_is_in_recovery() is false); give a streaming "
                    + "replica of the database, or leave the option out")
        }
        let replica = ReadReplica(
            configuration: configuration, primary: primary, size: options.poolSize, queueLimit: queueLimit,
            settings: ReadReplica.Settings(maximumLag: options.maximumReplicaLag, catchUpWait: options.replicaWait),
            logger: logger.with(["component": "replica"]))
        replica.start()
        logger.info(
            "reads go to the read replica",
            [
                "max_lag": DurationText.describe(options.maximumReplicaLag),
                "wait": DurationText.describe(options.replicaWait),
            ])
        return replica
    }

    /// Applies pending migrations. An external server may still be starting (a fresh container, a failover), so
    /// connecting is retried for a while before giving up.
    private func migrate(_ configuration: PostgresConfiguration) throws -> Int {
        let deadline = ContinuousClock.now + options.databaseWait
        var delay = Duration.milliseconds(250)
        while true {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                defer { connection.close() }
                let migrator = Migrator()
                try migrator.migrate(connection, logger: logger.with(["component": "migrator"]))
                return migrator.latestVersion
            } catch StoreError.connectionFailed(let message)
                where ContinuousClock.now < deadline && !StoreError.isPermanentConnectionFailure(message)
            {
                logger.warning("database not reachable yet, retrying", ["error": message])
                try checkStop()
                Thread.sleep(forTimeInterval: delay.seconds)
                delay = min(delay * 2, .seconds(4))
            }
        }
    }

    // MARK: - Verify

    /// `--verify-summaries`: compares every project's stored dashboard summary with a recomputation, prints each
    /// difference (and repairs with `--repair-summaries`); 0 when all agreed, 1 otherwise. Beside a running daemon
    /// (`--database-url`, or the embedded cluster of a data directory a daemon holds) it looks at the live database
    /// as it is; otherwise it starts the embedded cluster and migrates first, and stops it after.
    private func verifySummaries() -> Int32 {
        do {
            defer { stop() }
            let configuration: PostgresConfiguration
            if options.databaseURL == nil {
                try makeDataDirectory()
                lock = try DataDirectoryLock.takeIfFree(options.dataDirectory)
            }
            if options.databaseURL == nil && lock == nil {
                // The daemon holding the directory runs its cluster: connect to it where that daemon does.
                let cluster = try PostgresCluster(
                    binaries: try PostgresBinaries.locate(explicitDirectory: options.pgBin),
                    options: .init(dataDirectory: options.dataDirectory + "/" + DataDirectory.clusterDirectoryName))
                configuration = cluster.configuration(database: "barkeep")
            } else {
                configuration = try databaseConfiguration()
                _ = try migrate(configuration)
            }
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            // A repair writes beside the running daemons: present like one, so none keeps STATUS checks made
            // before it (a daemon serving the database alone leaves sole mode first).
            let presence = Presence(configuration: configuration, logger: logger)
            defer { presence.stop() }
            if options.repairsSummaries {
                try presence.start(timeout: options.databaseWait)
                guard presence.isPresent else {
                    throw DaemonError.startup("cannot take the presence lock to repair beside the running daemons")
                }
            }
            var differing = 0
            let projects = try ProjectStore.list(on: connection)
            for project in projects {
                let differences = try SummaryStore.differences(project: project, on: connection)
                guard !differences.isEmpty else { continue }
                differing += 1
                for difference in differences { print(TerminalText.neutralized(difference.description)) }
                if options.repairsSummaries {
                    try SummaryStore.repair(project: project, on: connection)
                    print("project \(project.name): repaired")
                }
            }
            print(
                differing == 0
                    ? "summaries of \(projects.count) project(s) agree with a recomputation"
                    : "summaries of \(differing) of \(projects.count) project(s) differ from a recomputation"
                        + (options.repairsSummaries ? "; repaired" : ""))
            return differing == 0 ? 0 : 1
        } catch {
            logger.error("verifying the summaries failed: \(error)")
            return 2
        }
    }

    // MARK: - Stop

    private func stop() {
        metrics?.stop()
        metrics = nil
        supervisor?.stop()
        supervisor = nil
        hooks?.stop()
        hooks = nil
        sources?.stop()
        sources = nil
        server?.shutdown(grace: .seconds(5))
        server = nil
        replica?.shutdown()
        replica = nil
        pool?.shutdown()
        pool = nil
        // Nothing of this daemon can commit any more (its sources, its server and its pool have drained): only now
        // may the others serve the database alone.
        presence?.stop()
        presence = nil
        if let cluster {
            do {
                try cluster.stop()
            } catch {
                logger.error("cannot stop the embedded PostgreSQL", ["error": "\(error)"])
            }
            self.cluster = nil
        }
        lock = nil
    }

    // MARK: - Signals

    private func installSignalHandlers() {
        // SIGHUP too: a closed terminal must not kill the daemon and leave its PostgreSQL behind.
        for number in [SIGTERM, SIGINT, SIGHUP] {
            // The default action would kill the process before it stops its PostgreSQL.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [stopRequest] in stopRequest.request(signal: number) }
            source.resume()
            signalSources.append(source)
        }
        signal(SIGPIPE, SIG_IGN)
    }

    private func checkStop() throws {
        if stopRequest.isRequested { throw DaemonError.startup("stopped by a signal while starting") }
    }
}

/// The first stop signal received, shared between the signal handlers and the main thread.
///
/// Thread-safety: `signal` is behind a `Mutex`; the semaphore is thread-safe.
private final class StopRequest: Sendable {
    private let signal = Mutex<Int32?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    var isRequested: Bool { signal.withLock { $0 } != nil }

    /// Records a stop; only the first one wakes the waiter.
    func request(signal number: Int32) {
        let isFirst = signal.withLock { current in
            defer { current = current ?? number }
            return current == nil
        }
        if isFirst { semaphore.signal() }
    }

    /// Blocks until a stop is requested and returns its signal number.
    func wait() -> Int32 {
        semaphore.wait()
        return signal.withLock { $0 } ?? SIGTERM
    }
}
