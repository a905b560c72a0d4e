import BarkeepTestSupport
import Dispatch
import Foundation
import Testing

@testable import BarkeepServer

/// The overview's `<main>` is rendered once per status version and shared (RenderedPageCache): concurrent requests
/// for the same version wait for one rendering, and a change to what the overview shows is never served stale.
@Suite("rendered pages shared per status version")
struct RenderedPageTests {
    /// Runs each of `bodies` on a thread of its own, `delays[i]` seconds after the start, and returns their results
    /// in order (threads, not tasks: the bodies block, as the pool threads that call the cache do).
    static func onThreads(_ bodies: [@Sendable () -> String], delays: [Double]) -> [String] {
        let results = Results(count: bodies.count)
        let group = DispatchGroup()
        for (index, body) in bodies.enumerated() {
            group.enter()
            let thread = Thread {
                Thread.sleep(forTimeInterval: delays[index])
                results.set(index, body())
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.values
    }

    @Test("requests arriving while a page renders wait for that rendering; a failed one keeps nothing")
    func singleFlight() throws {
        let cache = RenderedPageCache(capacity: 2)
        let key = RenderedPageCache.Key(project: "app", version: "v1", target: "/projects/app", isMainPart: true)
        let renders = Counter()
        let body: @Sendable () -> String = {
            (try? cache.page(key) {
                renders.increment()
                Thread.sleep(forTimeInterval: 0.3)  // a slow rendering, so the others arrive meanwhile
                return "<main>v1</main>"
            }) ?? "failed"
        }
        let pages = Self.onThreads(Array(repeating: body, count: 8), delays: [0] + Array(repeating: 0.1, count: 7))
        #expect(pages == Array(repeating: "<main>v1</main>", count: 8))
        #expect(renders.value == 1 && cache.rendered == 1 && cache.reused == 7)

        struct Failed: Error {}
        let other = RenderedPageCache.Key(project: "app", version: "v2", target: "/projects/app", isMainPart: true)
        #expect(throws: Failed.self) { try cache.page(other) { throw Failed() } }
        #expect(try cache.page(other) { "<main>v2</main>" } == "<main>v2</main>")
        // Past its capacity the oldest is dropped and rendered again when asked.
        let third = RenderedPageCache.Key(project: "app", version: "v3", target: "/projects/app", isMainPart: true)
        _ = try cache.page(third) { "<main>v3</main>" }
        #expect(try cache.page(key) { "<main>again</main>" } == "<main>again</main>")
    }

    @Test("when the rendering fails, those waiting for it render each for themselves; so does one past its patience")
    func failureAndPatience() {
        struct Failed: Error {}
        let cache = RenderedPageCache(capacity: 4, patience: .seconds(30))
        let key = RenderedPageCache.Key(project: "app", version: "v1", target: "/projects/app", isMainPart: true)
        let renders = Counter()
        let waiter: @Sendable () -> String = {
            (try? cache.page(key) {
                renders.increment()
                Thread.sleep(forTimeInterval: 0.2)
                return "<main>own</main>"
            }) ?? "failed too"
        }
        let results = Self.onThreads(
            [
                {
                    (try? cache.page(key) {
                        renders.increment()
                        Thread.sleep(forTimeInterval: 0.3)
                        throw Failed()
                    }) ?? "failed"
                },
                waiter, waiter,
            ], delays: [0, 0.1, 0.1])
        // Both waiters rendered their own at once: neither queued behind the other's second attempt.
        #expect(results == ["failed", "<main>own</main>", "<main>own</main>"] && renders.value == 3)

        let impatient = RenderedPageCache(capacity: 4, patience: .milliseconds(100))
        let slow = RenderedPageCache.Key(project: "app", version: "v2", target: "/projects/app", isMainPart: true)
        let started = ContinuousClock.now
        let elapsed = Results(count: 1)
        let pages = Self.onThreads(
            [
                {
                    (try? impatient.page(slow) {
                        Thread.sleep(forTimeInterval: 1.5)
                        return "<main>slow</main>"
                    }) ?? "failed"
                },
                {
                    let page = (try? impatient.page(slow) { "<main>quick</main>" }) ?? "failed"
                    elapsed.set(0, "\(ContinuousClock.now - started < .milliseconds(1200))")
                    return page
                },
            ], delays: [0, 0.05])
        #expect(pages == ["<main>slow</main>", "<main>quick</main>"])
        #expect(elapsed.values == ["true"], "the impatient request waited for the slow rendering")
    }

    @Test("the overview's <main> is the same bytes until the status changes, then the change is in it")
    func freshAfterChange() throws {
        let daemon = try HTTPAPITests.seeded()
        let base = try #require(daemon.httpURL)
        let reader = try HTTPAPITests.token(daemon, "rita", role: "reader")
        func main() throws -> String {
            let answer = try HTTPAPITests.request(
                "GET", base + "/projects/app", token: reader, headers: ["X-Barkeep-Part: main"])
            #expect(answer.status == 200)
            return answer.text
        }
        let first = try main()
        #expect(first.hasPrefix("<main") && first.contains("Inbox"))
        #expect(try main() == first)
        // STATS counts the second as shared.
        let stats = try daemon.barkeep(["--json", "stats"])
        let shared = try #require(try JSONSerialization.jsonObject(with: Data(stats.1.utf8)) as? [String: Any])
        #expect(shared["pages_shared"] as? Int == 1, "\(stats)")
        let set = try daemon.barkeep(["finding", "set", "app", "1", "declined", "--reason", "not a bar issue"])
        #expect(set.0 == 0, "\(set)")
        let after = try main()
        #expect(after != first, "the overview's <main> was served stale after a finding changed")
        // The whole page is rendered for each person (it names them), never from the shared part.
        let page = try HTTPAPITests.request("GET", base + "/projects/app", token: reader)
        #expect(page.text.contains("rita") && page.text.contains("<main"))
    }
}

/// Results set by concurrent threads, by index.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String]
    init(count: Int) { stored = Array(repeating: "", count: count) }
    var values: [String] { lock.withLock { stored } }
    func set(_ index: Int, _ value: String) { lock.withLock { stored[index] = value } }
}

/// A count shared by concurrent threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
