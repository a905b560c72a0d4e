import BarkeepCore
import BarkeepProtocol

/// `SCREEN ADD PROJECT KEY path=GLOB… [title=] [owner=] [kind=screen|component]`.
public struct ScreenAddRequest: CommandRequest {
    /// The new screen's record, with the findings re-attributed to it.
    public typealias Reply = RecordsReply<ScreenRecord>
    /// The project.
    public var project = ""
    /// The new screen's key.
    public var key = ""
    /// The source path globs it owns.
    public var paths: [String] = []
    /// A title.
    public var title: String?
    /// Who owns it.
    public var owner: String?
    /// A screen (the default) or a component.
    public var kind: AddableScreenKind?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request adding `key` to `project`, owning `paths`.
    public init(
        project: String, key: String, paths: [String], title: String? = nil, owner: String? = nil,
        kind: AddableScreenKind? = nil
    ) {
        self.project = project
        self.key = key
        self.paths = paths
        self.title = title
        self.owner = owner
        self.kind = kind
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN ADD", role: .writer, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Adds a screen or component owning source path globs; the project's findings are re-attributed.",
        http: .post("projects/{project}/screens"))
    /// Its arguments.
    public static let fields: [Field<ScreenAddRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("key", \.key, "The new screen's key.", check: ScreenFieldChecks.screenKey),
        .repeated(
            "path", \.paths, "A source path glob it owns.", isRequired: true, check: ScreenFieldChecks.glob(key: "path")
        ),
        Field("title", \.title, "A title."),
        Field("owner", \.owner, "Who owns it.", check: ScreenFieldChecks.owner),
        Field("kind", \.kind, "screen (the default) or component."),
    ]
}

/// `SCREEN LIST PROJECT [owner=] [not-done=yes] [sort=] [limit=] [kind=]`: the rows a listing picks, in its order.
public struct ScreenListRequest: CommandRequest {
    /// The screens as `barkeep screen list --json` prints them (`ScreenRecord.listJSON`).
    public func jsonBody(of reply: Reply) -> Any { reply.rows.map(\.listJSON) }
    /// An array of `listJSON` objects.
    public static var jsonBodySchema: [String: Any]? { JSONBodySchema.array(ScreenRecord.listJSONSchema) }

    /// A `screen` record per row shown; `OK matched=N count=N`.
    public typealias Reply = SummarizedReply<ScreenRecord, ScreenListSummary>
    /// The project.
    public var project = ""
    /// Only the rows this person owns (`nobody`: those no one owns).
    public var owner: String?
    /// Only the rows not done.
    public var isNotDoneOnly: Bool?
    /// The order.
    public var sort: ScreenOrder?
    /// At most this many rows, after the order.
    public var limit: RowLimit?
    /// Only rows of this kind.
    public var kind: ListedScreenKind?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request listing `project`'s rows.
    public init(
        project: String, owner: String? = nil, isNotDoneOnly: Bool = false, sort: ScreenOrder? = nil,
        limit: RowLimit? = nil, kind: ScreenKind? = nil
    ) {
        self.project = project
        self.owner = owner
        self.isNotDoneOnly = isNotDoneOnly ? true : nil
        self.sort = sort
        self.limit = limit
        self.kind = kind.map(ListedScreenKind.init)
    }

    /// The listing it asks for (Core's rule picks and orders the rows).
    public var listing: ScreenListing {
        ScreenListing(owner: owner, isNotDoneOnly: isNotDoneOnly, sort: sort, limit: limit, kind: kind?.kind)
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN LIST", role: .reader, effect: .read, summary: "A project's screens, components and app area.",
        http: .get("projects/{project}/screens"))
    /// Its arguments.
    public static let fields: [Field<ScreenListRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("owner", \.owner, ScreenListingSummary.owner, check: ScreenFieldChecks.listingOwner),
        Field("not-done", \.isNotDoneOnly, "Only the rows not done."),
        Field("sort", \.sort, ScreenListingSummary.sort),
        Field("limit", \.limit, "At most this many rows, after the order."),
        Field("kind", \.kind, "Only rows of this kind."),
    ]
}

/// SCREEN LIST's `OK` fields before `count`.
public struct ScreenListSummary: WireFields {
    /// How many rows the filters matched, before the limit.
    public var matched = 0
    /// An empty value, filled by decoding.
    public init() {}
    /// The value of `matched` rows.
    public init(matched: Int) { self.matched = matched }
    /// The fields.
    public static let fields: [Field<ScreenListSummary>] = [
        Field("matched", \.matched, "How many rows the filters matched, before the limit.")
    ]
}

