import Testing

@testable import BarkeepServer

@Suite("Connection table")
struct ConnectionTableTests {
    /// A deterministic generator (SplitMix64), so that a failure replays.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    @Test("agrees with a dictionary through connections opened in sequence and closed in any order")
    func agreesWithDictionary() {
        var table = ConnectionTable<String>()
        var expected: [ConnectionID: String] = [:]
        var generator = Generator(state: 29)
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

    @Test("ids that share their low bits all stay reachable as their neighbours are removed")
    func collidingIDs() {
        var table = ConnectionTable<Int>()
        let capacity = UInt64(ConnectionTable<Int>.initialCapacity)
        // Twenty ids with the same home slot, wrapping round the table's end, and their neighbours' ids.
        let colliding = (0..<20).map { ConnectionID(capacity - 2 + UInt64($0) * capacity * 4) }
        let neighbours = (0..<5).map { ConnectionID(capacity + UInt64($0)) }
        for (index, id) in (colliding + neighbours).enumerated() { table[id] = index }
        #expect(table.capacity == Int(capacity))
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
}
