/// When a webhook delivery that failed is tried again, and when the hook is paused instead: the one home of the
/// retry rule (docs/hooks.md).
///
/// The delay doubles from `baseDelay` with each consecutive failure up to `maximumDelay`, and a random part of up to
/// a quarter of it is taken off (jitter), so that hooks that failed together do not retry in lockstep. After
/// `maximumFailures` consecutive failures the hook is paused until someone resumes it.
public struct HookRetry: Sendable, Equatable {
    /// The delay after the first failure.
    public var baseDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration
    /// Consecutive failures after which the hook is paused.
    public var maximumFailures: Int

    /// The daemon's defaults: 1 s doubling up to 5 minutes, paused after 10 failures in a row (about 13 minutes
    /// of failures at the longest delays).
    public static let standard = HookRetry(baseDelay: .seconds(1), maximumDelay: .seconds(300), maximumFailures: 10)

    /// Creates a rule.
    public init(baseDelay: Duration, maximumDelay: Duration, maximumFailures: Int) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumFailures = maximumFailures
    }

    /// The delay before the next try after `failures` consecutive failures (1 or more), without jitter.
    public func delay(afterFailures failures: Int) -> Duration {
        var delay = baseDelay
        for _ in 1..<max(failures, 1) {
            delay *= 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }

    /// The delay with jitter: `fraction` (0 to 1, random in the daemon) takes off up to a quarter of it.
    public func delay(afterFailures failures: Int, jitter fraction: Double) -> Duration {
        let delay = self.delay(afterFailures: failures)
        return delay - delay * (min(max(fraction, 0), 1) / 4)
    }

    /// Whether `failures` consecutive failures pause the hook.
    public func pauses(afterFailures failures: Int) -> Bool { failures >= maximumFailures }
}
