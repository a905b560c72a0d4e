import BarkeepCore
import BarkeepStore
import Foundation
import Synchronization

/// Runs the sync sources this daemon holds: takes up and renews their leases, watches the inboxes, and starts
/// repository scans when they are due (docs/sources.md).
///
/// One loop thread owns the leases, the inboxes and a database connection; each repository scan runs on a thread
/// of its own with its own connection, so a slow scanner holds up nothing else.
///
/// Thread-safety: the stop flag is the LoopThread's; what the loop and the scan threads share — the ids held, the
/// scans running — is behind `shared`, a `Mutex`; the rest belongs to the loop thread.
public final class SourceRunner: Sendable {
    /// What the runner needs from its daemon.
    public struct Configuration: Sendable {
        /// The daemon's server id: the lease holder's name.
        public var holder: String
        /// The database the sources are kept in.
        public var database: PostgresConfiguration
        /// How long a lease lasts unrenewed; it is renewed every third of it.
        public var lease: Duration
        /// How often every inbox is listed whole, a safety net for events inotify missed.
        public var rescan: Duration
        /// Where repository scans get their worktrees and scratch directories; made if missing.
        public var workDirectory: String
        /// The largest file an inbox ingests (the server's upload limit).
        public var maximumUpload: Int
        /// The daemon's environment, which scanners and git get only the allowed part of.
        public var environment: [String: String]
        /// The user scanners run as (a root daemon's `--scanner-user`); nil: the daemon's own. Worktrees are then
        /// made readable by everyone and the work directory traversable.
        public var scannerUser: ScannerUser?
        /// The message `barkeep ingest` would print (without its `barkeep: ` prefix) for an error that refuses a
        /// document for good, or nil for a failure worth retrying: the server's wording, which owns the protocol's
        /// error codes. A source records it as its run's error and does not retry the document.
        public var refusal: @Sendable (any Error) -> String?
        /// What an inbox's directory must be, checked at every listing and before files are moved (a directory can
        /// change after its source was added): one it refuses pauses the source.
        public var inboxGuard: InboxGuard
        /// The daemon's presence on the database: an ingest starts only while it is held, and notes its end on it
        /// (docs/protocol.md: a write shows in the next STATUS); nil: none (a runner alone, in tests).
        public var presence: Presence?

        /// Creates a configuration; `protectedDirectories` (the data directory) is where no inbox may be.
        public init(
            holder: String,
            database: PostgresConfiguration,
            lease: Duration,
            rescan: Duration,
            workDirectory: String,
            maximumUpload: Int,
            environment: [String: String],
            scannerUser: ScannerUser? = nil,
            protectedDirectories: [String] = [],
            refusal: @escaping @Sendable (any Error) -> String?
        ) {
            inboxGuard = InboxGuard(protectedDirectories: protectedDirectories)
            self.scannerUser = scannerUser
            self.refusal = refusal
            self.holder = holder
            self.database = database
            self.lease = lease
            self.rescan = rescan
            self.workDirectory = workDirectory
            self.maximumUpload = maximumUpload
            self.environment = environment
        }
    }

    private struct Shared {
        /// The sources whose lease this daemon held at the last claim.
        var held: Set<Int64> = []
        /// Until when those leases surely last: the last claim's start plus the lease, less a margin. Past it
        /// nothing of theirs goes on, even if the loop could not renew them (a slow query, a lost database).
        var heldUntil = ContinuousClock.now
        /// A source was added, paused, resumed, removed or asked to run (the event feed said so): claim at once.
        var isClaimWanted = false
        /// Repository scans running, and when each finished (for the ones that did since the last claim).
        var running: Set<Int64> = []
        var finishedAt: [Int64: ContinuousClock.Instant] = [:]
        var scanThreads = 0
    }

    let configuration: Configuration
    let logger: Logger
    private let shared = Mutex(Shared())
    let watcher: DirectoryWatcher
    private let loop = LoopThread(name: "barkeep-sources")
    private let scansFinished = DispatchSemaphore(value: 0)

