import BarkeepStore
import Testing

@testable import BarkeepServer

/// The event loop's shared STATUS lookups (`SharedStatusLookups`): one in flight, covering every key waiting when it is
/// sent; no request answered by a lookup sent before it arrived.
@Suite("Shared STATUS lookups: one in flight, each request answered by a lookup sent after it arrived")
struct SharedStatusLookupsTests {
    typealias Lookups = SharedStatusLookups<String>
    let app = StatusLookupKey(project: "app", tokenID: 1)
    let web = StatusLookupKey(project: "web", tokenID: nil)
    let current = StatusLookupAnswer(version: "v1", isTokenActive: true)
    let changed = StatusLookupAnswer(version: "v2", isTokenActive: true)
    let revoked = StatusLookupAnswer(version: "v1", isTokenActive: false)

    /// The lookup in flight answered each of its keys with `answer(key)`: the requests answered, by name.
    private func answer(_ lookups: inout Lookups, _ answer: (StatusLookupKey) -> StatusLookupAnswer) -> [String:
        StatusLookupAnswer?]
    {
        let keys = lookups.inFlight?.keys ?? []
        return Dictionary(uniqueKeysWithValues: lookups.answer(keys.map(answer)).map { ($0.request, $0.answer) })
    }

    @Test("one lookup in flight covers every key waiting when it was sent; a request arriving later waits for the next")
    func requestsArrivingInFlightWaitForTheNext() {
        var lookups = Lookups()
        lookups.wait("a1", for: app, arrivedAt: 1)
        lookups.wait("w1", for: web, arrivedAt: 2)
        lookups.wait("a2", for: app, arrivedAt: 2)
        #expect(Set(lookups.send(at: 3) ?? []) == [app, web])
        // Arrived after the lookup was sent: it must not be answered by it, though it is of the same key.
        lookups.wait("a3", for: app, arrivedAt: 4)
        #expect(lookups.confirmed(app, arrivedAt: 4) == nil)
        // While one is in flight, none is sent.
        #expect(lookups.send(at: 5) == nil)
        // The token was revoked after the first lookup ran: only the next one may tell.
        let first = answer(&lookups) { _ in current }
        #expect(first == ["a1": current, "w1": current, "a2": current])
        #expect(lookups.send(at: 6) == [app])
        let second = answer(&lookups) { _ in revoked }
        #expect(second == ["a3": revoked])
        #expect(lookups.send(at: 7) == nil)
    }

    @Test("a request that arrived before the lookup in flight was sent joins it, if it covers its key")
    func requestArrivedBeforeSendingJoins() {
        var lookups = Lookups()
        lookups.wait("a1", for: app, arrivedAt: 1)
        #expect(lookups.send(at: 3) == [app])
        // Read before the lookup was sent, handled after (its connection's earlier reply had to go out first).
        lookups.wait("a2", for: app, arrivedAt: 2)
        // Of a key the lookup does not cover: the next one.
        lookups.wait("w1", for: web, arrivedAt: 2)
        #expect(answer(&lookups) { _ in current } == ["a1": current, "a2": current])
        #expect(lookups.send(at: 4) == [web])
    }

    @Test("an answer holds for requests that arrived before its lookup was sent, never for later ones")
    func confirmationsHoldUpToTheirSending() {
        var lookups = Lookups()
        lookups.wait("a1", for: app, arrivedAt: 1)
        _ = lookups.send(at: 5)
        _ = answer(&lookups) { _ in current }
        #expect(lookups.confirmed(app, arrivedAt: 5) == current)
        #expect(lookups.confirmed(app, arrivedAt: 6) == nil)
        #expect(lookups.confirmed(web, arrivedAt: 1) == nil)
        // A newer lookup's answer replaces it, for requests up to its own sending.
        lookups.wait("a2", for: app, arrivedAt: 6)
        _ = lookups.send(at: 7)
        _ = answer(&lookups) { _ in changed }
        #expect(lookups.confirmed(app, arrivedAt: 7) == changed)
        #expect(lookups.confirmed(app, arrivedAt: 2) == changed)
    }

    @Test("a failed lookup answers its requests nil (the pool path) and confirms nothing")
    func failedLookup() {
        var lookups = Lookups()
        lookups.wait("a1", for: app, arrivedAt: 1)
        _ = lookups.send(at: 2)
        let answered = lookups.answer(nil)
        #expect(answered.map(\.request) == ["a1"] && answered.allSatisfy { $0.answer == nil })
        #expect(lookups.confirmed(app, arrivedAt: 1) == nil)
        #expect(lookups.inFlight == nil && lookups.send(at: 3) == nil)
    }

    /// A request of `app` at 1, a lookup sent at 2, another request at 3, all with `stamp`, and the lookup answered
    /// `current`: the lookups then, and the requests answered.
    private func askedTwice(with stamp: StatusLookupStamp) -> (Lookups, [String: StatusLookupAnswer?]) {
        var lookups = Lookups()
        lookups.wait("a1", for: app, arrivedAt: 1, now: stamp)
        _ = lookups.send(at: 2, stamp: stamp)
        lookups.wait("a2", for: app, arrivedAt: 3, now: stamp)
        let answered = answer(&lookups) { _ in current }
        return (lookups, answered)
    }

    @Test("in sole mode an answer holds for later requests until a write finishes or sole mode is left")
    func soleModeHoldsForLater() {
        let sole = StatusLookupStamp(epoch: 3, generation: 10)
        // Arrived after the lookup was sent, with the same stamp: joined it.
        let (asked, answered) = askedTwice(with: sole)
        var lookups = asked
        #expect(answered == ["a1": current, "a2": current])
        #expect(lookups.waiting.isEmpty)
        // Later requests, same stamp: answered from memory.
        #expect(lookups.confirmed(app, arrivedAt: 100, now: sole) == current)
        // A write of this daemon finished since: not any more (a request that arrived before the sending still is).
        let written = StatusLookupStamp(epoch: 3, generation: 11)
        #expect(lookups.confirmed(app, arrivedAt: 100, now: written) == nil)
        #expect(lookups.confirmed(app, arrivedAt: 2, now: written) == current)
        // Sole mode left, or left and entered again: not any more.
        #expect(lookups.confirmed(app, arrivedAt: 100, now: StatusLookupStamp(epoch: 4, generation: 10)) == nil)
        #expect(lookups.confirmed(app, arrivedAt: 100, now: StatusLookupStamp(epoch: 5, generation: 10)) == nil)
        // A request arriving after the write waits for the next lookup, not the answer of one sent before it.
        lookups.wait("a3", for: app, arrivedAt: 101, now: written)
        #expect(lookups.send(at: 102, stamp: written) == [app])
    }

    @Test("not sole, an answer never holds for a later request, whatever the stamps")
    func notSoleNeverHoldsForLater() {
        let shared = StatusLookupStamp(epoch: 2, generation: 10)
        let (asked, answered) = askedTwice(with: shared)
        var lookups = asked
        #expect(answered == ["a1": current])
        #expect(lookups.confirmed(app, arrivedAt: 3, now: shared) == nil)
        #expect(lookups.send(at: 4, stamp: shared) == [app])
    }
}
