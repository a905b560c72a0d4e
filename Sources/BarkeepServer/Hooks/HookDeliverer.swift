import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepSources
import BarkeepStore
import Foundation
import Synchronization

/// Delivers the webhooks this daemon holds (docs/hooks.md): takes up and renews their leases, reads each hook's
/// events after its cursor in order, POSTs the matching ones one at a time, moves the cursor only on a 2xx answer,
/// and retries a failed delivery with a growing delay until `HookRetry` pauses the hook.
///
/// Delivery is at least once: the cursor moves after the answer, so a daemon that stops (or loses its lease) between
/// the two delivers that event again, from the same daemon after a restart or from another.
///
/// One thread with its own database connection delivers every hook held, one request at a time; a receiver that
/// does not answer holds up the others for at most the timeout of each attempt.
///
/// Thread-safety: what other threads touch — the stop flag (LoopThread), the claim flag (a `Mutex`) and the wakeup
/// (a semaphore) — is thread-safe; everything else belongs to the delivery thread.
public final class HookDeliverer: Sendable {
    /// What the deliverer needs from its daemon.
    public struct Configuration: Sendable {
        /// The daemon's server id: the lease holder's name.
        public var holder: String
        /// The database the hooks and events are kept in.
        public var database: PostgresConfiguration
        /// How long a lease lasts unrenewed; it is renewed every third of it.
        public var lease: Duration
        /// When failed deliveries are tried again, and when a hook is paused.
        public var retry: HookRetry
        /// How long one delivery may take.
        public var timeout: Duration

        /// Creates a configuration.
        public init(
            holder: String, database: PostgresConfiguration, lease: Duration, retry: HookRetry, timeout: Duration
        ) {
            self.holder = holder
            self.database = database
            self.lease = lease
            self.retry = retry
            self.timeout = timeout
        }
    }

    /// How long one delivery may take unless the daemon says otherwise (`--hook-timeout`); also `HOOK TEST`'s on a
    /// daemon that delivers no hooks.
    public static let defaultTimeout = Duration.seconds(10)

    /// Events read per page.
    static let pageSize = 100

    /// What it was created with.
    let configuration: Configuration
    /// Where it logs hooks taken up, given up, failing and paused.
    let logger: Logger
    /// A hook was added, paused, resumed or removed: claim at once.
    private let isClaimWanted = Mutex(false)
    private let wakeup = DispatchSemaphore(value: 0)
    private let loop = LoopThread(name: "barkeep-hooks")

    /// Creates a deliverer; nothing runs until `start()`.
    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Starts the delivery thread.
    public func start() { loop.start { [self] in Loop(deliverer: self).run() } }

    /// Stops the thread (a delivery under way ends within the timeout) and gives up the leases, so another daemon
    /// takes the hooks up at once.
    public func stop() {
        guard loop.stop(wake: { wakeup.signal() }) else { return }
        do {
            let connection = try PostgresConnection(configuration: connectionConfiguration)
            defer { connection.close() }
            try HookStore.release(holder: configuration.holder, on: connection)
        } catch {
            logger.warning("cannot give up the hooks' leases; they run out by themselves", ["error": "\(error)"])
        }
    }

    /// New events were committed (`isHookChange`: a hook was added, paused, resumed or removed, which makes the
    /// deliverer claim at once): deliver them now rather than at the next look.
    public func eventsArrived(isHookChange: Bool) {
        if isHookChange { isClaimWanted.withLock { $0 = true } }
        wakeup.signal()
    }

    /// The kinds of the events that change which hooks there are to deliver.
    public static let hookChangeKinds: Set<String> = Set(
        [EventKind.hookAdded, .hookPaused, .hookResumed, .hookRemoved].map(\.rawValue))

    /// Whether `stop` was called: deliveries end.
    var isStopping: Bool { loop.isStopping }

    private func takeClaimWanted() -> Bool {
        isClaimWanted.withLock { isWanted in
            defer { isWanted = false }
            return isWanted
        }
    }

    /// The delivery thread's own database connection, named so in `pg_stat_activity`.
    var connectionConfiguration: PostgresConfiguration {
        configuration.database.with(applicationName: PostgresConfiguration.daemonApplicationName(.hooks))
    }

    // MARK: - The loop

    /// The delivery thread's state.
    private final class Loop {
        let deliverer: HookDeliverer
        let client: WebhookClient
        var connection: PostgresConnection?
        var held: [Int64: Hook] = [:]
        var heldUntil = ContinuousClock.now
        var nextClaim = ContinuousClock.now
        /// A hook whose last delivery failed waits until then.
        var nextAttempt: [Int64: ContinuousClock.Instant] = [:]
        /// After a database failure: nothing is tried before this.
        var retryAt = ContinuousClock.now
        var backoff = Backoff.leasingWorker
        var generator = SystemRandomNumberGenerator()

        init(deliverer: HookDeliverer) {
            self.deliverer = deliverer
            client = WebhookClient(timeout: deliverer.configuration.timeout)
        }

        var configuration: Configuration { deliverer.configuration }

        func run() {
            while !deliverer.isStopping {
                if ContinuousClock.now >= retryAt {
                    do {
                        try step()
                        backoff.reset()
                    } catch {
                        fail(error)
                    }
                }
                _ = deliverer.wakeup.wait(timeout: .now() + waitTime().seconds)
            }
            connection?.close()
        }

