import BarkeepProtocol

/// A `project` record: PROJECT CREATE, LIST, SHOW and SET.
public struct ProjectRecord: WireFields {
    /// The project's name.
    public var name = ""
    /// The iOS SDK the team builds with.
    public var sdk = ""
    /// The lowest iOS the app supports.
    public var deploymentTarget = ""
    /// The poses every screen must pass.
    public var requiredPoses: [String] = []
    /// When it was created (the database's text).
    public var created = ""

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "project"

    /// The fields, in wire order.
    public static let fields: [Field<ProjectRecord>] = [
        Field("name", \.name, "The project's name."),
        Field("sdk", \.sdk, "The iOS SDK the team builds with."),
        Field("deployment-target", \.deploymentTarget, "The lowest iOS the app supports."),
        Field("required-poses", \.requiredPoses, "The poses every screen must pass (comma-separated on the wire)."),
        Field("created", \.created, "When it was created."),
    ]
}
