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
        summary: "Adds a screen or component owning source path globs; the project's findings are re-attributed.")
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
    public var kind: ScreenKind?

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
        self.kind = kind
    }

    /// The listing it asks for (Core's rule picks and orders the rows).
    public var listing: ScreenListing {
        var listing = ScreenListing()
        listing.owner = owner
        listing.isNotDoneOnly = isNotDoneOnly ?? false
        if let sort { listing.order = sort }
        listing.limit = limit?.value
        listing.kind = kind
        return listing
    }

    /// The command.
    public static let spec = CommandSpec(
        "SCREEN LIST", role: .reader, effect: .read, summary: "A project's screens, components and app area.")
    /// Its arguments.
    public static let fields: [Field<ScreenListRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("owner", \.owner, "Only the rows this person owns.", check: ScreenFieldChecks.listingOwner),
        Field("not-done", \.isNotDoneOnly, "Only the rows not done."),
        Field("sort", \.sort, "key (the default), work or owner."),
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
        summary: "Says that a screen or component uses components (keys or globs), or no longer does.")
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