    /// Creates a runner; nothing runs until `start()`.
    public init(configuration: Configuration, logger: Logger) throws(SourceError) {
        self.configuration = configuration
        self.logger = logger
        watcher = try DirectoryWatcher()
    }

    /// Starts the loop thread. Worktrees a killed daemon left behind are deleted first.
    public func start() {
        loop.start(prepare: {
            RepoScan.clearWorkDirectory(
                configuration.workDirectory, isShared: configuration.scannerUser != nil, logger: logger)
        }) { [self] in Loop(runner: self).run() }
    }

    /// Stops the loop and every scan (a running scanner is killed and its run not recorded), then gives up the
    /// leases so another daemon can take the sources up at once.
    public func stop() {
        guard loop.stop(wake: { watcher.wake() }) else { return }
        let scans = shared.withLock { $0.scanThreads }
        for _ in 0..<scans { scansFinished.wait() }
        do {
            let connection = try PostgresConnection(configuration: connectionConfiguration)
            defer { connection.close() }
            try SourceStore.release(holder: configuration.holder, on: connection)
        } catch {
            logger.warning("cannot give up the sources' leases; they run out by themselves", ["error": "\(error)"])
        }
    }

    var isStopping: Bool { loop.isStopping }

    /// Makes the loop claim at once: the event feed says a source was added, paused, resumed, removed or asked to
    /// run, through this daemon or another.
    public func sourcesChanged() {
        shared.withLock { $0.isClaimWanted = true }
        watcher.wake()
    }

    /// Whether a claim was asked for since the last; clears the request.
    private func takeClaimWanted() -> Bool {
        shared.withLock { shared in
            defer { shared.isClaimWanted = false }
            return shared.isClaimWanted
        }
    }

    var connectionConfiguration: PostgresConfiguration {
        configuration.database.with(applicationName: PostgresConfiguration.daemonApplicationName(.sources))
    }

    /// Whether this daemon still holds `id` and is not stopping: a scan goes on only while this is true.
    func mayGoOn(_ id: Int64) -> Bool {
        !isStopping && shared.withLock { $0.held.contains(id) && ContinuousClock.now < $0.heldUntil }
    }

    /// The most repository scans one daemon runs at once; the other due sources wait for a free slot.
    static let maximumScans = 4

    // MARK: - The loop

    /// The loop thread's state.
    private final class Loop {
        let runner: SourceRunner
        var connection: PostgresConnection?
        var held: [Int64: Source] = [:]
        var claimedAt: ContinuousClock.Instant?
        var nextClaim = ContinuousClock.now
        var inboxes: [Int64: InboxSource] = [:]
        /// After a database failure: nothing is tried before this.
        var retryAt = ContinuousClock.now
        var backoff = Backoff.leasingWorker

        init(runner: SourceRunner) { self.runner = runner }

        var configuration: Configuration { runner.configuration }

        func run() {
            while !runner.isStopping {
                let now = ContinuousClock.now
                if now >= retryAt {
                    do {
                        try step(now: now)
                        backoff.reset()
                    } catch {
                        fail(error)
                    }
                }
                let events = runner.watcher.wait(timeout: waitTime())
                for event in events {
                    inboxes.values.first { $0.directory == event.directory }?.handle(event, at: .now)
                }
            }
            for inbox in inboxes.values { runner.watcher.unwatch(inbox.directory) }
            connection?.close()
        }

        /// One pass: renew the leases when due, then deal with every held source.
        func step(now: ContinuousClock.Instant) throws {
            let connection = try connect()
            if runner.takeClaimWanted() || now >= nextClaim {
                try claim(on: connection, now: now)
            }
            for inbox in inboxes.values.sorted(by: { $0.source.id < $1.source.id }) {
                // A backlog of files must not keep the leases from being renewed: the rest waits for the next pass.
                guard !runner.isStopping, ContinuousClock.now < nextClaim else { break }
                guard runner.mayGoOn(inbox.source.id) else { continue }
                do {
                    try inbox.process(on: connection, now: .now, until: nextClaim)
                } catch let error as StoreError where error.isConnectionFailure {
                    throw error
                } catch {
                    // One inbox's trouble must not stop the others: it alone waits and tries again.
                    inbox.backOff(after: error, on: connection)
                }
            }
            startDueScans()
        }

