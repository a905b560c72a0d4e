import BarkeepCore
import Foundation

/// Pages rendered once per version of what they show, shared by everyone who asks while it is current: when an event
/// comes, every open overview refetches its `<main>` at once (docs/web.md, Live), and without this each would gather
/// and render the whole project again, queueing the last page behind all the others. A page whose content is a
/// function of its project's status version (Schema/0017) and its address is rendered by the first request for that
/// version; requests arriving meanwhile wait for that rendering rather than repeating it. At most
/// `HTTPLimit.renderedPagesKept` renderings are kept, the oldest dropped first.
///
/// Only pages with nothing of the signed-in person in them are kept: no name, no CSRF token, no form that writes.
final class RenderedPageCache: @unchecked Sendable {
    /// What a rendering depends on.
    struct Key: Hashable {
        /// The project's name.
        var project: String
        /// Its status version when the rendering began.
        var version: String
        /// The request target (path and query) and the part asked for.
        var target: String
        /// Whether only `<main>` was asked for.
        var isMainPart: Bool
    }

    private let condition = NSCondition()
    private var pages: [Key: String] = [:]
    private var order: [Key] = []
    private var rendering: Set<Key> = []
    private let capacity: Int
    private var counts = (rendered: 0, reused: 0)
    /// Renderings that failed, ever: a request that waited through one renders for itself rather than queueing
    /// behind the next attempt.
    private var failures = 0
    /// How long a request waits for another's rendering before it renders for itself.
    private let patience: Duration

    /// Renderings made (tests).
    var rendered: Int { condition.withLock { counts.rendered } }
    /// Requests answered from a kept rendering or another request's (STATS' `pages-shared`).
    var reused: Int { condition.withLock { counts.reused } }

    /// A cache keeping at most `capacity` renderings.
    init(capacity: Int = HTTPLimit.renderedPagesKept, patience: Duration = .seconds(HTTPLimit.renderWaitSeconds)) {
        self.capacity = capacity
        self.patience = patience
    }

    /// The page under `key`: kept, or rendered by `render` now, or (when another request is rendering it) that
    /// request's rendering once it is done. A rendering that throws keeps nothing, and the requests waiting for it each
    /// render for themselves, as does one that waited longer than its patience.
    func page(_ key: Key, render: () throws -> String) throws -> String {
        condition.lock()
        let failuresBefore = failures
        let deadline = Date().addingTimeInterval(
            Double(patience.components.seconds) + Double(patience.components.attoseconds) / 1e18)
        var isOnItsOwn = false
        while pages[key] == nil && rendering.contains(key) {
            if failures != failuresBefore || !condition.wait(until: deadline) {
                isOnItsOwn = true
                break
            }
        }
        if let page = pages[key] {
            counts.reused += 1
            condition.unlock()
            return page
        }
        if isOnItsOwn {
            condition.unlock()
            return try render()
        }
        rendering.insert(key)
        condition.unlock()
        let page: String
        do {
            page = try render()
        } catch {
            condition.lock()
            rendering.remove(key)
            failures += 1
            condition.broadcast()
            condition.unlock()
            throw error
        }
        condition.lock()
        rendering.remove(key)
        counts.rendered += 1
        pages[key] = page
        order.append(key)
        while order.count > capacity { pages[order.removeFirst()] = nil }
        condition.broadcast()
        condition.unlock()
        return page
    }
}
