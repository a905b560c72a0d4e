import Foundation
import Testing

@testable import BarkeepServer

@Suite("FailedHelloLimiter")
struct FailedHelloLimiterTests {
    private let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    /// Fails `count` HELLOs of `peerName` at `now`, as the server does: admitted, then recorded.
    private func fail(
        _ limiter: FailedHelloLimiter, _ peerName: String, count: Int = 1, at now: ContinuousClock.Instant
    ) {
        for _ in 0..<count {
            #expect(limiter.admit(peerName, now: now) == nil)
            _ = limiter.record(peerName: peerName, now: now)
        }
    }

    @Test("a peer may fail a burst at once, then one a second; other peers are not held up")
    func burstThenOneASecond() {
        let limiter = FailedHelloLimiter()
        for index in 0..<FailedHelloLimiter.burst { fail(limiter, "10.0.0.7:\(40_000 + index)", at: at(0)) }
        // Another port of the same host is the same peer; another host, or a Unix socket user, is another.
        #expect(limiter.admit("10.0.0.7:50000", now: at(0)) == .seconds(1))
        #expect(limiter.admit("10.0.0.7:50000", now: at(0.75)) == .seconds(0.25))
        #expect(limiter.admit("10.0.0.8:50000", now: at(0)) == nil)
        #expect(limiter.admit("unix:uid=0", now: at(0)) == nil)
        // A second later it may fail once more, and then waits again.
        fail(limiter, "10.0.0.7:50000", at: at(1))
        #expect(limiter.admit("10.0.0.7:50000", now: at(1)) == .seconds(1))
        // Left alone, it gets its whole burst back.
        fail(limiter, "10.0.0.7:50000", count: FailedHelloLimiter.burst, at: at(30))
    }

