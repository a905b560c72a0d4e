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
/// by a lookup sent before it arrived: its answer is always read by a statement that ran after it.
///
/// Thread-safety: none; the loop's alone.
struct SharedStatusLookups<Request> {
    typealias Answer = StatusLookupAnswer

    /// What a lookup found for a key, and the mark it was sent at: it holds for requests that arrived by then.
    struct Confirmation {
        var answer: Answer
        var sentAt: UInt64
    }

    /// The lookup in flight: the mark it was sent at, its keys in the order sent, and the requests it answers.
    struct InFlight {
        var sentAt: UInt64
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

    /// The latest answer for `key` when the lookup that found it was sent after a request that arrived at
    /// `arrivedAt`; nil otherwise.
    func confirmed(_ key: StatusLookupKey, arrivedAt: UInt64) -> Answer? {
        guard let confirmation = confirmations[key], confirmation.sentAt >= arrivedAt else { return nil }
        return confirmation.answer
    }

    /// A request of `key` that arrived at `arrivedAt` (not `confirmed`) waits: for the lookup in flight when that was
    /// sent after it arrived and covers its key, otherwise for the next.
    mutating func wait(_ request: Request, for key: StatusLookupKey, arrivedAt: UInt64) {
        if let inFlight, inFlight.sentAt >= arrivedAt, inFlight.requests[key] != nil {
            self.inFlight?.requests[key]?.append(request)
            return
        }
        waiting[key, default: []].append(request)
    }

    /// The keys of the lookup to send now, at mark `mark`, when one is due (requests wait and none is in flight); its
    /// requests are in flight from here on.
    mutating func send(at mark: UInt64) -> [StatusLookupKey]? {
        guard inFlight == nil, !waiting.isEmpty else { return nil }
        let keys = Array(waiting.keys)
        inFlight = InFlight(sentAt: mark, keys: keys, requests: waiting)
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
                confirmations[key] = Confirmation(answer: answer, sentAt: inFlight.sentAt)
            }
            for request in inFlight.requests[key] ?? [] { answered.append((request, answer)) }
        }
        return answered
    }
}
