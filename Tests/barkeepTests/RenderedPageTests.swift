import BarkeepTestSupport
import Dispatch
import Foundation
import Testing

@testable import BarkeepServer

/// The overview's `<main>` is rendered once per status version and shared (RenderedPageCache): concurrent requests
/// for the same version wait for one rendering, and a change to what the overview shows is never served stale.
@Suite("rendered pages shared per status version")
struct RenderedPageTests {
    @Test("requests arriving while a page renders wait for that rendering; a failed one keeps nothing")
    func singleFlight() async throws {
        let cache = RenderedPageCache(capacity: 2)
        let key = RenderedPageCache.Key(project: "app", version: "v1", target: "/projects/app", isMainPart: true)
        let renders = Counter()
        let pages = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try cache.page(key) {
                        renders.increment()
                        Thread.sleep(forTimeInterval: 0.2)  // a slow rendering, so the others arrive meanwhile
                        return "<main>v1</main>"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
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

/// A count shared by concurrent tasks.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
