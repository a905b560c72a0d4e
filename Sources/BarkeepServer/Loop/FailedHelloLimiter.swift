import Foundation
import Synchronization

/// Failed HELLOs per peer, across all its connections: a peer is its uid on a Unix socket, its address over TCP —
/// an IPv6 address by its /64, the block one host is given (`peer(of:)`). Each peer may fail `burst` HELLOs at once
/// and one more every `refill`. A HELLO with a token takes one from its peer's allowance before the token is looked
/// at (`admit`) and gives it back when the token is good (`giveBack`), so HELLOs sent at once on many connections
/// are held to the allowance as surely as HELLOs sent one after another; with none left, a HELLO with a token is
/// refused at once, its token not even looked at, until the peer may fail again. A peer guessing tokens so guesses
/// one a second instead of thousands, while every other peer is served as before. The same record paces the log:
/// one line a second per peer at most, the next counting those left out (`record`).
final class FailedHelloLimiter: Sendable {
    /// A peer's failures.
    private struct Entry {
        /// Failures it may still make now (up to `burst`), as of `updated`.
        var allowance: Double
        var updated: ContinuousClock.Instant
        var lastLogged: ContinuousClock.Instant?
        var suppressed: Int
        /// HELLOs admitted whose token is still being looked at: each holds one of the allowance.
        var inFlight = 0
    }

    /// Failures a peer may make at once.
    static let burst = 20
    /// How often a peer may fail once more.
    static let refill: Duration = .seconds(1)
    /// Peers tracked at most, so memory stays bounded. A new peer when they are all tracked takes the place of the
    /// one with the most allowance back (the one that failed least lately): each peer keeps a record of its own, so
    /// no peer's failures ever hold up another.
    static let maximumPeers = 4096
    /// How long a HELLO waits for its peer's lookups under way to give back the share it lacks (`admitWaiting`).
    static let lookupPatience: Duration = .seconds(2)

    private let entries = Mutex<[String: Entry]>([:])
    private let logInterval: Duration

    /// A limiter logging one line per peer every `logInterval`.
    init(logInterval: Duration = .seconds(1)) { self.logInterval = logInterval }

    /// The peers tracked now.
    var trackedPeers: Int { entries.withLock { $0.count } }

    /// The peer of a connection named `peerName`: its host over IPv4 (`127.0.0.1:50312` → `127.0.0.1`), the /64 of
    /// its address over IPv6 (`[2001:db8:1:2:3:4:5:6]:50312` → `[2001:db8:1:2::]/64`; an IPv4-mapped address is
    /// the IPv4 host it maps); Unix-socket peers (`unix:uid=1000`) as they are.
    static func peer(of peerName: String) -> String {
        guard !peerName.hasPrefix("unix"), let colon = peerName.lastIndex(of: ":") else { return peerName }
        let host = String(peerName[..<colon])
        guard host.hasPrefix("["), host.hasSuffix("]") else { return host }
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return host }
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        var groups = stride(from: 0, to: 8, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        while groups.last == 0 { groups.removeLast() }
        return "[" + groups.map { String($0, radix: 16) }.joined(separator: ":") + "::]/64"
    }

    /// Takes one from the allowance of the peer of `peerName` for a HELLO with a token about to be looked at: nil
    /// when taken, or how long the peer must wait before it may fail again (and nothing is taken).
    func admit(_ peerName: String, now: ContinuousClock.Instant = .now) -> Duration? {
        let key = Self.peer(of: peerName)
        return entries.withLock { entries in
            var entry = entries[key] ?? Self.newEntry(in: &entries, now: now)
            Self.refill(&entry, now: now)
            defer { entries[key] = entry }
            guard entry.allowance >= 1 else { return Self.refill * (1 - entry.allowance) }
            entry.allowance -= 1
            entry.inFlight += 1
            return nil
        }
    }

