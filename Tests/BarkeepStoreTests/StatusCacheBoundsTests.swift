import BarkeepStore
import BarkeepTestSupport
import Testing

/// `StatusCache` keeps at most its entries and cost, least recently used going first, and never a value costing
/// more than all it may hold.
@Suite("Kept statuses: bounds")
struct StatusCacheBoundsTests {
    @Test("values held beyond the cache (connections' kept lines) never cost more in all than the cache may hold")
    func heldOutside() {
        let cache = StatusCache<[UInt8]>(maximumEntries: 2, maximumCost: 10) { $0.count }
        #expect(cache.holdOutside(4) && cache.holdOutside(6))
        #expect(!cache.holdOutside(1))
        #expect(cache.heldOutsideCost == 10)
        cache.releaseOutside(4)
        #expect(!cache.holdOutside(5))
        #expect(cache.holdOutside(4))
        cache.releaseOutside(4)
        cache.releaseOutside(6)
        #expect(cache.heldOutsideCost == 0)
        #expect(!cache.holdOutside(11))
    }

    @Test("entries and cost are bounded, the least recently used goes first, an oversized value is not kept")
    func bounds() throws {
        let connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "t", on: connection)
        let cache = StatusCache<[UInt8]>(maximumEntries: 2, maximumCost: 10) { $0.count }
        var made = 0
        func value(_ variant: String, size: Int) throws -> [UInt8] {
            try cache.value(project: "app", variant: variant, on: connection) { _ in
                made += 1
                return [UInt8](repeating: 1, count: size)
            }
        }
        _ = try value("a", size: 4)
        _ = try value("b", size: 4)
        _ = try value("a", size: 4)  // kept: "a" is now the most recently used
        #expect(made == 2 && cache.usage.entries == 2 && cache.usage.cost == 8)
        _ = try value("c", size: 4)  // over two entries: "b" goes
        _ = try value("a", size: 4)
        #expect(made == 3)
        _ = try value("b", size: 4)
        #expect(made == 4 && cache.usage.entries == 2)
        _ = try value("d", size: 8)  // over the cost: both others go
        #expect(cache.usage.entries == 1 && cache.usage.cost == 8)
        _ = try value("e", size: 11)  // more than the whole cache: made, not kept
        _ = try value("e", size: 11)
        #expect(made == 7 && cache.usage.entries == 1)
        #expect(cache.statistics.hits == 2 && cache.statistics.misses == 7)
        // Any write of what STATUS shows makes the kept value old.
        _ = try value("d", size: 8)
        _ = try ProjectStore.update(name: "app", sdk: "27.1", actor: "t", on: connection)
        _ = try value("d", size: 8)
        #expect(made == 8)
    }
}
