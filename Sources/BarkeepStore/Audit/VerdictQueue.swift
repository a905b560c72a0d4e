import BarkeepCore
import Synchronization

/// Group commit for verdicts on single findings (`FINDING SET PROJECT N STATUS`): the verdicts on a project that
/// arrive while a batch of that project is being written wait together, and the next batch writes them in one
/// transaction (`FindingStore.setStatuses`: one sync lock, one events lock, one COMMIT) — at most
/// `GroupCommitLimit.verdicts` of them and `GroupCommitLimit.bytes` of their text. Each verdict's completion is
/// called as soon as the batch holding it has committed, with its own result: a request waits for its own commit
/// only.
///
/// A project has at most one batch queued or running on the pool at a time; different projects' batches run side by
/// side. A batch runs as a job of the pool like any command, and a project with verdicts still waiting after its
/// batch queues its next one behind the work that came meanwhile. A verdict whose client has gone before its batch
/// starts is not applied (`cancelled`), as the pool never starts the work of a client that has gone.
///
/// Thread-safety: the waiting verdicts are behind a `Mutex`; `submit` may be called from any thread.
public final class VerdictQueue: Sendable {
    /// A verdict to write, and whose it is.
    public struct Request: Sendable {
        /// The project's name, as the command gave it.
        public var project: String
        /// The verdict.
        public var verdict: FindingVerdict
        /// The token whose session sent it, checked (still active) when its batch starts; nil: none to check.
        public var tokenID: Int64?
        /// Whether its client has gone: checked when its batch starts.
        public var isCancelled: @Sendable () -> Bool

        /// Creates a request.
        public init(
            project: String, verdict: FindingVerdict, tokenID: Int64?, isCancelled: @escaping @Sendable () -> Bool
        ) {
            self.project = project
            self.verdict = verdict
            self.tokenID = tokenID
            self.isCancelled = isCancelled
        }
    }

    /// What became of a verdict.
    public enum Outcome: Sendable {
        /// It was decided: its change (a refusal inside), or the error it met (an unknown finding or project, the
        /// pool busy or closed, the database); with `recordsPositions`, where the primary's log ended after its
        /// batch committed (read-your-writes with a read replica), else nil.
        case decided(Result<FindingChange, any Error>, wrote: WALPosition? = nil)
        /// Its session's token was revoked: nothing was done.
        case tokenRevoked
        /// Its client had gone before its batch started: nothing was done.
        case cancelled
    }

    private struct Waiting: Sendable {
        var request: Request
        var completion: @Sendable (Outcome) -> Void
    }

    private struct State {
        /// The verdicts waiting, per project, in order of arrival.
        var waiting: [String: [Waiting]] = [:]
        /// The projects with a batch queued on the pool or running.
        var scheduled: Set<String> = []
    }

    private let pool: PostgresPool
    private let maximumCount: Int
    private let maximumBytes: Int
    private let recordsPositions: Bool
    private let state = Mutex(State())

    /// A queue writing through `pool`'s connections, batches bounded by `maximumCount` verdicts and `maximumBytes`
    /// of their text; with `recordsPositions` (a daemon with a read replica), each decided verdict says where the
    /// primary's log ended after its batch.
    public init(
        pool: PostgresPool, maximumCount: Int = GroupCommitLimit.verdicts, maximumBytes: Int = GroupCommitLimit.bytes,
        recordsPositions: Bool = false
    ) {
        precondition(maximumCount > 0, "a batch holds at least one verdict")
        self.pool = pool
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
        self.recordsPositions = recordsPositions
    }

    /// Queues `request`; `completion` is called once, on a pool thread (or at once, on this one, when the pool
    /// cannot take the batch: `poolBusy`, `poolClosed`), after the batch holding it committed or failed.
    public func submit(_ request: Request, completion: @escaping @Sendable (Outcome) -> Void) {
        let project = request.project
        let starts = state.withLock { state in
            state.waiting[project, default: []].append(Waiting(request: request, completion: completion))
            return state.scheduled.insert(project).inserted
        }
        guard starts else { return }
        do {
            try schedule(project)
        } catch {
            let refused = state.withLock { state in
                state.scheduled.remove(project)
                return state.waiting.removeValue(forKey: project) ?? []
            }
            for waiting in refused { waiting.completion(.decided(.failure(error))) }
        }
    }

