import BarkeepProtocol

/// A `run` record: one scan or SDK check uploaded to a project (RUNS, RUN SHOW). Its JSON view is what
/// `barkeep runs --json` prints for it.
public struct RunRecord: WireFields {
    /// The run's number in its project.
    public var id = 0
    /// The upload's format.
    public var format = ""
    /// The scanner.
    public var tool = ""
    /// The scanner's version, when it said.
    public var toolVersion: String?
    /// The commit scanned, when given.
    public var commit: String?
    /// The scanned commit's committer time (the database's text), when given.
    public var commitTime: String?
    /// The path prefix scanned; nil for the whole project.
    public var scope: String?
    /// Source files the scanner read, when it said.
    public var filesScanned: Int?
    /// Findings the run found new.
    public var new = 0
    /// Findings it no longer reported.
    public var fixed = 0
    /// Fixed findings it reported again.
    public var reopened = 0
    /// Findings reported as before.
    public var unchanged = 0
    /// Findings reported at another line.
    public var moved = 0
    /// Findings whose text changed.
    public var changed = 0
    /// Of the moved findings, those whose file was renamed.
    public var renamed = 0
    /// `renamed` on the wire: optional there, since a daemon from before renames does not send it (0 then).
    var renamedField: Int? {
        get { renamed }
        set { renamed = newValue ?? 0 }
    }
    /// Who uploaded it.
    public var actor = ""
    /// When (the database's text).
    public var ingested = ""
    /// The app lifecycle the scanner detected, when it said.
    public var lifecycle: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "run"

    /// The fields, in wire order.
    public static let fields: [Field<RunRecord>] = [
        Field("id", \.id, "The run's number in its project."),
        Field("format", \.format, "The upload's format."),
        Field("tool", \.tool, "The scanner."),
        Field("tool-version", \.toolVersion, "The scanner's version, when it said."),
        Field("commit", \.commit, "The commit scanned, when given."),
        Field("commit-time", \.commitTime, "The scanned commit's committer time, when given."),
        Field("scope", \.scope, "The path prefix scanned; absent for the whole project."),
        Field("files-scanned", \.filesScanned, "Source files the scanner read, when it said."),
        Field("new", \.new, "Findings the run found new."),
        Field("fixed", \.fixed, "Findings it no longer reported."),
        Field("reopened", \.reopened, "Fixed findings it reported again."),
        Field("unchanged", \.unchanged, "Findings reported as before."),
        Field("moved", \.moved, "Findings reported at another line or in a renamed file."),
        Field("changed", \.changed, "Findings whose text changed."),
        Field("renamed", \.renamedField, "Of the moved findings, those whose file was renamed."),
        Field("actor", \.actor, "Who uploaded it."),
        Field("ingested", \.ingested, "When."),
        Field("lifecycle", \.lifecycle, "The app lifecycle the scanner detected, when it said."),
    ]
}
