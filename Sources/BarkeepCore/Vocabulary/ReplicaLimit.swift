/// The defaults of reads from a streaming replica (`barkeepd --read-database-url`): the one home of each, for the
/// daemon's options, its help and docs/operations.md.
public enum ReplicaLimit {
    /// How far behind the primary the replica may be, as time, before reads go to the primary (--max-replica-lag).
    public static let defaultMaximumLag: Duration = .seconds(5)
    /// The values --max-replica-lag accepts, in milliseconds.
    public static let maximumLagMilliseconds: ClosedRange<Int> = 10...3_600_000
    /// How long a read of a client that has just written waits for the replica to replay that write before it reads
    /// the primary instead (--replica-wait).
    public static let defaultCatchUpWait: Duration = .milliseconds(250)
    /// The values --replica-wait accepts, in milliseconds (0: read the primary at once).
    public static let catchUpWaitMilliseconds: ClosedRange<Int> = 0...10_000
    /// How often the daemon compares the replica's replayed position with the primary's, and so measures its lag.
    public static let probeInterval: Duration = .milliseconds(200)
    /// The longest wait between two attempts to reach a replica that is down: the wait doubles from
    /// `probeInterval` up to this.
    public static let maximumRetryDelay: Duration = .seconds(3)
    /// How many writers (line-protocol principals; HTTP clients, apart) a daemon remembers the last write of, for
    /// read-your-writes; past it, the ones forgotten wait for the latest of their writes.
    public static let rememberedWriters = 10_000
}
