import BarkeepCore
import BarkeepProtocol

/// The `OK` fields of a scan's INGEST: `run=N new=N fixed=N reopened=N unchanged=N moved=N changed=N renamed=N
/// open=N repeat=yes|no`, what this upload changed (a repeat changed nothing, whatever its run's counts say).
public struct ScanIngestSummary: WireFields, Equatable {
    /// The run's number in the project.
    public var run = 0
    /// How many findings each transition touched (Core's counts of a sync).
    public var counts = SyncCounts()
    /// The project's findings that need work now.
    public var open = 0
    /// Whether the run already had this content (nothing changed).
    public var isRepeat = false
    /// `renamed` on the wire: optional there, since a daemon from before renames does not send it (0 then).
    var renamedField: Int? {
        get { counts.renamed }
        set { counts.renamed = newValue ?? 0 }
    }

    /// An empty summary, filled by decoding.
    public init() {}

    /// The fields, in wire order.
    public static let fields: [Field<ScanIngestSummary>] = [
        Field("run", \.run, "The run's number in the project."),
        Field("new", \.counts.new, "Findings it found new."),
        Field("fixed", \.counts.fixed, "Findings it no longer reported."),
        Field("reopened", \.counts.reopened, "Fixed findings it reported again."),
        Field("unchanged", \.counts.unchanged, "Findings reported as before."),
        Field("moved", \.counts.moved, "Of those, findings reported at another line or in a renamed file."),
        Field("changed", \.counts.changed, "Findings whose text changed."),
        Field("renamed", \.renamedField, "Of the moved findings, those whose file was renamed."),
        Field("open", \.open, "The project's findings that need work now."),
        Field("repeat", \.isRepeat, "Whether the run already had this content: nothing changed."),
    ]
}
