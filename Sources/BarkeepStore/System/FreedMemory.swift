import CBarkeepSystem

/// Memory that large pieces of work freed, given back to the system rather than kept by malloc.
///
/// glibc's malloc keeps one arena per thread that allocates (up to eight per core). By default its thresholds move
/// with use: once a block of a few megabytes has been freed, blocks up to that size are carved from the arenas rather
/// than mapped apart, and an arena keeps a free top up to twice that size; and `malloc_trim` never shrinks the top of
/// another thread's arena. A sync of a large scan builds its working set (the upload, the parsed findings, the
/// stored ones, the plan) on a pool thread, the loop thread and the parse's thread: freed, it stayed resident in those
/// arenas, until the daemon held about one sync's worth per thread (docs/operations.md, "Memory").
/// `configureAllocator()` fixes the thresholds at start, so that every large block has a mapping of its own that goes
/// when the block does, and `returnToSystem()` after a large ingest releases the free pages left between small
/// blocks.
public enum FreedMemory {
    /// Blocks from this size on get a mapping of their own, and a larger free arena top is given back.
    public static let largeBlock: Int32 = 1 << 20

    /// Uploads at least this large are followed by `returnToSystem()`: below it the working set is small, and the
    /// call (a walk over every arena's free chunks) would cost more than it gives back.
    public static let uploadThreshold = 1 << 20

    /// Fixes malloc's mapping and trimming thresholds at `largeBlock`: call it once, first thing in the process,
    /// before other threads start. Returns whether the C library took them.
    @discardableResult
    public static func configureAllocator() -> Bool {
        barkeep_configure_malloc(largeBlock, largeBlock) == 1
    }

    /// Gives the free pages of every malloc arena back to the system (`malloc_trim(0)`). A few milliseconds; any
    /// thread may call it.
    public static func returnToSystem() {
        _ = barkeep_release_free_memory()
    }
}
