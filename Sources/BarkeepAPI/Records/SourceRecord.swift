import BarkeepCore
import BarkeepProtocol

/// A `source` record: SOURCE ADD, LIST, SHOW (first), PAUSE, RESUME and RUN. A field a kind of source does not have
/// is absent (an inbox has no branch), and so are the lease and the last run until there is one.
public struct SourceRecord: LeasedRecord {
    /// Its id.
    public var id = 0
    /// Its project.
    public var project = ""
    /// inbox or repo.
    public var kind = SourceKind.inbox
    /// The format of the scans it reads.
    public var format = ""
    /// active or paused.
    public var state = PauseState.active
    /// An inbox's directory.
    public var inbox: String?
    /// An inbox's settling time, in seconds.
    public var settle: Int?
    /// A repository's path.
    public var repo: String?
    /// The branch a repository source follows.
    public var branch: String?
    /// The command a repository source runs.
    public var scanner: String?
    /// How often a repository's head is checked, in seconds.
    public var every: Int?
    /// The scanner's time limit, in seconds.
    public var timeout: Int?
    /// The most output a scanner may write, in bytes.
    public var maximumOutput: Int?
    /// When it was added (the database's text).
    public var created = ""
    /// Who added it.
    public var createdBy = ""
    /// The daemon holding its lease, while the lease lasts.
    public var holder: String?
    /// Until when.
    public var leaseUntil: String?
    /// When it last ran.
    public var lastRun: String?
    /// What its last run came to.
    public var lastOutcome: SourceRunResult?
    /// Why its last run failed.
    public var lastError: String?
    /// The run its last scan was ingested as.
    public var lastScanRun: Int?
    /// The commit its last scan was of.
    public var lastCommit: String?
    /// Runs failed in a row, once it has run.
    public var failures: Int?
    /// When it runs next, unless paused.
    public var nextRun: String?
    /// true when a run was asked for (`SOURCE RUN`) and has not started; nil otherwise.
    public var isRunRequested: Bool?

    /// An empty record, filled by decoding.
    public init() {}

    /// What it reads, in a few words: `inbox DIR` or `repo PATH @BRANCH`.
    public var target: String {
        if let inbox { return "inbox \(inbox)" }
        return "repo \(repo ?? "") @\(branch ?? "")"
    }

    /// The record's JSON object, as `barkeep source … --json` prints it.
    public var listJSON: [String: Any] { json }

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "source"

    /// The fields, in wire order.
    public static let fields: [Field<SourceRecord>] = [
        Field("id", \.id, "Its id."),
        Field("project", \.project, "Its project."),
        Field("kind", \.kind, "inbox or repo."),
        Field("format", \.format, "The format of the scans it reads."),
        Field("state", \.state, QuantityText.choices(PauseState.self) + "."),
        Field("inbox", \.inbox, "An inbox's directory."),
        Field("settle", \.settle, "An inbox's settling time, in seconds."),
        Field("repo", \.repo, "A repository's path."),
        Field("branch", \.branch, "The branch a repository source follows."),
        Field("scanner", \.scanner, "The command a repository source runs."),
        Field("every", \.every, "How often a repository's head is checked, in seconds."),
        Field("timeout", \.timeout, "The scanner's time limit, in seconds."),
        Field("max-output", \.maximumOutput, "The most output a scanner may write, in bytes."),
        Field("created", \.created, "When it was added."),
        Field("created-by", \.createdBy, "Who added it."),
        Field("holder", \.holder, "The daemon holding its lease; absent when none does."),
        Field("lease-until", \.leaseUntil, "Until when the holder holds it."),
        Field("last-run", \.lastRun, "When it last ran; absent: never."),
        Field("last-outcome", \.lastOutcome, "What its last run came to."),
        Field("last-error", \.lastError, "Why its last run failed."),
        Field("last-scan-run", \.lastScanRun, "The run its last scan was ingested as."),
        Field("last-commit", \.lastCommit, "The commit its last scan was of."),
        Field("failures", \.failures, "Runs failed in a row; absent until it has run."),
        Field("next-run", \.nextRun, "When it runs next; absent while paused."),
        Field("run-requested", \.isRunRequested, "yes when a run was asked for and has not started."),
    ]
}