        func connect() throws -> PostgresConnection {
            if let connection { return connection }
            let connection = try PostgresConnection(configuration: runner.connectionConfiguration)
            self.connection = connection
            return connection
        }

        func claim(on connection: PostgresConnection, now: ContinuousClock.Instant) throws {
            // The database measures the lease from its own now(), which is later than this instant.
            let started = ContinuousClock.now
            let sources = try SourceStore.claim(
                holder: configuration.holder, lease: configuration.lease, on: connection)
            claimedAt = now
            nextClaim = now + configuration.lease / 3
            let previous = Set(held.keys)
            held = Dictionary(uniqueKeysWithValues: sources.map { ($0.id, $0) })
            let heldUntil = started + configuration.lease - configuration.lease / 6
            runner.shared.withLock { shared in
                shared.held = Set(held.keys)
                shared.heldUntil = heldUntil
            }
            for id in Set(held.keys).subtracting(previous) {
                runner.logger.info("source taken up", ["source": String(id), "project": held[id]?.project ?? ""])
            }
            for id in previous.subtracting(held.keys) {
                runner.logger.info("source given up", ["source": String(id)])
            }
            // Inboxes: follow the sources held, with their latest settings.
            for (id, inbox) in inboxes where held[id]?.settings != inbox.source.settings {
                runner.watcher.unwatch(inbox.directory)
                inboxes[id] = nil
            }
            for source in sources where source.settings.kind == .inbox {
                if let inbox = inboxes[source.id] {
                    inbox.update(source)
                } else {
                    inboxes[source.id] = InboxSource(source: source, runner: runner)
                }
            }
        }

        func startDueScans() {
            guard let claimedAt else { return }
            let now = Date()
            for source in held.values where source.settings.kind == .repo {
                guard source.isRunRequested || source.nextRunAt <= now else { continue }
                let isStarted = runner.shared.withLock { shared in
                    // A scan that finished after the last claim left the snapshot stale: wait for the next.
                    if shared.running.count >= SourceRunner.maximumScans || shared.running.contains(source.id)
                        || shared.finishedAt[source.id].map({ $0 >= claimedAt })
                            == true
                    {
                        return false
                    }
                    shared.running.insert(source.id)
                    shared.scanThreads += 1
                    return true
                }
                guard isStarted else { continue }
                let runner = self.runner
                let thread = Thread {
                    RepoScan(source: source, runner: runner).run()
                    runner.shared.withLock { shared in
                        shared.running.remove(source.id)
                        shared.finishedAt[source.id] = .now
                    }
                    // The snapshot the loop holds is now stale for this source: claim again at once, so that a run
                    // asked for while this one was ending starts now, not at the next renewal.
                    runner.sourcesChanged()
                    runner.scansFinished.signal()
                }
                thread.name = "barkeep-scan-\(source.id)"
                thread.start()
            }
        }

        /// How long the loop may sleep: until the next claim, the next file that may settle, or the next rescan.
        func waitTime() -> Duration {
            let now = ContinuousClock.now
            var wake = retryAt > now ? retryAt : nextClaim
            for inbox in inboxes.values {
                if let deadline = inbox.nextDeadline { wake = min(wake, deadline) }
            }
            return max(.milliseconds(20), min(.seconds(1), now.duration(to: wake)))
        }

        /// A database failure: the connection is dropped and retried with a growing delay. The leases are not
        /// renewed meanwhile, so `mayGoOn` stops everything of theirs once they may have run out (`heldUntil`), and
        /// another daemon may take over.
        func fail(_ error: any Error) {
            runner.logger.warning("sources: database failure, retrying", ["error": "\(error)"])
            connection?.close()
            connection = nil
            retryAt = .now + backoff.next()
        }
    }
}
