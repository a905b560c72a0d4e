import Foundation
import Synchronization

/// A background loop on a thread of its own, started once and stopped once: the life cycle the sync sources'
/// runner and the webhooks' deliverer share. The loop polls `isStopping` and returns when it is set.
///
/// Thread-safety: the flags are behind a `Mutex`; the semaphore is thread-safe.
public final class LoopThread: Sendable {
    private struct State {
        var isStarted = false
        var isStopping = false
    }

    private let name: String
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    /// A loop whose thread will be called `name`.
    public init(name: String) { self.name = name }

    /// Whether `stop` was called: the loop returns as soon as it sees it.
    public var isStopping: Bool { state.withLock { $0.isStopping } }

    /// Runs `prepare`, then starts `loop` on the thread, unless it was started before (then neither runs).
    public func start(prepare: () -> Void = {}, _ loop: @escaping @Sendable () -> Void) {
        let isFirst = state.withLock { state in
            defer { state.isStarted = true }
            return !state.isStarted
        }
        guard isFirst else { return }
        prepare()
        let thread = Thread { [finished] in
            loop()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to stop, calls `wake` so that a waiting loop notices, and waits for it to return; whether it
    /// was running (false when never started or already stopped).
    public func stop(wake: () -> Void) -> Bool {
        let wasRunning = state.withLock { state in
            defer { state.isStopping = true }
            return state.isStarted && !state.isStopping
        }
        guard wasRunning else { return false }
        wake()
        finished.wait()
        return true
    }
}