    @Test("HELLOs still being looked at count against the allowance; a good token gives its share back")
    func admittedHellosCount() {
        let limiter = FailedHelloLimiter()
        // Sent at once on many connections: none has failed yet, and still only a burst is looked at.
        for _ in 0..<FailedHelloLimiter.burst { #expect(limiter.admit("10.0.0.7:1", now: at(0)) == nil) }
        #expect(limiter.admit("10.0.0.7:2", now: at(0)) == .seconds(1))
        // Those that turn out good give back what they took: a good token is not starved by the peer's own HELLOs.
        limiter.giveBack("10.0.0.7:1", now: at(0))
        #expect(limiter.admit("10.0.0.7:2", now: at(0)) == nil)
        let good = FailedHelloLimiter()
        fail(good, "10.0.0.9:1", count: FailedHelloLimiter.burst - 1, at: at(0))
        for _ in 0..<100 {
            #expect(good.admit("10.0.0.9:2", now: at(0)) == nil)
            good.giveBack("10.0.0.9:2", now: at(0))
        }
        fail(good, "10.0.0.9:3", at: at(0))
        #expect(good.admit("10.0.0.9:2", now: at(0)) == .seconds(1))
    }

    @Test("an allowance held by lookups under way is not a refusal: check lets the HELLO through, admitWaiting waits")
    func heldByLookups() {
        let limiter = FailedHelloLimiter()
        for _ in 0..<FailedHelloLimiter.burst { #expect(limiter.admit("10.0.0.7:1", now: at(0)) == nil) }
        #expect(limiter.lookupsInFlight("10.0.0.7:2") == FailedHelloLimiter.burst)
        #expect(limiter.check("10.0.0.7:2", now: at(0)) == nil)
        #expect(limiter.admitWaiting("10.0.0.7:2", patience: .zero) != nil)
        // One good token gives its share back (on another thread, whenever): the waiting HELLO takes it.
        let waiting = Thread { limiter.giveBack("10.0.0.7:1") }
        waiting.start()
        #expect(limiter.admitWaiting("10.0.0.7:2", patience: .seconds(30)) == nil)
        // Every lookup failed: nothing is under way, and the peer has run out.
        for _ in 0..<FailedHelloLimiter.burst { _ = limiter.record(peerName: "10.0.0.7:1") }
        #expect(limiter.lookupsInFlight("10.0.0.7:2") == 0)
        #expect(limiter.check("10.0.0.7:2", now: at(0)) != nil)
    }

    @Test("peers are hosts over IPv4, /64s over IPv6, uids on the Unix socket")
    func peers() {
        #expect(FailedHelloLimiter.peer(of: "127.0.0.1:50312") == "127.0.0.1")
        #expect(FailedHelloLimiter.peer(of: "[::1]:50312") == "[::]/64")
        #expect(FailedHelloLimiter.peer(of: "[2001:db8:a:b:1:2:3:4]:50312") == "[2001:db8:a:b::]/64")
        #expect(FailedHelloLimiter.peer(of: "[2001:db8:a:b::ffff]:1") == "[2001:db8:a:b::]/64")
        #expect(FailedHelloLimiter.peer(of: "[2001:db8:a:c::1]:1") == "[2001:db8:a:c::]/64")
        #expect(FailedHelloLimiter.peer(of: "[2001:db8::1]:1") == "[2001:db8::]/64")
        #expect(FailedHelloLimiter.peer(of: "[2001:0:0:7::1]:1") == "[2001:0:0:7::]/64")
        #expect(FailedHelloLimiter.peer(of: "[::ffff:10.1.2.3]:1") == "10.1.2.3")
        #expect(FailedHelloLimiter.peer(of: "unix:uid=65534") == "unix:uid=65534")
        #expect(FailedHelloLimiter.peer(of: "unix") == "unix")
    }

    @Test("addresses of one IPv6 /64 share an allowance")
    func ipv6Prefix() {
        let limiter = FailedHelloLimiter()
        for index in 0..<FailedHelloLimiter.burst { fail(limiter, "[2001:db8:a:b::\(index + 1)]:1", at: at(0)) }
        #expect(limiter.admit("[2001:db8:a:b:ffff:1:2:3]:1", now: at(0)) == .seconds(1))
        #expect(limiter.admit("[2001:db8:a:c::1]:1", now: at(0)) == nil)
    }

    @Test("the log gets one line a second per peer, the next counting those left out")
    func logPacing() {
        let limiter = FailedHelloLimiter()
        #expect(limiter.record(peerName: "10.0.0.7:1", now: at(0)) == 0)
        #expect(limiter.record(peerName: "10.0.0.7:2", now: at(0.2)) == nil)
        #expect(limiter.record(peerName: "10.0.0.7:3", now: at(0.4)) == nil)
        #expect(limiter.record(peerName: "10.0.0.8:1", now: at(0.4)) == 0)
        #expect(limiter.record(peerName: "10.0.0.7:4", now: at(1.1)) == 2)
    }

    @Test("memory stays bounded, and peers past the bound are not held up by the others' failures")
    func boundedPeers() {
        let limiter = FailedHelloLimiter()
        // A guesser with many addresses drains every record it can; the oldest failed a second before the others.
        for index in 0..<FailedHelloLimiter.maximumPeers {
            let peer = "10.\(index / 65_536).\(index / 256 % 256).\(index % 256):1"
            fail(limiter, peer, count: FailedHelloLimiter.burst, at: at(index == 0 ? 0 : 1))
        }
        #expect(limiter.trackedPeers == FailedHelloLimiter.maximumPeers)
        // A newcomer gets a whole burst of its own, in place of the record with the most allowance back.
        fail(limiter, "192.168.0.1:1", count: FailedHelloLimiter.burst, at: at(1))
        #expect(limiter.trackedPeers == FailedHelloLimiter.maximumPeers)
        #expect(limiter.admit("192.168.0.1:1", now: at(1)) == .seconds(1))
        #expect(limiter.admit("10.0.0.1:1", now: at(1)) == .seconds(1))
        #expect(limiter.admit("10.0.0.0:1", now: at(1)) == nil)
        // Good HELLOs leave nothing behind.
        let good = FailedHelloLimiter()
        for index in 0..<100 {
            #expect(good.admit("172.16.0.\(index):1", now: at(0)) == nil)
            good.giveBack("172.16.0.\(index):1", now: at(0))
        }
        #expect(good.trackedPeers == 0)
    }

    @Test(
        "docs/protocol.md and docs/operations.md state the burst, the refill and the peers tracked as the code has them"
    )
    func documented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let peers = FailedHelloLimiter.maximumPeers
        let tracked = String(format: "%d,%03d peers", peers / 1000, peers % 1000)
        #expect(FailedHelloLimiter.refill == .seconds(1))
        for name in ["docs/protocol.md", "docs/operations.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "\n", with: " ")
            #expect(text.contains("fail \(FailedHelloLimiter.burst) `HELLO`s at once"), "\(name)")
            #expect(text.contains("tracks \(tracked)"), "\(name)")
            #expect(text.contains("/64"), "\(name)")
            #expect(text.contains("up to \(FailedHelloLimiter.lookupPatience.components.seconds) seconds"), "\(name)")
        }
    }
}
