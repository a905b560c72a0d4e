import Synchronization

/// What the dashboard made of a project's status, kept while the status stays the same: a daemon's STATUS replies,
/// encoded. An entry is used only while `StatusStore.version` reads the version it was made at, so a change
/// committed by any daemon (or anything else) writing the database is seen by the next request; nothing is ever
/// invalidated by hand. Bounded in entries and in cost (bytes), the least recently used going first.
///
/// Thread-safe: one lock around the table, never held while the database is asked.
public final class StatusCache<Value: Sendable>: Sendable {
    /// What one entry is for: a project, and a variant of what is made of its status (the request's arguments).
    // Usable from inline code: a hit (`kept`, `noteHit`) is specialized where the value's type is known, at every
    // STATUS, instead of working through the generic dictionary at run time.
    @usableFromInline
    struct Key: Hashable, Sendable {
        @usableFromInline var project: String
        @usableFromInline var variant: String

        @usableFromInline
        init(project: String, variant: String) {
            self.project = project
            self.variant = variant
        }
    }

    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var version: String
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var use: Use
    }

    /// When an entry was last used, on the cache's clock: a hit notes it here, with no lock and no lookup by key.
    public final class Use: Sendable {
        @usableFromInline let lastUse: Atomic<UInt64>

        init(_ time: UInt64) { lastUse = Atomic(time) }
    }

    /// A kept value: its status version, the value, and its entry's use (for `noteHit`).
    public struct Kept: Sendable {
        /// The status version it was made at.
        public var version: String
        /// The value.
        public var value: Value
        /// Its entry's use.
        public var use: Use

        @usableFromInline
        init(version: String, value: Value, use: Use) {
            self.version = version
            self.value = value
            self.use = use
        }
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var entries: [Key: Entry] = [:]
        @usableFromInline var cost = 0
        @usableFromInline var misses = 0
    }

    /// How the cache has answered so far.
    public struct Statistics: Sendable, Equatable {
        /// Answers from an entry whose version was still current.
        public var hits = 0
        /// Answers made from the status (no entry, or one of an older version).
        public var misses = 0
    }

    /// At most this many entries.
    public let maximumEntries: Int
    /// At most this much cost in all; a value costing more is made but not kept.
    public let maximumCost: Int
    private let cost: @Sendable (Value) -> Int
    @usableFromInline let state = Mutex(State())
    /// The cache's clock: every use takes the next tick.
    @usableFromInline let clock = Atomic<UInt64>(0)
    /// Hits so far (`Statistics.hits`).
    @usableFromInline let hits = Atomic<Int>(0)
    /// The bytes of values held past the cache by their users (`holdOutside`), at most `maximumCost`.
    private let heldOutside = Atomic<Int>(0)

    /// An empty cache; `cost` tells what a value costs (its size in bytes).
    public init(maximumEntries: Int, maximumCost: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.maximumEntries = maximumEntries
        self.maximumCost = maximumCost
        self.cost = cost
    }

    /// Reserves `cost` for a value a user keeps beyond the cache (a connection's reply kept for its line), which an
    /// eviction here does not free: false when what is held so would pass the cache's own `maximumCost`, so that such
    /// values never hold more than the cache itself may. `releaseOutside` gives it back.
    public func holdOutside(_ cost: Int) -> Bool {
        var held = heldOutside.load(ordering: .relaxed)
        while held + cost <= maximumCost {
            let (exchanged, original) = heldOutside.compareExchange(
                expected: held, desired: held + cost, ordering: .relaxed)
            if exchanged { return true }
            held = original
        }
        return false
    }

    /// Gives back what `holdOutside` reserved.
    public func releaseOutside(_ cost: Int) {
        heldOutside.subtract(cost, ordering: .relaxed)
    }

    /// What values held beyond the cache (`holdOutside`) cost now.
    public var heldOutsideCost: Int { heldOutside.load(ordering: .relaxed) }

    /// How the cache has answered so far.
    public var statistics: Statistics {
        Statistics(hits: hits.load(ordering: .relaxed), misses: state.withLock { $0.misses })
    }

    /// How many entries, and their cost in all.
    public var usage: (entries: Int, cost: Int) { state.withLock { ($0.entries.count, $0.cost) } }

    /// The value kept for `project` and `variant` with the status version it was made at, whether or not that
    /// version is still current: the caller looks the version up and, when it matches, uses the value and calls
    /// `noteHit`. Counts nothing.
    @inlinable
    public func kept(project: String, variant: String) -> Kept? {
        state.withLock {
            $0.entries[Key(project: project, variant: variant)].map {
                Kept(version: $0.version, value: $0.value, use: $0.use)
            }
        }
    }

    /// Counts the entry of `use` as used (`count` hits): its value was answered after a lookup found its version
    /// current. Takes no lock: an entry gone meanwhile is simply not there to be kept longer.
    @inlinable
    public func noteHit(_ use: Use, count: Int = 1) {
        use.lastUse.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
        hits.add(count, ordering: .relaxed)
    }

    /// What `make` makes of the status of `project` now, for `variant`: the kept value when its version is still the
    /// project's (one lookup of the version), otherwise made from a status read in one snapshot with its version and
    /// kept. Throws what `StatusStore.status` throws (`notFound` for no such project).
    public func value(
        project: String, variant: String, on connection: PostgresConnection,
        make: (ProjectStatus) throws -> Value
    ) throws -> Value {
        // Nil means a token found revoked, and there is none to check here: the status is never read twice.
        try value(project: project, variant: variant, checkingToken: nil, on: connection, make: make)
            ?? make(
                StatusStore.status(project: project, on: connection))
    }

    /// `value(project:variant:on:make:)` for a request made with token `tokenID`, checked in the same statement as the
    /// version (`StatusStore.version(project:checkingToken:on:)`); nil when that token is no longer active.
    public func value(
        project: String, variant: String, checkingToken tokenID: Int64?, on connection: PostgresConnection,
        make: (ProjectStatus) throws -> Value
    ) throws -> Value? {
        let key = Key(project: project, variant: variant)
        let kept = kept(project: project, variant: variant)
        if kept != nil || tokenID != nil {
            let (current, isTokenActive) = try StatusStore.version(
                project: project, checkingToken: tokenID, on: connection)
            guard isTokenActive else { return nil }
            if let kept, current == kept.version {
                noteHit(kept.use)
                return kept.value
            }
        }
        let (status, version) = try StatusStore.versionedStatus(project: project, on: connection)
        let value = try make(status)
        let valueCost = cost(value)
        state.withLock { state in
            state.misses += 1
            if let old = state.entries.removeValue(forKey: key) { state.cost -= old.cost }
            // A project without a version yet (a database the migration has not reached) is never kept.
            guard let version, valueCost <= maximumCost, maximumEntries > 0 else { return }
            while state.entries.count >= maximumEntries || state.cost + valueCost > maximumCost {
                guard
                    let oldest = state.entries.min(by: {
                        $0.value.use.lastUse.load(ordering: .relaxed) < $1.value.use.lastUse.load(ordering: .relaxed)
                    })
                else { break }
                state.entries.removeValue(forKey: oldest.key)
                state.cost -= oldest.value.cost
            }
            let use = Use(clock.add(1, ordering: .relaxed).newValue)
            state.entries[key] = Entry(version: version, value: value, cost: valueCost, use: use)
            state.cost += valueCost
        }
        return value
    }
}
