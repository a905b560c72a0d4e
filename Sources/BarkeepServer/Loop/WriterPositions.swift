import BarkeepStore

/// With a read replica: where the primary's log ended after each writer's last write, so that the writer's next
/// reads wait for the replica to replay it (read-your-writes). A writer is a key: a line-protocol principal (its
/// token, or the local user on the Unix socket: every command of one CLI user, each on a connection of its own), or
/// an HTTP client's credentials.
///
/// Bounded at `capacity` writers. Making room forgets the writers remembered so far but keeps the latest of their
/// positions as the `floor` every writer not remembered then waits for: a forgotten writer's read waits for more
/// than its own write, never for less.
///
/// Thread-safety: none; the event loop's thread owns it.
struct WriterPositions<Key: Hashable> {
    private var positions: [Key: WALPosition] = [:]
    private var floor: WALPosition?
    /// The most writers remembered one by one.
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "a writer at least")
        self.capacity = capacity
    }

    /// Where `key`'s next read must find the replica: its last write, or the floor of the forgotten ones.
    func position(of key: Key) -> WALPosition? {
        [positions[key], floor].compactMap { $0 }.max()
    }

    /// `key` wrote up to `position`.
    mutating func note(_ position: WALPosition, by key: Key) {
        if positions[key] == nil, positions.count >= capacity {
            floor = ([floor].compactMap { $0 } + positions.values).max()
            positions.removeAll(keepingCapacity: true)
        }
        positions[key] = max(positions[key] ?? position, position)
    }
}
