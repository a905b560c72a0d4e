/// The event loop's timers in one binary min-heap: each entry an instant, the key of what it is for (a connection's
/// poller key, or one of the loop's own) and a generation that tells a current entry from a stale one.
///
/// Entries are never removed early: a connection whose deadline moved on or went away leaves its entry to fire, and
/// the loop then checks it against the connection's current one (`ConnectionMachine.nextDeadline`). Pure (no
/// imports), like the machine whose deadlines it holds; the framer fuzz target compiles it with the machine.
struct DeadlineQueue {
    /// One timer.
    struct Entry: Equatable {
        /// When it fires.
        var at: ContinuousClock.Instant
        /// What it is for.
        var key: UInt64
        /// Which arming of `key` it belongs to.
        var generation: UInt64
    }

    private var heap: [Entry] = []

    /// A queue with no timers.
    init() {}

    /// Whether no timer is set.
    var isEmpty: Bool { heap.isEmpty }

    /// The number of timers set.
    var count: Int { heap.count }

    /// The timer that fires first.
    var first: Entry? { heap.first }

    /// Sets a timer.
    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the first timer when it is due by `now`; nil when none is.
    mutating func popFirst(dueBy now: ContinuousClock.Instant) -> Entry? {
        guard let first = heap.first, first.at <= now else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].at < heap[smallest].at { smallest = left }
            if right < heap.count && heap[right].at < heap[smallest].at { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
