import Testing

@testable import BarkeepServer

@Suite("Deadline queue")
struct DeadlineQueueTests {
    @Test("timers come out in order of their instants, each once, and only when due")
    func order() {
        let start = ContinuousClock.now
        var queue = DeadlineQueue()
        // A fixed shuffle of 0..<97 (37 is prime to 97), with repeats of some instants.
        let offsets = (0..<97).map { ($0 * 37) % 97 } + [5, 5, 60]
        for (index, offset) in offsets.enumerated() {
            queue.insert(DeadlineQueue.Entry(at: start + .milliseconds(offset), key: UInt64(index), generation: 1))
        }
        #expect(queue.count == 100 && queue.first?.at == start)
        #expect(queue.popFirst(dueBy: start - .milliseconds(1)) == nil)
        var fired: [Int] = []
        while let entry = queue.popFirst(dueBy: start + .milliseconds(49)) {
            fired.append(offsets[Int(entry.key)])
        }
        #expect(fired == (0..<50).flatMap { $0 == 5 ? [5, 5, 5] : [$0] })
        while let entry = queue.popFirst(dueBy: start + .seconds(1)) { fired.append(offsets[Int(entry.key)]) }
        #expect(fired == offsets.sorted() && queue.isEmpty)
    }
}
