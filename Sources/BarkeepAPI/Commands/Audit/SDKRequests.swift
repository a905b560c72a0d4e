import BarkeepCore
import BarkeepProtocol

/// `SDK SET PROJECT VERSION`: the iOS SDK the team builds with now; unblocks the items whose symbols it declares
/// and blocks those needing one it lacks, in one transaction.
public struct SDKSetRequest: CommandRequest {
    /// An `item` record per item changed, and `OK sdk= previous= unblocked= blocked= count=`.
    public typealias Reply = SummarizedReply<ItemChangeRecord, SDKChange>
    /// The project.
    public var project = ""
    /// The SDK version.
    public var version = NewSDK(SDKVersion(0))

    /// An empty request, filled by decoding.
    public init() {}
    /// A request moving `project` to the SDK `version`.
    public init(project: String, version: SDKVersion) {
        self.project = project
        self.version = NewSDK(version)
    }

    /// The command.
    public static let spec = CommandSpec(
        "SDK SET", role: .admin, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Records the iOS SDK the team builds with now, unblocking what it brings.",
        http: .put("projects/{project}/sdk"))
    /// Its arguments.
    public static let fields: [Field<SDKSetRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("version", \.version, "The SDK version (27.1)."),
    ]
}

/// SDK SET's `OK` fields: the SDK now and before, and how many items it unblocked and blocked.
public struct SDKChange: WireFields, Equatable {
    /// The SDK now.
    public var sdk = ""
    /// The SDK before.
    public var previous = ""
    /// Items that became workable.
    public var unblocked = 0
    /// Items blocked now.
    public var blocked = 0

    /// An empty value, filled by decoding.
    public init() {}
    /// The change from `previous` to `sdk` of `changes`.
    public init(sdk: String, previous: String, changes: [ItemChangeRecord]) {
        self.sdk = sdk
        self.previous = previous
        blocked = changes.filter(\.isBlocked).count
        unblocked = changes.count - blocked
    }

    /// The fields, in wire order.
    public static let fields: [Field<SDKChange>] = [
        Field("sdk", \.sdk, "The SDK now."),
        Field("previous", \.previous, "The SDK before."),
        Field("unblocked", \.unblocked, "Items that became workable."),
        Field("blocked", \.blocked, "Items blocked now."),
    ]
}

/// `BLOCKED PROJECT`: the items blocked on the SDK, by SDK and symbol.
public struct BlockedRequest: CommandRequest {
    /// The blocked items as `barkeep blocked --json` prints them (`BlockedRecord.listJSON`).
    public func jsonBody(of reply: Reply) -> Any { reply.rows.map(\.listJSON) }
    /// An array of `listJSON` objects.
    public static var jsonBodySchema: [String: Any]? { JSONBodySchema.array(BlockedRecord.listJSONSchema) }

    /// A record per item and symbol it waits for.
    public typealias Reply = RecordsReply<BlockedRecord>
    /// The project.
    public var project = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// The blocked items of `project`.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "BLOCKED", role: .reader, effect: .read, summary: "The items blocked on the SDK, by SDK and symbol.",
        http: .get("projects/{project}/blocked"))
    /// Its argument.
    public static let fields: [Field<BlockedRequest>] = [
        .argument("project", \.project, "The project.", names: .project)
    ]
}
