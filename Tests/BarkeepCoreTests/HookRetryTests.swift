import BarkeepCore
import Testing

@Suite("HookRetry")
struct HookRetryTests {
    @Test(
        "the delay doubles from the base up to the longest",
        arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (9, 256), (10, 300), (50, 300), (0, 1)]
    )
    func doubling(failures: Int, seconds: Int) {
        #expect(HookRetry.standard.delay(afterFailures: failures) == .seconds(seconds))
    }

    @Test("jitter takes off at most a quarter, never adds")
    func jitter() {
        let retry = HookRetry.standard
        #expect(retry.delay(afterFailures: 3, jitter: 0) == .seconds(4))
        #expect(retry.delay(afterFailures: 3, jitter: 1) == .seconds(3))
        #expect(retry.delay(afterFailures: 3, jitter: 0.5) == .milliseconds(3500))
        #expect(retry.delay(afterFailures: 3, jitter: 7) == .seconds(3))
        #expect(retry.delay(afterFailures: 3, jitter: -1) == .seconds(4))
    }

    @Test("paused after the most failures in a row, not before")
    func pausing() {
        let retry = HookRetry(baseDelay: .seconds(1), maximumDelay: .seconds(1), maximumFailures: 3)
        #expect(!retry.pauses(afterFailures: 2))
        #expect(retry.pauses(afterFailures: 3))
        #expect(retry.delay(afterFailures: 5) == .seconds(1))
        #expect(HookRetry.standard.maximumFailures == 10)
    }
}
