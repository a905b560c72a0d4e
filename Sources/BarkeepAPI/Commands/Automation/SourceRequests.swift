import BarkeepCore
import BarkeepProtocol

/// Sync sources, as their commands declare them: `source` records; LIST and REMOVE for readers and admins, PAUSE,
/// RESUME (and RUN) for writers.
public enum SourceNoun: LeasedNoun {
    /// A `source` record.
    public typealias Record = SourceRecord
    /// `source`.
    public static let noun = "source"

    /// LIST: reader; PAUSE, RESUME: writer; REMOVE: admin.
    public static func role(_ command: LeasedCommand) -> Role {
        switch command {
        case .list: .reader
        case .pause, .resume: .writer
        case .remove: .admin
        }
    }

    /// What each command does.
    public static func summary(_ command: LeasedCommand) -> String {
        switch command {
        case .list: "The sources of a project, or of every project, by id."
        case .pause: "Stops a source's runs until it is resumed; a scan running is stopped."
        case .resume: "Starts a paused source's runs again; it is due at once."
        case .remove: "Deletes a source; the runs it ingested and its history stay."
        }
    }
}

/// `SOURCE LIST [PROJECT]`.
public typealias SourceListRequest = LeasedListRequest<SourceNoun>
/// `SOURCE PAUSE ID`.
public typealias SourcePauseRequest = LeasedStateRequest<SourceNoun, Pausing>
/// `SOURCE RESUME ID`.
public typealias SourceResumeRequest = LeasedStateRequest<SourceNoun, Resuming>
/// `SOURCE REMOVE ID`.
public typealias SourceRemoveRequest = LeasedRemoveRequest<SourceNoun>

/// `SOURCE ADD PROJECT inbox=DIR|repo=PATH …`. The keys are read as the line gives them: which of them go together
/// (exactly one of inbox or repo, the keys of the other kind refused), the durations, sizes and paths are the
/// daemon's to check, in that order, with the messages docs/protocol.md gives.
public struct SourceAddRequest: CommandRequest {
    /// The new source's record.
    public typealias Reply = RecordsReply<SourceRecord>
    /// The project the scans are ingested into.
    public var project = ""
    /// An inbox: the directory watched.
    public var inbox: String?
    /// A repository: its path.
    public var repo: String?
    /// The format of the scans (default duo-scan).
    public var format: String?
    /// An inbox: how long a file written in place must stay unchanged (default 5 s).
    public var settle: String?
    /// A repository: the shell command printing the scan.
    public var scanner: String?
    /// A repository: the branch followed (default main).
    public var branch: String?
    /// A repository: how often its head is checked (default 10 min).
    public var every: String?
    /// A repository: the scanner's time limit (default 10 min).
    public var timeout: String?
    /// A repository: the most output a scanner may write (default 64 MiB).
    public var maximumOutput: String?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request adding a source to `project`; set the keys after.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "SOURCE ADD", role: .admin, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Adds a drop folder or a repository the daemons ingest a project's scans from.",
        http: .post("projects/{project}/sources"))
    /// Its arguments.
    public static let fields: [Field<SourceAddRequest>] = [
        .argument("project", \.project, "The project the scans are ingested into.", names: .project),
        Field("inbox", \.inbox, "Watch this directory (absolute, on the daemon's host); not with repo."),
        Field("repo", \.repo, "Scan each new head of a branch of this git repository; not with inbox."),
        Field("format", \.format, "duo-scan (the default), sarif or sdk-check."),
        Field("settle", \.settle, "Inbox: how long a file written in place must stay unchanged (90, 10m, 1h)."),
        Field("scanner", \.scanner, "Repo (required): the shell command printing the scan; {root} is the checkout."),
        Field("branch", \.branch, "Repo: the branch followed (default main)."),
        Field("every", \.every, "Repo: how often the branch head is checked (default 10m)."),
        Field("timeout", \.timeout, "Repo: the scanner's time limit (default 10m)."),
        Field("max-output", \.maximumOutput, "Repo: the most output a scanner may write (default 64MiB)."),
    ]
}

/// `SOURCE SHOW ID`.
public struct SourceShowRequest: CommandRequest {
    /// The source's record, then its latest events, oldest first.
    public typealias Reply = HeadReply<SourceRecord, EventFields>
    /// The source.
    public var id = LeasedID<SourceNoun>(0)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request showing `id`.
    public init(id: LeasedID<SourceNoun>) { self.id = id }

    /// The command.
    public static let spec = CommandSpec(
        "SOURCE SHOW", role: .reader, effect: .read,
        summary: "A source: its settings, last run, next run and holder, then its latest events.",
        http: .get("sources/{id}"))
    /// Its argument.
    public static let fields: [Field<SourceShowRequest>] = [.argument("id", \.id, "The source's id.")]
}

/// `SOURCE RUN ID`.
public struct SourceRunRequest: LeasedRecordRequest {
    /// The source's record, `run-requested=yes`.
    public typealias Reply = RecordsReply<SourceRecord>
    /// Sources.
    public typealias Noun = SourceNoun
    /// The source.
    public var id = LeasedID<SourceNoun>(0)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request running `id`.
    public init(id: LeasedID<SourceNoun>) { self.id = id }

    /// The command.
    public static let spec = CommandSpec(
        "SOURCE RUN", role: .writer, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Runs a source as soon as its daemon can, even if nothing changed.", http: .post("sources/{id}/run"))
    /// Its argument.
    public static let fields: [Field<SourceRunRequest>] = [.argument("id", \.id, "The source's id.")]
}
