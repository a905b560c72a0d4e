import BarkeepCore
import Foundation

/// Waits until `condition` holds, polling every `interval` (20 ms unless a look is costly, such as running the
/// CLI), for at most `timeout`; returns whether it held.
public func eventually(
    _ timeout: Duration = .seconds(30),
    every interval: Duration = .milliseconds(20),
    _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval.seconds)
    }
    return try condition()
}

/// Whether `condition` holds all through `window`, looked at every 50 ms: false as soon as one look finds it broken.
/// For what must *not* happen (a paused source taking a file, a file under a temporary name taken), where no state
/// says "it will not happen": the window is how long the test watches, and a break ends the watch at once.
public func holds(for window: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + window
    while ContinuousClock.now < deadline {
        guard try condition() else { return false }
        usleep(50_000)
    }
    return try condition()
}