/// `SCREEN USES PROJECT KEY COMPONENT[,COMPONENT…] [remove=yes]`: KEY uses each component, or no longer does.
public struct ScreenUsesRequest: CommandRequest {
    /// The screen's (or component's) record after the change.
    public typealias Reply = RecordsReply<ScreenRecord>
    /// The most components one request names.
    public static let maximumUses = 1_000
    /// The project.
    public var project = ""
    /// The screen or component that uses them.
    public var screen = ""
    /// The components' keys or globs, comma-separated.
    public var componentList = ""
    /// It no longer uses them.
    public var isRemoving: Bool?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request saying `screen` uses (or, `isRemoving`, no longer uses) `components`.
    public init(project: String, screen: String, components: [String], isRemoving: Bool = false) {
        self.project = project
        self.screen = screen
        componentList = components.joined(separator: ",")
        self.isRemoving = isRemoving ? true : nil
    }

    /// The components named.
    public var components: [String] {
        componentList.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN USES", role: .writer, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Says that a screen or component uses components (keys or globs), or no longer does.",
        http: .post("projects/{project}/screens/{key}/uses"))
    /// Its arguments.
    public static let fields: [Field<ScreenUsesRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("key", \.screen, "The screen's (or component's) key.", names: .screenKey),
        .argument(
            "component", \.componentList, "Components' keys or globs, comma-separated.",
            check: { list in
                let parts = list.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.allSatisfy({ !$0.isEmpty }), parts.count <= maximumUses else {
                    return ValueProblem(
                        "COMPONENT is a key or a glob, or up to \(maximumUses) of them comma-separated")
                }
                return nil
            }),
        Field("remove", \.isRemoving, "It no longer uses them."),
    ]
}

/// `SCREEN SET PROJECT KEY …` changes one screen; `SCREEN SET PROJECT screens=GLOB [unowned=yes] owner=… poses=…
/// [dry-run=yes]` every row whose key the glob matches (and that no one owns), each taking what its kind allows.
public struct ScreenSetRequest: CommandRequest {
    /// One screen without a dry run: its record with `reattributed`, `OK count=1`; else a row per match with
    /// `changed`, `from-owner`, `from-poses` (and `skipped`, `why`), `OK changed= skipped= [dry-run=yes] count=`.
    public typealias Reply = SummarizedReply<ScreenRecord, ScreenSetSummary>
    /// The project.
    public var project = ""
    /// The screen (not with `screens`).
    public var key: String?
    /// A new title; empty clears it.
    public var title: String?
    /// A new owner; empty clears it.
    public var owner: String?
    /// The globs it owns from now on.
    public var paths: [String] = []
    /// Globs to add.
    public var addPaths: [String] = []
    /// Globs to give up.
    public var removePaths: [String] = []
    /// The poses it must pass: `P1,P3,…`, `none`, or `project` (the project's).
    public var poses: String?
    /// What the row is from now on.
    public var kind: AddableScreenKind?
    /// Every row whose key the glob matches, instead of `key`.
    public var screens: String?
    /// With `screens`: only the rows no one owns.
    public var unowned: Bool?
    /// Report what would change; change nothing.
    public var dryRun: Bool?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request changing `key` (or, nil, the rows `screens` matches) of `project`; set the changes after.
    public init(project: String, key: String?, screens: String? = nil) {
        self.project = project
        self.key = key
        self.screens = screens
    }

    /// Whether nothing is to be stored.
    public var isDryRun: Bool { dryRun ?? false }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN SET", role: .writer, effect: .write(isDestructive: true, isIdempotent: true),
        summary: "Changes a screen's title, owner, kind, paths or required poses, or the owner or poses of many.",
        http: .put("projects/{project}/screens"))
    /// Its arguments.
    public static let fields: [Field<ScreenSetRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("key", \.key, "The screen's key (or screens).", placement: .positional, names: .screenKey),
        Field("title", \.title, "A new title; empty clears it."),
        Field("owner", \.owner, "A new owner; empty clears it.", check: ScreenFieldChecks.owner),
        .repeated("path", \.paths, "The globs it owns from now on.", check: ScreenFieldChecks.glob(key: "path")),
        .repeated("add-path", \.addPaths, "A glob to add.", check: ScreenFieldChecks.glob(key: "add-path")),
        .repeated(
            "remove-path", \.removePaths, "A glob to give up.", check: ScreenFieldChecks.glob(key: "remove-path")),
        Field("poses", \.poses, "P1,P3,…, none, or project (the project's poses)."),
        Field("kind", \.kind, "What the row is from now on."),
        Field("screens", \.screens, "Every row whose key the glob matches (not with a key)."),
        Field("unowned", \.unowned, "yes: with screens, only the rows no one owns."),
        Field("dry-run", \.dryRun, "yes: list what would change, and change nothing."),
    ]
}

