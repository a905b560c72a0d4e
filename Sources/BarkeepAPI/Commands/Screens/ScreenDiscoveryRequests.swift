import BarkeepCore
import BarkeepProtocol

/// `SCREEN DISMISS PROJECT KEY [undo=yes]`: discovery no longer proposes KEY, or again does.
public struct ScreenDismissRequest: CommandRequest {
    /// `OK dismissed=KEY`, or `OK undismissed=KEY`.
    public typealias Reply = OKReply<ScreenDismissed>
    /// The project.
    public var project = ""
    /// The key discovery proposes.
    public var key = ""
    /// Let discovery propose it again.
    public var isUndoing: Bool?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request dismissing `key` (or, `isUndoing`, no longer).
    public init(project: String, key: String, isUndoing: Bool = false) {
        self.project = project
        self.key = key
        self.isUndoing = isUndoing ? true : nil
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN DISMISS", role: .writer, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Keeps discovery from proposing a screen key again, or lets it.",
        http: .post("projects/{project}/dismissals"))
    /// Its arguments.
    public static let fields: [Field<ScreenDismissRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("key", \.key, "The key discovery proposes.", names: .screenKey),
        Field("undo", \.isUndoing, "Let discovery propose it again."),
    ]
}

/// SCREEN DISMISS's `OK` field: the key, under `dismissed` or `undismissed`.
public struct ScreenDismissed: WireFields {
    /// The key dismissed.
    public var dismissed: String?
    /// The key discovery may propose again.
    public var undismissed: String?
    /// An empty value, filled by decoding.
    public init() {}
    /// The fields.
    public static let fields: [Field<ScreenDismissed>] = [
        Field("dismissed", \.dismissed, "The key dismissed."),
        Field("undismissed", \.undismissed, "The key discovery may propose again (undo=yes)."),
    ]
}

/// `SCREEN DISMISSALS PROJECT`: the keys discovery does not propose.
public struct ScreenDismissalsRequest: CommandRequest {
    /// A record per key dismissed.
    public typealias Reply = RecordsReply<DismissalRecord>
    /// The project.
    public var project = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// A request listing `project`'s dismissed keys.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN DISMISSALS", role: .reader, effect: .read, summary: "The screen keys discovery does not propose.",
        http: .get("projects/{project}/dismissals"))
    /// Its argument.
    public static let fields: [Field<ScreenDismissalsRequest>] = [
        .argument("project", \.project, "The project.", names: .project)
    ]
}

/// `SCREEN EXCLUDE PROJECT PATH[,PATH…] [why=TEXT] [undo=yes]`: the paths are excluded from the audit, or no longer.
public struct ScreenExcludeRequest: CommandRequest {
    /// An `exclusion` record per path changed; `OK excluded=N` (or `included=N`) `count=N`.
    public typealias Reply = SummarizedReply<ExclusionRecord, ExclusionSummary>
    /// The project.
    public var project = ""
    /// The paths, comma-separated.
    public var pathList = ""
    /// Why they are left out of the audit.
    public var why: String?
    /// Include them again.
    public var isUndoing: Bool?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request excluding `paths` (or, `isUndoing`, including them again).
    public init(project: String, paths: [String], why: String? = nil, isUndoing: Bool = false) {
        self.project = project
        pathList = paths.joined(separator: ",")
        self.why = why
        self.isUndoing = isUndoing ? true : nil
    }

    /// The paths named.
    public var paths: [String] {
        pathList.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN EXCLUDE", role: .writer, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Excludes directories or files from the audit, or includes them again.",
        http: .post("projects/{project}/exclusions"))
    /// Its arguments.
    public static let fields: [Field<ScreenExcludeRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("path", \.pathList, "Directories or files, comma-separated."),
        Field("why", \.why, "Why they are left out of the audit."),
        Field("undo", \.isUndoing, "Include them again (takes no why)."),
    ]
}

/// SCREEN EXCLUDE's `OK` fields before `count`: how many paths changed, under `excluded` or `included`.
public struct ExclusionSummary: WireFields {
    /// Paths excluded.
    public var excluded: Int?
    /// Paths included again.
    public var included: Int?
    /// An empty value, filled by decoding.
    public init() {}
    /// The fields.
    public static let fields: [Field<ExclusionSummary>] = [
        Field("excluded", \.excluded, "Paths excluded."),
        Field("included", \.included, "Paths included again (undo=yes)."),
    ]
}

/// `SCREEN EXCLUSIONS PROJECT`: the paths excluded from the audit, by path.
public struct ScreenExclusionsRequest: CommandRequest {
    /// An `exclusion` record per path.
    public typealias Reply = RecordsReply<ExclusionRecord>
    /// The project.
    public var project = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// A request listing `project`'s excluded paths.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN EXCLUSIONS", role: .reader, effect: .read, summary: "The paths excluded from the audit.",
        http: .get("projects/{project}/exclusions"))
    /// Its argument.
    public static let fields: [Field<ScreenExclusionsRequest>] = [
        .argument("project", \.project, "The project.", names: .project)
    ]
}
