import Dispatch
import Foundation
import Synchronization

/// A bounded pool of PostgreSQL connections, each owned by a dedicated worker thread.
///
/// libpq blocks the calling thread, so database work never runs on Swift's cooperative thread pool: `withConnection`
/// suspends the calling task, a worker thread runs the body with its own connection, and the task resumes with the
/// result. At most `size` bodies run at once and at most `queueLimit` wait; past that `withConnection` throws
/// `StoreError.poolBusy` at once, so a flood of requests cannot grow memory without bound.
///
/// Thread-safety: all shared state is behind `state` (a `Mutex`); the pool may be used from any thread or task.
public final class PostgresPool: Sendable {
    /// A snapshot of the pool's load, for `STATS` and logs.
    public struct Usage: Sendable, Equatable {
        /// Worker threads, each with at most one connection.
        public var size: Int
        /// Workers running a body right now.
        public var busy: Int
        /// Bodies waiting for a worker.
        public var queued: Int
        /// Bodies refused because the queue was full, since the pool started.
        public var rejected: Int

        /// Creates a usage snapshot.
        public init(size: Int, busy: Int, queued: Int, rejected: Int) {
            self.size = size
            self.busy = busy
            self.queued = queued
            self.rejected = rejected
        }
    }

    private typealias Job = @Sendable (PostgresConnection?, StoreError?) -> Void

    private struct State {
        /// Jobs in order of submission from `head` on; a taken job's slot is cleared at once, so that what it
        /// captured (an upload's bytes, a reply's rows) is freed when it finishes, not when the queue is compacted.
        var jobs: [Job?] = []
        var head = 0
        var busy = 0
        var rejected = 0
        var isClosed = false
        var queued: Int { jobs.count - head }
    }

    /// The configuration each worker connects with.
    public let configuration: PostgresConfiguration
    /// The number of worker threads.
    public let size: Int
    /// The number of bodies that may wait for a worker.
    public let queueLimit: Int
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    /// Starts `size` worker threads. Connections open lazily, on each worker's first job.
    public init(configuration: PostgresConfiguration, size: Int = 4, queueLimit: Int = 256) {
        precondition(size > 0 && queueLimit >= 0, "a pool needs at least one worker")
        self.configuration = configuration
        self.size = size
        self.queueLimit = queueLimit
        for index in 0..<size {
            finished.enter()
            let thread = Thread { [self] in
                workerLoop()
                finished.leave()
            }
            thread.name = "barkeep-db-\(index)"
            thread.start()
        }
    }

    /// The pool's current load.
    public var usage: Usage {
        state.withLock { Usage(size: size, busy: $0.busy, queued: $0.queued, rejected: $0.rejected) }
    }

    /// Whether work waits for a worker: a job that holds its worker while it waits for something else (a streamed
    /// reply whose client has not read) gives the worker up when it sees this.
    public var hasQueuedWork: Bool { state.withLock { $0.queued > 0 } }

    /// Runs `body` on a worker thread with a connection and returns its result.
    ///
    /// Throws `StoreError.poolBusy` when the queue is full, `StoreError.poolClosed` after `shutdown()`, and
    /// whatever `body` or connecting throws.
    @discardableResult
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            do {
                try submit(body) { continuation.resume(with: $0) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    private func enqueue(_ job: @escaping Job) throws(StoreError) {
        let refusal: StoreError? = state.withLock { state in
            if state.isClosed { return .poolClosed }
            if state.queued >= queueLimit + max(0, size - state.busy) {
                state.rejected += 1
                return .poolBusy
            }
            state.jobs.append(job)
            return nil
        }
        if let refusal { throw refusal }
        available.signal()
    }

    /// Queues `body` for a worker thread and returns at once; `completion` is called on that worker thread with the
    /// result. Throws `poolBusy` or `poolClosed` at once, without queueing, when the pool cannot take the work: this
    /// is how a server refuses a flood without growing its memory.
    public func submit<T>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) throws(StoreError) {
        let job: Job = { connection, failure in
            guard let connection else {
                completion(.failure(failure ?? StoreError.poolClosed))
                return
            }
            completion(Result { try body(connection) })
        }
        try enqueue(job)
    }

    /// Runs `body` in a transaction on a worker thread.
    @discardableResult
    public func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in try connection.transaction(body) }
    }

    /// Stops taking work, lets queued bodies finish, closes every connection and waits for the workers to exit.
    public func shutdown() {
        let wasClosed = state.withLock { state in
            defer { state.isClosed = true }
            return state.isClosed
        }
        guard !wasClosed else { return }
        for _ in 0..<size { available.signal() }
        finished.wait()
    }

    private func workerLoop() {
        var connection: PostgresConnection?
        while true {
            available.wait()
            let job: Job? = state.withLock { state in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.jobs[state.head] = nil
                state.head += 1
                if state.head > 64 && state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                state.busy += 1
                return job
            }
            guard let job else {
                // A wake-up without a job is shutdown's: leave once the queue is empty.
                if state.withLock({ $0.isClosed && $0.queued == 0 }) { break }
                continue
            }
            do {
                if connection == nil { connection = try PostgresConnection(configuration: configuration) }
                job(connection, nil)
                // Whatever the job left behind (an open transaction, a broken connection) must not reach the next.
                if connection?.resetAfterUse() == false {
                    connection?.close()
                    connection = nil
                }
            } catch let error as StoreError {
                job(nil, error)
            } catch {
                job(nil, .connectionFailed("\(error)"))
            }
            state.withLock { $0.busy -= 1 }
        }
        connection?.close()
    }
}