    /// How long the peer of `peerName` must wait before a HELLO with a token may be looked at, nil when one may be
    /// now or when what holds its allowance are lookups still under way (which may give it back); takes nothing.
    /// The event loop asks this to refuse at once a peer that has run out, without queueing its HELLO.
    func check(_ peerName: String, now: ContinuousClock.Instant = .now) -> Duration? {
        let key = Self.peer(of: peerName)
        return entries.withLock { entries in
            guard var entry = entries[key] else { return nil }
            Self.refill(&entry, now: now)
            guard entry.allowance < 1, entry.inFlight == 0 else { return nil }
            return Self.refill * (1 - entry.allowance)
        }
    }

    /// Takes one from the allowance as `admit` does, on a thread that may wait: while what is missing is held by
    /// lookups of the same peer still under way (many good HELLOs at once from one host), it waits for them, up to
    /// `patience`, since a good token gives its share back. Nil when taken, else how long the peer must wait.
    func admitWaiting(
        _ peerName: String, patience: Duration = lookupPatience, clock: ContinuousClock = ContinuousClock()
    ) -> Duration? {
        let deadline = clock.now + patience
        while true {
            let now = clock.now
            guard let wait = admit(peerName, now: now) else { return nil }
            guard now < deadline, lookupsInFlight(peerName) > 0 else { return wait }
            // The lookups it waits for take a millisecond or so each, on other pool threads.
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// The HELLOs of the peer of `peerName` admitted and still being looked at.
    func lookupsInFlight(_ peerName: String) -> Int {
        let key = Self.peer(of: peerName)
        return entries.withLock { $0[key]?.inFlight ?? 0 }
    }

    /// Gives back what `admit` took for a HELLO of `peerName` that did not fail (its token was good, or the lookup
    /// could not be made); a peer back at its whole allowance with nothing left to log is forgotten.
    func giveBack(_ peerName: String, now: ContinuousClock.Instant = .now) {
        let key = Self.peer(of: peerName)
        entries.withLock { entries in
            guard var entry = entries[key] else { return }
            Self.refill(&entry, now: now)
            entry.allowance = min(Double(Self.burst), entry.allowance + 1)
            entry.inFlight = max(0, entry.inFlight - 1)
            let isForgotten = entry.allowance >= Double(Self.burst) && entry.suppressed == 0 && entry.inFlight == 0
            entries[key] = isForgotten ? nil : entry
        }
    }

    /// Records for the log a failed HELLO from `peerName` (its allowance was taken by `admit`) at `now`; returns the
    /// number of failures left out of the log since its last line when this one is to be logged, nil when it is to
    /// be left out.
    func record(peerName: String, now: ContinuousClock.Instant = .now) -> Int? {
        let key = Self.peer(of: peerName)
        return entries.withLock { entries in
            var entry = entries[key] ?? Self.newEntry(in: &entries, now: now)
            entry.inFlight = max(0, entry.inFlight - 1)
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

    /// A peer's first entry, with its whole allowance; when `maximumPeers` are tracked, the one with the most
    /// allowance back makes room.
    private static func newEntry(in entries: inout [String: Entry], now: ContinuousClock.Instant) -> Entry {
        if entries.count >= maximumPeers {
            let roomiest = entries.max { first, second in
                let (one, other) = (regained(first.value, now: now), regained(second.value, now: now))
                return one != other ? one < other : first.value.updated > second.value.updated
            }
            if let roomiest { entries[roomiest.key] = nil }
        }
        return Entry(allowance: Double(burst), updated: now, lastLogged: nil, suppressed: 0)
    }

    /// The allowance an entry has at `now`.
    private static func regained(_ entry: Entry, now: ContinuousClock.Instant) -> Double {
        min(Double(burst), entry.allowance + max(0, (now - entry.updated) / refill))
    }

    /// The allowance regained since the entry was last updated.
    private static func refill(_ entry: inout Entry, now: ContinuousClock.Instant) {
        entry.allowance = regained(entry, now: now)
        entry.updated = now
    }
}
