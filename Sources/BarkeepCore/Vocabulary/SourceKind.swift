/// What a sync source reads, as `SOURCE ADD` names it, a `source` record's `kind=` carries it and the schema's CHECK
/// lists it.
public enum SourceKind: String, Sendable, CaseIterable {
    /// A drop folder: every complete file put in it is a scan.
    case inbox
    /// A git repository: each new head of a branch is scanned by a command.
    case repo
}
