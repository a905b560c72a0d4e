import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// Webhooks against a real database: the lease that lets one daemon at a time deliver each hook, the cursor that
/// only its holder moves, pausing after too many failures, and resuming from the cursor.
@Suite("Hook store")
struct HookStoreTests {
    let connection: PostgresConnection

    init() throws {
        let configuration = try TestDatabase.makeDatabase()
        connection = try PostgresConnection(configuration: configuration)
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
    }

    func add(_ url: String = "https://example.com/hook", secret: String? = nil) throws -> Hook {
        try HookStore.add(
            HookSettings(
                url: try WebhookURL(parsing: url), kinds: [.findingNew, .findingStatus], screen: "Inbox",
                secret: secret, format: .json),
            to: "app", actor: "ana", on: connection)
    }

    @Test("a new hook starts at the head of the log, with its own hook.added after it; the secret is kept")
    func adding() throws {
        let head = try EventLog.head(on: connection)
        let hook = try add(secret: "k")
        #expect(hook.deliveredSeq == head)
        #expect(hook.secret == "k" && hook.kinds == ["finding.new", "finding.status"] && hook.screen == "Inbox")
        #expect(hook.filter == EventFilter(kinds: [.findingNew, .findingStatus], screen: "Inbox"))
        let events = try EventLog.events(after: head, limit: 10, on: connection)
        #expect(events.map(\.kind) == ["hook.added"])
        #expect(events.first?.subject == "hook \(hook.id)")
    }

    @Test("two holders: each hook goes to one; only the holder moves the cursor or records a failure")
    func lease() throws {
        let first = try add()
        let second = try add("http://127.0.0.1:9/x")
        let held = try HookStore.claim(holder: "a", lease: .seconds(60), on: connection).map(\.id)
        #expect(held == [first.id, second.id])
        #expect(try HookStore.claim(holder: "b", lease: .seconds(60), on: connection).isEmpty)
        #expect(try !HookStore.recordDelivered(first.id, through: 99, isDelivery: true, holder: "b", on: connection))
        #expect(try HookStore.recordDelivered(first.id, through: 99, isDelivery: true, holder: "a", on: connection))
        #expect(try HookStore.recordFailure(first.id, error: "x", retry: .standard, holder: "b", on: connection) == nil)
        // A cursor never moves back.
        #expect(try HookStore.recordDelivered(first.id, through: 5, isDelivery: false, holder: "a", on: connection))
        #expect(try HookStore.require(first.id, on: connection).deliveredSeq == 99)
        try HookStore.release(holder: "a", on: connection)
        #expect(try HookStore.claim(holder: "b", lease: .seconds(60), on: connection).map(\.id) == held)
    }

    @Test("too many failures pause the hook with a hook.paused event; resume keeps the cursor and clears failures")
    func pauseAndResume() throws {
        let hook = try add()
        _ = try HookStore.claim(holder: "a", lease: .seconds(60), on: connection)
        let retry = HookRetry(baseDelay: .seconds(1), maximumDelay: .seconds(1), maximumFailures: 2)
        let once = try #require(
            try HookStore.recordFailure(hook.id, error: "HTTP 500", retry: retry, holder: "a", on: connection))
        #expect(once.failures == 1 && once.pausedReason == nil && once.lastError == "HTTP 500")
        let twice = try #require(
            try HookStore.recordFailure(hook.id, error: "HTTP 502", retry: retry, holder: "a", on: connection))
        #expect(twice.pausedReason == "2 deliveries in a row failed, the last: HTTP 502")
        #expect(twice.holder == nil)
        #expect(try HookStore.claim(holder: "a", lease: .seconds(60), on: connection).isEmpty)
        let resumed = try HookStore.resume(hook.id, actor: "ana", on: connection)
        #expect(resumed.pausedReason == nil && resumed.failures == 0 && resumed.deliveredSeq == hook.deliveredSeq)
        let kinds = try EventLog.events(after: hook.deliveredSeq, limit: 10, on: connection).map(\.kind)
        #expect(kinds == ["hook.added", "hook.paused", "hook.resumed"])
        try HookStore.remove(hook.id, actor: "ana", on: connection)
        #expect(throws: StoreError.self) { try HookStore.require(hook.id, on: connection) }
    }

    @Test("paused by hand: the lease is given up, a hook.paused event gives the reason; again changes nothing")
    func pauseByHand() throws {
        let hook = try add()
        _ = try HookStore.claim(holder: "a", lease: .seconds(60), on: connection)
        let paused = try HookStore.pause(hook.id, reason: "by ana", actor: "ana", on: connection)
        #expect(paused.pausedReason == "by ana" && paused.isPaused && paused.holder == nil)
        #expect(paused.deliveredSeq == hook.deliveredSeq)
        #expect(try HookStore.claim(holder: "a", lease: .seconds(60), on: connection).isEmpty)
        #expect(try !HookStore.recordDelivered(hook.id, through: 99, isDelivery: true, holder: "a", on: connection))
        let again = try HookStore.pause(hook.id, reason: "by bo", actor: "bo", on: connection)
        #expect(again.pausedReason == "by ana")
        let events = try EventLog.events(after: hook.deliveredSeq, limit: 10, on: connection)
        #expect(events.map(\.kind) == ["hook.added", "hook.paused"])
        #expect(events.last?.reason == "by ana" && events.last?.actor == "ana")
        #expect(throws: StoreError.self) { try HookStore.pause(99, reason: "x", actor: "ana", on: connection) }
        #expect(try HookStore.resume(hook.id, actor: "ana", on: connection).isPaused == false)
        #expect(try HookStore.claim(holder: "a", lease: .seconds(60), on: connection).map(\.id) == [hook.id])
    }
}