        /// One pass: renew the leases when due, then deliver what each due hook has waiting.
        func step() throws {
            let connection = try connect()
            if deliverer.takeClaimWanted() || ContinuousClock.now >= nextClaim { try claim(on: connection) }
            for id in held.keys.sorted() {
                guard !deliverer.isStopping, ContinuousClock.now < nextClaim else { break }
                if let due = nextAttempt[id], due > .now { continue }
                try deliver(id, on: connection)
            }
        }

        func connect() throws -> PostgresConnection {
            if let connection { return connection }
            let connection = try PostgresConnection(configuration: deliverer.connectionConfiguration)
            self.connection = connection
            return connection
        }

        func claim(on connection: PostgresConnection) throws {
            // The database measures the lease from its own now(), which is later than this instant.
            let started = ContinuousClock.now
            let hooks = try HookStore.claim(holder: configuration.holder, lease: configuration.lease, on: connection)
            nextClaim = started + configuration.lease / 3
            heldUntil = started + configuration.lease - configuration.lease / 6
            let previous = Set(held.keys)
            held = Dictionary(uniqueKeysWithValues: hooks.map { ($0.id, $0) })
            for id in Set(held.keys).subtracting(previous) {
                deliverer.logger.info("hook taken up", ["hook": String(id), "project": held[id]?.project ?? ""])
            }
            for id in previous.subtracting(held.keys) {
                nextAttempt[id] = nil
                deliverer.logger.info("hook given up", ["hook": String(id)])
            }
        }

        /// Delivers the hook's waiting events in order until none is left, one fails, or the lease may have run out.
        func deliver(_ id: Int64, on connection: PostgresConnection) throws {
            guard var hook = held[id], let url = try? WebhookURL(parsing: hook.url) else { return }
            let filter = hook.filter
            while true {
                let events = try EventLog.events(
                    after: hook.deliveredSeq, projectID: hook.projectID, limit: HookDeliverer.pageSize, on: connection)
                guard let last = events.last else { return }
                for event in events where event.matches(filter) {
                    guard !deliverer.isStopping, ContinuousClock.now < heldUntil else { return }
                    let payload = try HookPayload(event: EventFields(event), hook: hook)
                    let outcome = client.post(url, body: payload.body, headers: payload.headers)
                    guard outcome.isDelivered else {
                        try failed(hook, event: event, outcome: outcome, on: connection)
                        return
                    }
                    guard
                        try HookStore.recordDelivered(
                            id, through: event.seq, isDelivery: true, holder: configuration.holder, on: connection)
                    else { return lost(id) }
                    hook.deliveredSeq = event.seq
                    hook.failures = 0
                    held[id] = hook
                    nextAttempt[id] = nil
                }
                // The events it does not deliver are passed over for good.
                if last.seq > hook.deliveredSeq {
                    guard
                        try HookStore.recordDelivered(
                            id, through: last.seq, isDelivery: false, holder: configuration.holder, on: connection)
                    else { return lost(id) }
                    hook.deliveredSeq = last.seq
                    held[id] = hook
                }
                if events.count < HookDeliverer.pageSize { return }
            }
        }

        func failed(_ hook: Hook, event: Event, outcome: WebhookClient.Outcome, on connection: PostgresConnection)
            throws
        {
            guard
                let updated = try HookStore.recordFailure(
                    hook.id, error: outcome.text, retry: configuration.retry, holder: configuration.holder,
                    on: connection)
            else { return lost(hook.id) }
            if let reason = updated.pausedReason {
                deliverer.logger.warning("hook paused", ["hook": String(hook.id), "reason": reason])
                held[hook.id] = nil
                nextAttempt[hook.id] = nil
                return
            }
            let delay = configuration.retry.delay(
                afterFailures: updated.failures, jitter: Double.random(in: 0...1, using: &generator))
            nextAttempt[hook.id] = .now + delay
            held[hook.id] = updated
            deliverer.logger.info(
                "hook delivery failed, retrying",
                [
                    "hook": String(hook.id), "seq": String(event.seq), "error": outcome.text,
                    "failures": String(updated.failures), "retry_in": "\(delay)",
                ])
        }

        /// Another daemon holds the hook now (this one's lease ran out): forget it until the next claim.
        func lost(_ id: Int64) {
            held[id] = nil
            nextAttempt[id] = nil
            deliverer.logger.info("hook given up", ["hook": String(id)])
        }

        /// How long the loop may sleep: until the next claim or the next retry, at most a second (a safety net for
        /// a wakeup missed while a delivery was under way).
        func waitTime() -> Duration {
            let now = ContinuousClock.now
            var wake = retryAt > now ? retryAt : nextClaim
            for due in nextAttempt.values { wake = min(wake, due) }
            return max(.milliseconds(10), min(.seconds(1), now.duration(to: wake)))
        }

        /// A database failure: the connection is dropped and retried with a growing delay.
        func fail(_ error: any Error) {
            deliverer.logger.warning("hooks: database failure, retrying", ["error": "\(error)"])
            connection?.close()
            connection = nil
            retryAt = .now + backoff.next()
        }
    }
}
