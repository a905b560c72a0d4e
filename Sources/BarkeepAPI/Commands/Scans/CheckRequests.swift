import BarkeepCore
import BarkeepProtocol

/// `CHECK PROJECT [format=…] [commit=SHA] [branch=NAME] [base=latest|RUN] [scope=PREFIX] [fail-on=SEVERITY]
/// [record=no] [tracked=no] [renames=N] SIZE` and SIZE bytes (the first N the renames, as INGEST's): how the scan stands against the project's tracked findings,
/// written nowhere (at most one `scan.checked` event).
public struct CheckUploadRequest: CommandRequest {
    /// A `check` record per finding (the scan's, then the tracked ones it fixes), then the counts and result on `OK`.
    public typealias Reply = SummarizedReply<CheckRecord, CheckSummary>

    /// The project.
    public var project = ""
    /// What the upload holds: a scan; nil: guessed from it (`ScanFormat.guessed`).
    public var format: ScanFormat?
    /// The commit that was scanned (recorded on the event only).
    public var commit: CommitID?
    /// The branch that was scanned (recorded on the event only).
    public var branch: String?
    /// The tracked state to compare with; nil: the latest.
    public var base: CheckBase?
    /// The path prefix the scan covered; nil: everything.
    public var scope: String?
    /// The severity at or above which a new or reopened finding fails the check; nil: `CheckGate.defaultFailOn`.
    public var failOn: Severity?
    /// Whether the check is recorded as an event; nil: yes.
    public var isRecorded: Bool?
    /// Whether a `check` record comes for each tracked finding the scan still reports; nil: yes. Without them they
    /// are only counted.
    public var includesTracked: Bool?
    /// How many bytes at the start of the payload are the files renamed between the latest run's commit and the scanned
    /// one (`FileRenames.nameStatusText`); nil: none.
    public var renames: Int?

    /// An empty request, filled by decoding.
    public init() {}
    /// A check of an upload of `format` against `project`.
    public init(
        project: String, format: ScanFormat, commit: CommitID? = nil, branch: String? = nil, base: CheckBase? = nil,
        scope: String? = nil, failOn: Severity? = nil, isRecorded: Bool = true, includesTracked: Bool = true
    ) {
        self.project = project
        self.format = format
        self.commit = commit
        self.branch = branch
        self.base = base
        self.scope = scope
        self.failOn = failOn
        self.isRecorded = isRecorded ? nil : false
        self.includesTracked = includesTracked ? nil : false
    }

    /// The command.
    public static let spec = CommandSpec(
        "CHECK", role: .reader, effect: .read,
        summary: "Compare a scan with the project's tracked findings without recording it: new, reopened, tracked, "
            + "changed and fixed findings, and whether the change passes the gate.",
        http: .upload("projects/{project}/check", contentTypes: ["application/json", "application/sarif+json"]),
        payload: true, readsPrimary: true)
    /// Its arguments (the upload's size, last, is the table's).
    public static let fields: [Field<CheckUploadRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("format", \.format, "What the upload holds: duo-scan or sarif (default: guessed from it)."),
        Field("commit", \.commit, "The commit that was scanned (hexadecimal); recorded on the event."),
        Field(
            "branch", \.branch,
            "The branch that was scanned (a git branch name, at most 255 bytes); recorded on the event.",
            check: { name in
                // A git ref name holds no white space or control character: the event's text stays one line.
                name.utf8.count <= 255 && !name.isEmpty
                    && !name.unicodeScalars.contains {
                        $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
                    }
                    ? nil
                    : ValueProblem("branch must be a git branch name: 1 to 255 bytes, no space or control character")
            }),
        Field("base", \.base, "latest (default), or the run whose state to compare with."),
        Field("scope", \.scope, "The path prefix the scan covered (default: everything)."),
        Field("fail-on", \.failOn, "The severity at or above which a new or reopened finding fails (default: high)."),
        Field("record", \.isRecorded, "no: record not even the check's event."),
        Field(
            "tracked", \.includesTracked,
            "no: count the tracked findings the scan still reports, without a record for each."),
        Field(
            "renames", \.renames,
            "How many bytes at the start of the upload are the files renamed between the latest run's commit and the "
                + "scanned one, as git diff --name-status --find-renames prints them; the scan follows.",
            check: IngestUploadRequest.renamesProblem),
    ]
}
