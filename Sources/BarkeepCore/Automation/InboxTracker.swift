/// Decides when a file dropped in an inbox directory is complete, so half-written scans are never ingested.
///
/// A file is complete when it was renamed into the directory (the writer wrote it under a temporary name first),
/// or when it is not empty and its size and modification time stayed the same for the settle time. An empty file
/// written in place waits for content however long it stays: `tool > inbox/scan.json` creates the file at once and
/// may write nothing until it ends. Temporary names are never candidates: hidden files (`.name`), and names ending
/// in `.tmp`, `.part`, `.partial`, `.crdownload` or `~`.
/// Pure: the caller reports what it saw and when; the tracker does no I/O.
public struct InboxTracker: Sendable {
    /// What a look at one file showed.
    public struct Observation: Sendable, Equatable {
        /// The file's name in the directory.
        public var name: String
        /// Its size in bytes.
        public var size: Int64
        /// Its modification time in nanoseconds since the epoch.
        public var modified: Int64

        /// Creates an observation.
        public init(name: String, size: Int64, modified: Int64) {
            self.name = name
            self.size = size
            self.modified = modified
        }
    }

    private struct Entry: Sendable {
        var size: Int64
        var modified: Int64
        /// Since when the file has looked like this.
        var since: ContinuousClock.Instant
        var isRenamedIn: Bool
    }

    /// How long a file written in place must stay unchanged.
    public let settle: Duration
    private var entries: [String: Entry] = [:]

    /// A tracker with the given settle time.
    public init(settle: Duration) {
        self.settle = settle
    }

    /// The names of the files being watched, in no order.
    public var candidates: [String] { Array(entries.keys) }

    /// Whether `name` is one a writer uses while the file is incomplete, or not a scan at all.
    public static func isTemporaryName(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        return [".tmp", ".part", ".partial", ".crdownload", "~"].contains { name.hasSuffix($0) }
    }

    /// Records a look at a regular file at `now`. A change of size or time restarts its settle time.
    public mutating func observe(_ observation: Observation, at now: ContinuousClock.Instant) {
        guard !Self.isTemporaryName(observation.name) else { return }
        if let entry = entries[observation.name], entry.size == observation.size,
            entry.modified == observation.modified
        {
            return
        }
        // New, or changed since the last look: it must settle, even after a rename (a rename vouches for the
        // content it brought, not for a write after it).
        entries[observation.name] = Entry(
            size: observation.size, modified: observation.modified, since: now, isRenamedIn: false)
    }

    /// Records that `observation`'s file was just renamed into the directory: complete as it is.
    public mutating func observeRename(_ observation: Observation, at now: ContinuousClock.Instant) {
        guard !Self.isTemporaryName(observation.name) else { return }
        entries[observation.name] = Entry(
            size: observation.size, modified: observation.modified, since: now, isRenamedIn: true)
    }

    /// Stops tracking `name` (ingested, moved away, or gone).
    public mutating func forget(_ name: String) {
        entries[name] = nil
    }

    /// Stops tracking every file whose name is not in `present` (files that disappeared).
    public mutating func keepOnly(_ present: Set<String>) {
        entries = entries.filter { present.contains($0.key) }
    }

    /// The files complete at `now`, by name.
    public func completeFiles(at now: ContinuousClock.Instant) -> [String] {
        entries.filter { isComplete($0.value, at: now) }.keys.sorted()
    }

    /// Whether the file `name` is tracked and complete at `now`.
    public func isComplete(_ name: String, at now: ContinuousClock.Instant) -> Bool {
        entries[name].map { isComplete($0, at: now) } ?? false
    }

    private func isComplete(_ entry: Entry, at now: ContinuousClock.Instant) -> Bool {
        entry.isRenamedIn || (entry.size > 0 && now - entry.since >= settle)
    }

    /// When the next file may become complete, if one is waiting: the caller's next look.
    public func nextDeadline() -> ContinuousClock.Instant? {
        entries.values.filter { !$0.isRenamedIn && $0.size > 0 }.map { $0.since + settle }.min()
    }
}
