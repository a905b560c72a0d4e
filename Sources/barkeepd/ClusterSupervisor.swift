import BarkeepCore
import BarkeepStore
import Foundation
import Synchronization

/// Restarts the embedded PostgreSQL when its postmaster dies (killed, or crashed): the pool's connections then
/// re-establish themselves at their next use, and clients meanwhile get `UNAVAILABLE`. Checks once a second.
///
/// Conservative: only a postmaster seen gone twice in a row, a second apart, is restarted. A check that cannot look
/// (out of descriptors, no permission) says nothing, so a live cluster is never restarted for it.
///
/// Thread-safety (`@unchecked Sendable`): while the supervisor runs, its thread is the only user of `cluster`;
/// `stop()` returns only once that thread has ended, and the daemon stops the cluster only after it. `isStopping`
/// is behind a `Mutex`.
final class ClusterSupervisor: @unchecked Sendable {
    private let cluster: PostgresCluster
    private let logger: Logger
    private let isStopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(cluster: PostgresCluster, logger: Logger) {
        self.cluster = cluster
        self.logger = logger
    }

    /// Starts watching, on a thread of its own.
    func start() {
        let thread = Thread { [self] in
            watch()
            finished.signal()
        }
        thread.name = "barkeep-cluster-supervisor"
        thread.start()
    }

    /// Stops watching and waits for the watcher to end (at most a restart in progress).
    func stop() {
        isStopping.withLock { $0 = true }
        finished.wait()
    }

    private var shouldStop: Bool { isStopping.withLock { $0 } }

    private func watch() {
        var delay = 1.0
        var goneChecks = 0
        var lastUnknownLog = ContinuousClock.now - .seconds(60)
        while !shouldStop {
            Thread.sleep(forTimeInterval: 1)
            guard !shouldStop else { break }
            switch cluster.liveness {
            case .alive:
                goneChecks = 0
                delay = 1
                continue
            case .unknown:
                // Neither alive nor gone: look again in a second, and say so at most once a minute.
                if ContinuousClock.now - lastUnknownLog >= .seconds(60) {
                    logger.warning("cannot check the embedded PostgreSQL; not restarting it")
                    lastUnknownLog = .now
                }
                continue
            case .gone:
                goneChecks += 1
                guard goneChecks >= 2 else { continue }
            }
            goneChecks = 0
            logger.warning("the embedded PostgreSQL is gone; restarting it", ["dir": cluster.options.dataDirectory])
            do {
                try cluster.start()
                logger.info("embedded PostgreSQL restarted")
                delay = 1
            } catch {
                logger.error("cannot restart the embedded PostgreSQL", ["error": "\(error)"])
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, 30)
            }
        }
    }
}
