import Testing

@testable import BarkeepServer

@Suite("FailedHelloLimiter")
struct FailedHelloLimiterTests {
    private let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }

    @Test("a peer may fail a burst at once, then one a second; other peers are not held up")
    func burstThenOneASecond() {
        let limiter = FailedHelloLimiter()
        for index in 0..<FailedHelloLimiter.burst {
            #expect(limiter.wait(for: "10.0.0.7:\(40_000 + index)", now: at(0)) == nil)
            _ = limiter.record(peerName: "10.0.0.7:\(40_000 + index)", now: at(0))
        }
        // Another port of the same host is the same peer; another host, or a Unix socket user, is another.
        #expect(limiter.wait(for: "10.0.0.7:50000", now: at(0)) == .seconds(1))
        #expect(limiter.wait(for: "10.0.0.7:50000", now: at(0.75)) == .seconds(0.25))
        #expect(limiter.wait(for: "10.0.0.8:50000", now: at(0)) == nil)
        #expect(limiter.wait(for: "unix:uid=0", now: at(0)) == nil)
        // A second later it may fail once more, and then waits again.
        #expect(limiter.wait(for: "10.0.0.7:50000", now: at(1)) == nil)
        _ = limiter.record(peerName: "10.0.0.7:50000", now: at(1))
        #expect(limiter.wait(for: "10.0.0.7:50000", now: at(1)) == .seconds(1))
        // Left alone, it gets its whole burst back.
        #expect(limiter.wait(for: "10.0.0.7:50000", now: at(30)) == nil)
    }

    @Test("peers are hosts over TCP (IPv6 too) and uids on the Unix socket")
    func peers() {
        #expect(FailedHelloLimiter.host(of: "127.0.0.1:50312") == "127.0.0.1")
        #expect(FailedHelloLimiter.host(of: "[::1]:50312") == "[::1]")
        #expect(FailedHelloLimiter.host(of: "unix:uid=65534") == "unix:uid=65534")
        #expect(FailedHelloLimiter.host(of: "unix") == "unix")
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

    @Test("memory stays bounded: past the peers tracked, new ones share one record and are still limited")
    func boundedPeers() {
        let limiter = FailedHelloLimiter()
        for index in 0..<FailedHelloLimiter.maximumPeers {
            _ = limiter.record(peerName: "10.\(index / 65_536).\(index / 256 % 256).\(index % 256):1", now: at(0))
        }
        // Every tracked peer is short of its burst: newcomers share the record of the others.
        for index in 0..<FailedHelloLimiter.burst {
            _ = limiter.record(peerName: "192.168.0.\(index):1", now: at(0))
        }
        #expect(limiter.wait(for: "192.168.1.1:1", now: at(0)) == .seconds(1))
        // Once the tracked peers have their burst back, they are forgotten and a new peer gets its own record.
        _ = limiter.record(peerName: "172.16.0.1:1", now: at(60))
        #expect(limiter.wait(for: "172.16.0.1:1", now: at(60)) == nil)
    }
}