/// SCREEN SET's `OK` fields before `count`, over many rows (or a dry run).
public struct ScreenSetSummary: WireFields {
    /// Rows changed (or that would be).
    public var changed = 0
    /// Rows that took part of the change or none, for their kind.
    public var skipped = 0
    /// yes when nothing was stored.
    public var dryRun: Bool?

    /// An empty value, filled by decoding.
    public init() {}

    /// The fields.
    public static let fields: [Field<ScreenSetSummary>] = [
        Field("changed", \.changed, "Rows changed (or that would be)."),
        Field("skipped", \.skipped, "Rows that took part of the change or none, for their kind."),
        Field("dry-run", \.dryRun, "yes when nothing was stored."),
    ]
}

/// `SCREEN REMOVE PROJECT KEY`, or `SCREEN REMOVE PROJECT screens=GLOB`: every screen and component whose key the
/// glob matches (the app area is skipped). With a glob or `dry-run=yes`, a record per picked row with what goes with
/// it and whether it was removed.
public struct ScreenRemoveRequest: CommandRequest {
    /// One screen without a dry run: `OK removed=KEY findings=N`; else a `removal` record per row and `OK findings=
    /// removed= [dry-run=yes] count=`.
    public typealias Reply = OKOrRecordsReply<ScreenRemoved, RemovalRecord, RemovalSummary>
    /// The project.
    public var project = ""
    /// The screen (not with `screens`).
    public var key: String?
    /// Every screen and component whose key the glob matches, instead of `key`.
    public var screens: String?
    /// Report what would be removed; remove nothing.
    public var dryRun: Bool?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request removing `key` (or, nil, the rows `screens` matches) of `project`.
    public init(project: String, key: String?, screens: String? = nil, isDryRun: Bool = false) {
        self.project = project
        self.key = key
        self.screens = screens
        dryRun = isDryRun ? true : nil
    }

    /// Whether nothing is to be removed.
    public var isDryRun: Bool { dryRun ?? false }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN REMOVE", role: .writer, effect: .write(isDestructive: true, isIdempotent: false),
        summary: "Removes a screen, or every screen and component a glob matches, with their steps and poses.",
        http: .delete("projects/{project}/screens"))
    /// Its arguments.
    public static let fields: [Field<ScreenRemoveRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("key", \.key, "The screen's key (or screens).", placement: .positional, names: .screenKey),
        Field("screens", \.screens, "Every screen and component whose key the glob matches (not with a key)."),
        Field("dry-run", \.dryRun, "yes: list what would be removed, and remove nothing."),
    ]
}

/// SCREEN REMOVE's `OK` fields for one screen.
public struct ScreenRemoved: WireFields {
    /// The key removed.
    public var removed = ""
    /// Its findings, gone to other screens or unmapped.
    public var findings = 0
    /// An empty value, filled by decoding.
    public init() {}
    /// The fields.
    public static let fields: [Field<ScreenRemoved>] = [
        Field("removed", \.removed, "The key removed."),
        Field("findings", \.findings, "Its findings, gone to other screens or unmapped."),
    ]
}

/// SCREEN REMOVE's `OK` fields before `count`, over many rows (or a dry run).
public struct RemovalSummary: WireFields {
    /// The findings of the rows removed (or that would be).
    public var findings = 0
    /// Rows removed (or that would be).
    public var removed = 0
    /// yes when nothing was removed.
    public var dryRun: Bool?
    /// An empty value, filled by decoding.
    public init() {}
    /// The fields.
    public static let fields: [Field<RemovalSummary>] = [
        Field("findings", \.findings, "The findings of the rows removed, gone to other screens or unmapped."),
        Field("removed", \.removed, "Rows removed (or that would be)."),
        Field("dry-run", \.dryRun, "yes when nothing was removed."),
    ]
}
