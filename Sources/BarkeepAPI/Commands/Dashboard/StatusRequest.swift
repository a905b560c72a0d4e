import BarkeepCore
import BarkeepProtocol

/// `STATUS PROJECT [owner=] [not-done=yes] [sort=] [limit=]`: the dashboard, one snapshot of the project; the
/// listing keys choose the screen rows (and the owner rows, for `owner=`), never the totals.
public struct StatusRequest: CommandRequest {
    /// Typed records, compact from protocol 3.
    public typealias Reply = StatusReply
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

    /// An empty request, filled by decoding.
    public init() {}
    /// The status of `project`, every row.
    public init(project: String) { self.project = project }

    /// The listing it asks for (Core's rule picks and orders the rows).
    public var listing: ScreenListing {
        ScreenListing(owner: owner, isNotDoneOnly: isNotDoneOnly, sort: sort, limit: limit)
    }

    /// The command.
    public static let spec = CommandSpec(
        "STATUS", role: .reader, effect: .read, summary: "The dashboard: one snapshot of the project.",
        http: .get("projects/{project}/status"))
    /// Its arguments.
    public static let fields: [Field<StatusRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("owner", \.owner, ScreenListingSummary.owner, check: ScreenFieldChecks.listingOwner),
        Field("not-done", \.isNotDoneOnly, "Only the rows not done."),
        Field("sort", \.sort, ScreenListingSummary.sort),
        Field("limit", \.limit, "At most this many rows, after the order."),
    ]
}

/// STATUS's records, part by part, in wire order.
public struct StatusParts: TypedParts, Equatable {
    /// The project.
    public var project = StatusProjectPart()
    /// The last run; none before the first scan.
    public var scans: [StatusScanPart] = []
    /// The totals.
    public var totals = StatusTotalsPart()
    /// The items blocked, by the SDK that would unblock them.
    public var blocked: [StatusBlockedPart] = []
    /// A row per owner.
    public var owners: [StatusOwnerPart] = []
    /// The listing asked for.
    public var selection = StatusSelectionPart()
    /// A row per screen shown.
    public var screens: [StatusScreenPart] = []
    /// The unmapped findings.
    public var unmapped = StatusUnmappedPart()

    /// No records, filled by decoding.
    public init() {}

    /// The parts, in wire order.
    public static let parts: [TypedPart<StatusParts>] = [
        .one("project", \.project), .many("scan", \.scans), .one("totals", \.totals), .many("blocked", \.blocked),
        .many("owner", \.owners), .one("selection", \.selection), .many("screen", \.screens),
        .one("unmapped", \.unmapped),
    ]
}

/// STATUS's reply: its typed records, compacted from protocol 3 (`CompactRecords`: counters that are zero, and
/// sums the client can work out, left out) and expanded again when read.
public struct StatusReply: CommandReply {
    /// `barkeep status --json`'s object (`StatusParts.statusJSON`).
    public var jsonBody: Any { parts.statusJSON }
    /// `statusJSON`'s schema.
    public static var jsonBodySchema: [String: Any]? { StatusParts.statusJSONSchema }
    /// The records, part by part.
    public var parts: StatusParts

    /// A reply of `parts`.
    public init(_ parts: StatusParts) { self.parts = parts }

    /// The records, compact from protocol 3.
    public func reply(version: Int) -> Reply {
        var records = parts.records(version: version)
        if CompactRecords.applies(to: StatusRequest.spec.name, version: version) {
            records = records.map(CompactRecords.compacted)
        }
        return .records(records)
    }

    /// The records, expanded (an expanded record is left as it is), read part by part.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        let expanded = CompactRecords.expanded(records, verb: StatusRequest.spec.name)
        parts = try TypedReply<StatusParts, NoFields>(
            records: expanded, final: final, version: version, command: command
        ).parts
    }

    /// An example.
    public static var example: StatusReply { StatusReply(TypedReply<StatusParts, NoFields>.example.parts) }
    /// The parts' record types.
    public static var recordTypes: [any WireFields.Type] { StatusParts.parts.map(\.recordType) }
}
