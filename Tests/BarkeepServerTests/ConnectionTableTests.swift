import BarkeepTestSupport
import Testing

@testable import BarkeepServer

@Suite("Connection table")
struct ConnectionTableTests {
    @Test("agrees with a dictionary through connections opened in sequence and closed in any order")
    func agreesWithDictionary() {
        var table = ConnectionTable<String>()
        var expected: [ConnectionID: String] = [:]
        var generator = SeededGenerator(seed: 29)
        var nextID: UInt64 = 3
        for step in 0..<20_000 {
            // Mostly opens while young, then as many closes as opens: the table grows, then churns at a size.
            let opens = expected.count < 40 || (step < 5_000 && Bool.random(using: &generator))
            if opens && (expected.isEmpty || Int.random(in: 0..<3, using: &generator) > 0) {
                let id = ConnectionID(nextID)
                nextID += UInt64.random(in: 1...3, using: &generator)
                table[id] = "c\(id.rawValue)"
                expected[id] = "c\(id.rawValue)"
            } else if let id = expected.keys.randomElement(using: &generator) {
                #expect(table.removeValue(forKey: id) == expected.removeValue(forKey: id))
            }
            #expect(table.count == expected.count)
            if step % 97 == 0 {
                for (id, value) in expected { #expect(table[id] == value) }
                #expect(table.all.sorted() == expected.values.sorted())
                // Ids never handed out, or closed: not found.
                #expect(table[ConnectionID(nextID)] == nil && table[ConnectionID(1)] == nil)
            }
        }
        #expect(table.capacity >= 2 * table.count)
    }

    @Test("ids that share a home slot all stay reachable as their neighbours are removed, round the table's end")
    func collidingIDs() {
        var table = ConnectionTable<Int>()
        let capacity = ConnectionTable<Int>.initialCapacity
        // Twenty ids whose probes start at the second-last slot, so that they wrap round the end, and five whose
        // probes start in the first slots, among them.
        let candidates = (1...UInt64(100_000)).map(ConnectionID.init)
        let colliding = Array(candidates.filter { table.homeSlot(of: $0) == capacity - 2 }.prefix(20))
        let neighbours = (0..<5).compactMap { slot in candidates.first { table.homeSlot(of: $0) == slot } }
        #expect(colliding.count == 20 && neighbours.count == 5)
        for (index, id) in (colliding + neighbours).enumerated() { table[id] = index }
        #expect(table.capacity == capacity)
        for removed in stride(from: 0, to: 20, by: 3) {
            #expect(table.removeValue(forKey: colliding[removed]) == removed)
            #expect(table.removeValue(forKey: colliding[removed]) == nil)
        }
        for (index, id) in (colliding + neighbours).enumerated() {
            #expect(table[id] == (index < 20 && index % 3 == 0 ? nil : index))
        }
        table[neighbours[0]] = nil
        #expect(table[neighbours[0]] == nil && table[neighbours[1]] == 21 && table.count == 17)
    }

    @Test("long-lived connections do not make newer ones walk: probes stay short as ids run on past the table's size")
    func shortProbes() {
        var table = ConnectionTable<Int>()
        // A thousand connections that stay (watchers, say), then a hundred thousand that come and go ten at a time.
        for id in 1...UInt64(1_000) { table[ConnectionID(id)] = Int(id) }
        var longest = 0
        for batch in 0..<UInt64(10_000) {
            let ids = (0..<UInt64(10)).map { ConnectionID(1_001 + batch * 10 + $0) }
            for id in ids { table[id] = 0 }
            longest = max(longest, ids.compactMap { table.displacement(of: $0) }.max() ?? 0)
            for id in ids { table[id] = nil }
        }
        let kept = (1...UInt64(1_000)).compactMap { table.displacement(of: ConnectionID($0)) }
        #expect(kept.count == 1_000 && table.count == 1_000)
        // With ids as their own slots, the newer ones landing in the run of the first thousand walked up to 1,000.
        #expect(longest < 40 && (kept.max() ?? 0) < 40, "longest probe \(longest), of the kept \(kept.max() ?? 0)")
    }
}
