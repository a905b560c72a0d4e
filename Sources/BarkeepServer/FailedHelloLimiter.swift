import Synchronization

/// Failed HELLOs per peer, across all its connections: a peer is its uid on a Unix socket, its address over TCP
/// (`host(of:)`). Each peer may fail `burst` HELLOs at once and one more every `refill`; past that, a HELLO with a
/// token is refused at once, its token not even looked at, until the peer may fail again (`wait(for:)`). A peer
/// guessing tokens so guesses one a second instead of thousands, while every other peer is served as before. The
/// same record paces the log: one line a second per peer at most, the next counting those left out.
final class FailedHelloLimiter: Sendable {
    /// A peer's failures.
    private struct Entry {
        /// Failures it may still make now (up to `burst`), as of `updated`.
        var allowance: Double
        var updated: ContinuousClock.Instant
        var lastLogged: ContinuousClock.Instant?
        var suppressed: Int
    }

    /// Failures a peer may make at once.
    static let burst = 20
    /// How often a peer may fail once more.
    static let refill: Duration = .seconds(1)
    /// Peers tracked at most. Past it, peers whose allowance is whole are forgotten; should every one be short, a
    /// new peer shares the record `otherPeers` with the others that found no room, so memory stays bounded and no
    /// peer escapes the limit.
    static let maximumPeers = 4096
    static let otherPeers = "other peers"

    private let entries = Mutex<[String: Entry]>([:])
    private let logInterval: Duration

    /// A limiter logging one line per peer every `logInterval`.
    init(logInterval: Duration = .seconds(1)) { self.logInterval = logInterval }

    /// The peer of a connection named `peerName`: its host (`127.0.0.1:50312` → `127.0.0.1`, `[::1]:50312` →
    /// `[::1]`); Unix-socket peers (`unix:uid=1000`) as they are.
    static func host(of peerName: String) -> String {
        guard !peerName.hasPrefix("unix"), let colon = peerName.lastIndex(of: ":") else { return peerName }
        return String(peerName[..<colon])
    }

    /// How long the peer of `peerName` must wait before a HELLO with a token is looked at; nil when it may now.
    func wait(for peerName: String, now: ContinuousClock.Instant = .now) -> Duration? {
        entries.withLock { entries in
            let key =
                entries[Self.host(of: peerName)] == nil && entries.count >= Self.maximumPeers
                ? Self.otherPeers : Self.host(of: peerName)
            guard var entry = entries[key] else { return nil }
            Self.refill(&entry, now: now)
            entries[key] = entry
            guard entry.allowance < 1 else { return nil }
            return Self.refill * (1 - entry.allowance)
        }
    }

    /// Records a failed HELLO from `peerName` at `now`; returns the number of failures left out of the log since its
    /// last line when this one is to be logged, nil when it is to be left out.
    func record(peerName: String, now: ContinuousClock.Instant = .now) -> Int? {
        entries.withLock { entries in
            var key = Self.host(of: peerName)
            if entries[key] == nil && entries.count >= Self.maximumPeers {
                // Forget the peers that may fail a whole burst again: they are as good as new.
                entries = entries.filter { key, entry in
                    var entry = entry
                    Self.refill(&entry, now: now)
                    return entry.allowance < Double(Self.burst) || key == Self.otherPeers
                }
                if entries.count >= Self.maximumPeers { key = Self.otherPeers }
            }
            var entry =
                entries[key] ?? Entry(allowance: Double(Self.burst), updated: now, lastLogged: nil, suppressed: 0)
            Self.refill(&entry, now: now)
            entry.allowance = max(0, entry.allowance - 1)
            defer { entries[key] = entry }
            if let last = entry.lastLogged, now - last < logInterval {
                entry.suppressed += 1
                return nil
            }
            let suppressed = entry.suppressed
            entry.lastLogged = now
            entry.suppressed = 0
            return suppressed
        }
    }

    /// The allowance regained since the entry was last updated.
    private static func refill(_ entry: inout Entry, now: ContinuousClock.Instant) {
        let regained = (now - entry.updated) / refill
        entry.allowance = min(Double(burst), entry.allowance + max(0, regained))
        entry.updated = now
    }
}
