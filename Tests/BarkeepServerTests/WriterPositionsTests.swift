import BarkeepStore
import Testing

@testable import BarkeepServer

/// The writers' last positions a daemon with a read replica keeps for read-your-writes: bounded, and never a read
/// that may miss its own write.
@Suite("Writer positions")
struct WriterPositionsTests {
    @Test("a writer's position is its latest write; one never seen has none until writers are forgotten")
    func positions() {
        var writers = WriterPositions<String>(capacity: 3)
        #expect(writers.position(of: "token:ci") == nil)
        writers.note(WALPosition(10), by: "token:ci")
        writers.note(WALPosition(5), by: "token:ci")
        #expect(writers.position(of: "token:ci") == WALPosition(10))
        #expect(writers.position(of: "local:root") == nil)
    }

    @Test("past its capacity, the writers forgotten wait for the latest of their writes, never less than their own")
    func bounded() {
        var writers = WriterPositions<Int>(capacity: 100)
        var latest: [Int: UInt64] = [:]
        var random = SystemRandomNumberGenerator()
        for step in 0..<5_000 {
            let writer = Int.random(in: 0..<400, using: &random)
            let position = UInt64(step + 1)
            writers.note(WALPosition(position), by: writer)
            latest[writer] = position
            let short = latest.filter { key, value in writers.position(of: key).map { $0 < WALPosition(value) } ?? true
            }
            #expect(short.isEmpty, "writers waiting for less than their own write at step \(step): \(short)")
        }
        // Never more than its capacity remembered one by one: a writer never seen waits for the floor alone.
        #expect(writers.position(of: 10_000) != nil)
    }
}
