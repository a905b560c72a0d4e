/// What a run of a sync source came to, as a source's last outcome, an inbox file's record and a `source.run`
/// event's `to` hold it (the schema's CHECKs list the same values).
public enum SourceRunResult: String, Sendable, CaseIterable {
    /// It ingested a scan (or found one it had ingested before).
    case ok
    /// It ingested nothing: the error says why.
    case failed

    /// `ok` when `isSuccess`, else `failed`.
    public init(isSuccess: Bool) { self = isSuccess ? .ok : .failed }

    /// Whether the run ingested something.
    public var isSuccess: Bool { self == .ok }
}
