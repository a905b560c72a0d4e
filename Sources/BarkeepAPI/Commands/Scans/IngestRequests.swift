import BarkeepCore
import BarkeepProtocol

/// `INGEST PROJECT format=… [commit=SHA [commit-time=ISO8601]] [scope=PREFIX] [force=yes] [renames=N] SIZE` and SIZE
/// bytes: with `renames=N`, the first N are the files renamed since the tool's latest run (`FileRenames`' text), the
/// rest scanner output (or an SDK check).
public struct IngestUploadRequest: CommandRequest {
    /// A scan's counts on the `OK` line alone; an SDK check's `item` records, then its summary before `count`.
    public typealias Reply = OKOrRecordsReply<ScanIngestSummary, ItemChangeRecord, SDKCheckSummary>

    /// The project.
    public var project = ""
    /// What the upload holds.
    public var format = ScanFormat.duoScan
    /// The commit that was scanned.
    public var commit: CommitID?
    /// The commit's committer time (only beside `commit`).
    public var commitTime: CommitTimeText?
    /// The path prefix the scan covered; nil: everything.
    public var scope: String?
    /// Whether to ingest a scan of an old or already ingested commit anyway.
    public var isForced: Bool?
    /// How many bytes at the start of the payload are the renames (`FileRenames.nameStatusText`); nil: none.
    public var renames: Int?

    /// An empty request, filled by decoding.
    public init() {}
    /// An upload of `format` to `project`.
    public init(
        project: String, format: ScanFormat, commit: CommitID? = nil, commitTime: CommitTimeText? = nil,
        scope: String? = nil, isForced: Bool = false
    ) {
        self.project = project
        self.format = format
        self.commit = commit
        self.commitTime = commitTime
        self.scope = scope
        self.isForced = isForced ? true : nil
    }

    /// The command.
    public static let spec = CommandSpec(
        "INGEST", role: Role.leastToIngest, effect: .write(isDestructive: true, isIdempotent: true),
        summary: "Upload a scanner run and sync the project's findings with it, or an SDK check.",
        http: .none(reason: "an upload of a scanner's file, through the CLI or a source"), payload: true)
    /// Its arguments (the upload's size, last, is the table's).
    public static let fields: [Field<IngestUploadRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("format", \.format, "What the upload holds."),
        Field("commit", \.commit, "The commit that was scanned (hexadecimal)."),
        Field(
            "commit-time", \.commitTime,
            "The commit's committer time, ISO 8601 with an offset (2026-11-30T10:00:00+01:00); only with commit."),
        Field("scope", \.scope, "The path prefix the scan covered (default: everything)."),
        Field("force", \.isForced, "Ingest a scan of a commit already ingested or older than the latest run's."),
        Field(
            "renames", \.renames,
            "How many bytes at the start of the upload are the files renamed since the tool's latest run, as git diff "
                + "--name-status --find-renames prints them; the scan follows.",
            check: renamesProblem),
    ]

    /// What is wrong with a `renames` byte count (INGEST's and CHECK's): nil when it is 0 to
    /// `FileRenames.maximumBytes`.
    static func renamesProblem(_ count: Int) -> ValueProblem? {
        (0...FileRenames.maximumBytes).contains(count)
            ? nil : ValueProblem("renames must be 0 to \(FileRenames.maximumBytes) bytes")
    }
}
