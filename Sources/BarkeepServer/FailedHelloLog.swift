import Synchronization

/// Decides which failed HELLOs are logged: at most one line a second per peer host, the next line counting the
/// ones left out, so a client guessing tokens cannot flood the log.
final class FailedHelloLog: Sendable {
    /// What was logged last for a peer, and what was left out since.
    private struct Entry {
        var lastLogged: ContinuousClock.Instant
        var suppressed: Int
    }

    /// Peers tracked at most; older entries are dropped past it.
    private static let maximumPeers = 4096

    private let entries = Mutex<[String: Entry]>([:])
    private let interval: Duration

    /// A log allowing one line per peer every `interval`.
    init(interval: Duration = .seconds(1)) { self.interval = interval }

    /// The host part of a peer name (`127.0.0.1:50312` → `127.0.0.1`); Unix-socket peers as they are.
    static func host(of peerName: String) -> String {
        guard !peerName.hasPrefix("unix:"), let colon = peerName.lastIndex(of: ":") else { return peerName }
        return String(peerName[..<colon])
    }

    /// Records a failure from `peerName` at `now`; returns the number of failures left out since the last line when
    /// this one is to be logged, nil when it is to be left out.
    func record(peerName: String, now: ContinuousClock.Instant = .now) -> Int? {
        let host = Self.host(of: peerName)
        return entries.withLock { entries in
            if var entry = entries[host] {
                guard now - entry.lastLogged >= interval else {
                    entry.suppressed += 1
                    entries[host] = entry
                    return nil
                }
                entries[host] = Entry(lastLogged: now, suppressed: 0)
                return entry.suppressed
            }
            if entries.count >= Self.maximumPeers {
                entries = entries.filter { now - $0.value.lastLogged < interval }
                if entries.count >= Self.maximumPeers { entries.removeAll() }
            }
            entries[host] = Entry(lastLogged: now, suppressed: 0)
            return 0
        }
    }
}
