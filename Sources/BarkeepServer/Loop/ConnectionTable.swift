/// The loop's connections by id, found with one multiplication.
///
/// A readiness event names its connection by id, and a `Dictionary` finds it by a SipHash of the id: a few percent of
/// the general request path's own work. An id is its own good hash already but for one thing: ids are handed out in
/// sequence, so long-lived connections would fill a run of consecutive slots, and a newer id whose slot falls in that
/// run would walk it on every lookup. Multiplying by 2^64 / φ and keeping the high bits (Fibonacci hashing) scatters
/// consecutive ids over the table. Open addressing with linear probing, kept at most half full; a removal moves the
/// entries after it back, so no tombstones pile up as connections come and go.
struct ConnectionTable<Value> {
    /// Each slot's id (`ConnectionID.rawValue`); 0 marks an empty slot, as no connection has id 0 (the poller key of
    /// the loop's wakeup).
    private var keys: [UInt64]
    private var values: [Value?]
    /// Open connections in the table.
    private(set) var count = 0
    /// 64 − log2(capacity): the bits of the product that are not the slot's.
    private var shift: UInt64

    init() {
        keys = [UInt64](repeating: 0, count: Self.initialCapacity)
        values = [Value?](repeating: nil, count: Self.initialCapacity)
        shift = UInt64(64 - Self.initialCapacity.trailingZeroBitCount)
    }

    static var initialCapacity: Int { 64 }

    var isEmpty: Bool { count == 0 }

    /// The slots there are: a power of two.
    var capacity: Int { keys.count }

    /// Every connection in the table, in no particular order.
    var all: [Value] { values.compactMap { $0 } }

    subscript(id: ConnectionID) -> Value? {
        get {
            guard let index = index(of: id.rawValue) else { return nil }
            return values[index]
        }
        set {
            if let newValue {
                insert(newValue, for: id.rawValue)
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// Removes the connection with `id`; returns it, or nil when the table has none.
    @discardableResult
    mutating func removeValue(forKey id: ConnectionID) -> Value? {
        guard var hole = index(of: id.rawValue) else { return nil }
        let removed = values[hole]
        let mask = keys.count - 1
        // The entries after the hole, up to the next empty slot, move back into it when their home slot lies at or
        // before it (counting round the end): each stays reachable from its home without a tombstone.
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let home = home(of: keys[next])
            if (next - home) & mask >= (next - hole) & mask {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = 0
        values[hole] = nil
        count -= 1
        return removed
    }

    /// The slot where `key`'s probe starts.
    private func home(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The slot where the probe for `id` starts (for tests: ids that share one).
    func homeSlot(of id: ConnectionID) -> Int { home(of: id.rawValue) }

    /// How many slots past its home `id` sits, or nil when the table does not have it (for tests: the probes' length).
    func displacement(of id: ConnectionID) -> Int? {
        index(of: id.rawValue).map { ($0 - home(of: id.rawValue)) & (keys.count - 1) }
    }

    private func index(of key: UInt64) -> Int? {
        precondition(key != 0, "connection id 0 is the wakeup's key")
        let mask = keys.count - 1
        var index = home(of: key)
        while true {
            let found = keys[index]
            if found == key { return index }
            if found == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    private mutating func insert(_ value: Value, for key: UInt64) {
        precondition(key != 0, "connection id 0 is the wakeup's key")
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var index = home(of: key)
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        if keys[index] == 0 { count += 1 }
        keys[index] = key
        values[index] = value
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = [Value?](repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            if let value { insert(value, for: key) }
        }
    }
}
