import BarkeepStore

/// The event loop's STATUS lookups, shared as a group commit shares a commit: at most one lookup is in flight, and it
/// covers every project and token that requests wait for when it is sent; the requests that arrive while it is in
/// flight wait for the next one, sent as soon as it returns. So however many clients ask, each costs a share of one
/// database round trip per cycle.
///
/// A lookup answers only requests that had arrived when it was sent — a request's *arrival* is the loop's input mark
/// of the read that brought its bytes (or of its connection's last command finished on the pool, when later:
/// `Connection.inputMark`), and a lookup's *sending* takes a mark of its own. A request is answered at once by the
/// latest answer for its key when that lookup was sent after the request arrived; it joins the lookup in flight when
/// that was sent after it arrived (and covers its key); otherwise it waits for the next. Never is a request answered
/// by a lookup sent before it arrived: its answer is always read by a statement that ran after it — except in sole
/// mode.
///
/// In sole mode (`Presence`: no other daemon serves the database, so every write and revocation goes through this
/// one), a lookup's answer also holds for requests that arrive after it was sent, for as long as the daemon stays
/// sole and none of its writes finishes: a lookup notes the presence's `Stamp` (sole epoch and write generation)
/// when it is sent, and its answer holds for a later request while the stamp is the same and of sole mode. Entering
/// sole mode moves the epoch on, so nothing found before it is used for later requests.
///
/// Thread-safety: none; the loop's alone.
struct SharedStatusLookups<Request> {
    typealias Answer = StatusLookupAnswer

    typealias Stamp = StatusLookupStamp

    /// What a lookup found for a key, the mark it was sent at (it holds for requests that arrived by then), and the
    /// presence's stamp then (it holds for later ones too while the stamp is the same, of sole mode).
    struct Confirmation {
        var answer: Answer
        var sentAt: UInt64
        var stamp: Stamp
    }

    /// The lookup in flight: the mark and stamp it was sent at, its keys in the order sent, and the requests it
    /// answers.
    struct InFlight {
        var sentAt: UInt64
        var stamp: Stamp
        var keys: [StatusLookupKey]
        var requests: [StatusLookupKey: [Request]]
    }

    /// At most this many projects and tokens have a lookup's answer remembered; past it, all are forgotten (and found
    /// again by the next lookups).
    static var maximumConfirmations: Int { 4096 }

    /// Requests waiting for the next lookup, by key.
    private(set) var waiting: [StatusLookupKey: [Request]] = [:]
    /// The lookup sent and not answered yet.
    private(set) var inFlight: InFlight?
    private var confirmations: [StatusLookupKey: Confirmation] = [:]

    /// Whether a lookup sent at `sentAt` with the presence's `stamp` answers for a request that arrived at `arrivedAt`
    /// while the stamp is `now`: sent after it arrived, or in sole mode with nothing changed since it was sent.
    private static func answers(sentAt: UInt64, stamp: Stamp, arrivedAt: UInt64, now: Stamp) -> Bool {
        sentAt >= arrivedAt || now.isSole && stamp == now
    }

    /// The latest answer for `key` when the lookup that found it was sent after a request that arrived at
    /// `arrivedAt`, or with the presence's stamp `now`, of sole mode; nil otherwise.
    func confirmed(_ key: StatusLookupKey, arrivedAt: UInt64, now: Stamp = .none) -> Answer? {
        guard let confirmation = confirmations[key],
            Self.answers(sentAt: confirmation.sentAt, stamp: confirmation.stamp, arrivedAt: arrivedAt, now: now)
        else { return nil }
        return confirmation.answer
    }

    /// Whether the latest answer for `key` holds for requests arriving later too: it was found with the presence's
    /// stamp `now`, of sole mode.
    func holdsLater(_ key: StatusLookupKey, now: Stamp) -> Bool {
        guard now.isSole, let confirmation = confirmations[key] else { return false }
        return confirmation.stamp == now
    }

    /// A request of `key` that arrived at `arrivedAt` (not `confirmed`) waits: for the lookup in flight when that was
    /// sent after it arrived (or with the stamp `now`, of sole mode) and covers its key, otherwise for the next.
    mutating func wait(_ request: Request, for key: StatusLookupKey, arrivedAt: UInt64, now: Stamp = .none) {
        if let inFlight, Self.answers(sentAt: inFlight.sentAt, stamp: inFlight.stamp, arrivedAt: arrivedAt, now: now),
            inFlight.requests[key] != nil
        {
            self.inFlight?.requests[key]?.append(request)
            return
        }
        waiting[key, default: []].append(request)
    }

    /// The keys of the lookup to send now, at mark `mark` with the presence's stamp `stamp`, when one is due
    /// (requests wait and none is in flight); its requests are in flight from here on.
    mutating func send(at mark: UInt64, stamp: Stamp = .none) -> [StatusLookupKey]? {
        guard inFlight == nil, !waiting.isEmpty else { return nil }
        let keys = Array(waiting.keys)
        inFlight = InFlight(sentAt: mark, stamp: stamp, keys: keys, requests: waiting)
        waiting = [:]
        return keys
    }

    /// The lookup in flight answered `answers` (one per key, in the order sent; nil: it failed or was not sent):
    /// each of its requests with its key's answer, remembered for the requests that arrived before it was sent.
    mutating func answer(_ answers: [Answer]?) -> [(request: Request, answer: Answer?)] {
        guard let inFlight else { return [] }
        self.inFlight = nil
        var answered: [(request: Request, answer: Answer?)] = []
        for (index, key) in inFlight.keys.enumerated() {
            let answer = answers.map { $0[index] }
            if let answer, confirmations[key].map({ $0.sentAt < inFlight.sentAt }) ?? true {
                if confirmations.count >= Self.maximumConfirmations { confirmations.removeAll() }
                confirmations[key] = Confirmation(answer: answer, sentAt: inFlight.sentAt, stamp: inFlight.stamp)
            }
            for request in inFlight.requests[key] ?? [] { answered.append((request, answer)) }
        }
        return answered
    }
}

/// The presence's sole epoch and write generation at a moment (`Presence`): equal stamps of sole mode mean no other
/// daemon served the database and no write of this one finished between them.
struct StatusLookupStamp: Equatable {
    var epoch: UInt64
    var generation: UInt64

    /// Not sole: holds for nothing later.
    static let none = StatusLookupStamp(epoch: 0, generation: 0)

    var isSole: Bool { Presence.isSole(epoch) }
}
