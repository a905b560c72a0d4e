import Dispatch

/// A pure computation started on another thread at once, whose result the caller takes when it needs it: the work
/// of a sync that depends on the scan alone overlaps the database's work on it.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // `value` is written once by the worker before `finished` is signalled, and read only after waiting for it.
    private var value: Value?
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `work` on a global queue.
    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async {
            self.value = work()
            self.finished.signal()
        }
    }

    /// Waits for the work to finish and returns its result; may be called more than once.
    func result() -> Value {
        finished.wait()
        // Lets any later call through as well.
        finished.signal()
        guard let value else { preconditionFailure("the background work finished without a result") }
        return value
    }
}