    private func schedule(_ project: String) throws(StoreError) {
        try pool.submit { [self] connection in
            run(project, on: connection)
        } completion: { [self] result in
            // The pool could not connect for the batch (the database restarting, its connections all taken): the
            // waiting verdicts get the error, and the project's next verdict schedules a batch again.
            guard case .failure(let error) = result else { return }
            let failed = state.withLock { state in
                state.scheduled.remove(project)
                return state.waiting.removeValue(forKey: project) ?? []
            }
            for waiting in failed { waiting.completion(.decided(.failure(error))) }
        }
    }

    /// Writes the project's next batch, then queues the one after it, if verdicts wait (or, when the pool cannot
    /// take it, writes it here).
    private func run(_ project: String, on connection: PostgresConnection) {
        while true {
            write(take(project), project: project, on: connection)
            let isDone = state.withLock { state in
                if state.waiting[project]?.isEmpty ?? true {
                    state.waiting[project] = nil
                    state.scheduled.remove(project)
                    return true
                }
                return false
            }
            if isDone { return }
            do {
                try schedule(project)
                return
            } catch {
                continue
            }
        }
    }

    /// The project's next batch: the verdicts waiting longest, within the bounds (one at least).
    private func take(_ project: String) -> [Waiting] {
        state.withLock { state in
            let waiting = state.waiting[project] ?? []
            var count = 0
            var bytes = 0
            for item in waiting {
                let size = item.request.verdict.bytes
                guard count < maximumCount, count == 0 || bytes + size <= maximumBytes else { break }
                count += 1
                bytes += size
            }
            state.waiting[project] = Array(waiting.dropFirst(count))
            return Array(waiting.prefix(count))
        }
    }

    /// Writes `batch` and completes each of its verdicts: the token of each checked first (one statement for the
    /// batch), then the verdicts of active tokens in one transaction.
    private func write(_ batch: [Waiting], project: String, on connection: PostgresConnection) {
        var live: [Waiting] = []
        for item in batch {
            if item.request.isCancelled() { item.completion(.cancelled) } else { live.append(item) }
        }
        guard !live.isEmpty else { return }
        let active: Set<Int64>
        do {
            active = try TokenStore.active(Set(live.compactMap(\.request.tokenID)), on: connection)
        } catch {
            for item in live { item.completion(.decided(.failure(error))) }
            return
        }
        var allowed: [Waiting] = []
        for item in live {
            if let token = item.request.tokenID, !active.contains(token) {
                item.completion(.tokenRevoked)
            } else {
                allowed.append(item)
            }
        }
        guard !allowed.isEmpty else { return }
        do {
            let results = try FindingStore.setStatuses(
                project: project, allowed.map(\.request.verdict), on: connection)
            let position = self.position(on: connection)
            for (item, result) in zip(allowed, results) {
                item.completion(.decided(result.mapError { $0 }, wrote: position))
            }
        } catch {
            // The database refused a statement (a value breaking a rule of the data): find the verdict at fault by
            // applying each alone. Anything else (no such project, the connection lost) is every verdict's answer.
            let isRefusal: Bool
            switch error as? StoreError {
            case .server, .invalid: isRefusal = allowed.count > 1
            default: isRefusal = false
            }
            guard isRefusal else {
                for item in allowed { item.completion(.decided(.failure(error))) }
                return
            }
            let results = allowed.map { item in
                Result { try FindingStore.apply(item.request.verdict, project: project, on: connection) }
            }
            let position = self.position(on: connection)
            for (item, result) in zip(allowed, results) { item.completion(.decided(result, wrote: position)) }
        }
    }

    /// Where the primary's log ends now, after a batch's commit, when the queue records it.
    private func position(on connection: PostgresConnection) -> WALPosition? {
        recordsPositions ? WALPosition.afterCommit(on: connection) : nil
    }
}
