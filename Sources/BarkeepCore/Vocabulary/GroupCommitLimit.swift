/// The bounds of a group commit: how many verdicts on single findings (`FINDING SET PROJECT N STATUS`) that arrived
/// while an earlier batch of the same project was committing are written together in one transaction. Their one
/// home.
public enum GroupCommitLimit {
    /// At most this many verdicts in one transaction.
    public static let verdicts = 256
    /// At most this many bytes of the verdicts' text (reasons and actors) in one transaction; a single verdict
    /// larger than that still goes, alone.
    public static let bytes = 1 << 20
}
