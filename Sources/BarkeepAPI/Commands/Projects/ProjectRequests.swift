import BarkeepCore
import BarkeepProtocol

/// The project commands (PROJECT SET is still pending: its reply carries item records).
public enum ProjectAPI {
    /// PROJECT CREATE, LIST, SHOW, SET and DELETE.
    public static let all: [any CommandRequest.Type] = [
        ProjectCreateRequest.self, ProjectListRequest.self, ProjectShowRequest.self, ProjectSetRequest.self,
        ProjectDeleteRequest.self,
    ]
}

/// `PROJECT CREATE NAME [sdk=V] [deployment-target=V]`.
public struct ProjectCreateRequest: CommandRequest {
    /// The new project's record.
    public typealias Reply = RecordsReply<ProjectRecord>
    /// Its name.
    public var name = ""
    /// The iOS SDK the team builds with (default: the store's).
    public var sdk: SDKVersion?
    /// The lowest iOS the app supports (default: the store's).
    public var deploymentTarget: SDKVersion?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request creating `name`.
    public init(name: String, sdk: SDKVersion? = nil, deploymentTarget: SDKVersion? = nil) {
        self.name = name
        self.sdk = sdk
        self.deploymentTarget = deploymentTarget
    }

    /// The command.
    public static let spec = CommandSpec(
        "PROJECT CREATE", role: .admin, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Creates a project (an app under audit).", http: .post("projects"))
    /// Its arguments.
    public static let fields: [Field<ProjectCreateRequest>] = [
        .argument(
            "name", \.name, "The project's name.", names: .project,
            check: { name in
                Names.isValidProject(name)
                    ? nil
                    : ValueProblem(
                        "a project name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
            }),
        Field("sdk", \.sdk, "The iOS SDK the team builds with."),
        Field("deployment-target", \.deploymentTarget, "The lowest iOS the app supports."),
    ]
}

/// `PROJECT LIST`.
public struct ProjectListRequest: CommandRequest {
    /// A record per project, by name.
    public typealias Reply = RecordsReply<ProjectRecord>
    /// The request.
    public init() {}
    /// The command.
    public static let spec = CommandSpec(
        "PROJECT LIST", role: .reader, effect: .read, summary: "Every project.", http: .get("projects"))
    /// No arguments.
    public static let fields: [Field<ProjectListRequest>] = []
}

/// `PROJECT SHOW NAME`.
public struct ProjectShowRequest: CommandRequest {
    /// The project's JSON object (`barkeep project show --json`).
    public func jsonBody(of reply: Reply) -> Any { reply.rows.first?.json ?? [:] }
    /// The record's schema.
    public static var jsonBodySchema: [String: Any]? { ProjectRecord.jsonSchema }

    /// The project's record.
    public typealias Reply = RecordsReply<ProjectRecord>
    /// The project.
    public var name = ""
    /// An empty request, filled by decoding.
    public init() {}
    /// A request showing `name`.
    public init(name: String) { self.name = name }
    /// The command.
    public static let spec = CommandSpec(
        "PROJECT SHOW", role: .reader, effect: .read, summary: "One project.", http: .get("projects/{name}"))
    /// Its argument.
    public static let fields: [Field<ProjectShowRequest>] = [
        .argument("name", \.name, "The project.", names: .project)
    ]
}

/// `PROJECT SET NAME [sdk=V] [deployment-target=V] [poses=P1,P2…]`: at least one of them.
public struct ProjectSetRequest: CommandRequest {
    /// The project's record, then an `item` record per item a new SDK moved.
    public typealias Reply = HeadReply<ProjectRecord, ItemChangeRecord>
    /// The project's name.
    public var name = ""
    /// The iOS SDK the team now builds with.
    public var sdk: SDKVersion?
    /// The lowest iOS the app now supports.
    public var deploymentTarget: SDKVersion?
    /// The poses every screen must now pass.
    public var poses: PoseList?

    /// An empty request, filled by decoding.
    public init() {}
    /// A change of project `name`.
    public init(name: String, sdk: SDKVersion?, deploymentTarget: SDKVersion?, poses: PoseList?) {
        self.name = name
        self.sdk = sdk
        self.deploymentTarget = deploymentTarget
        self.poses = poses
    }

    /// Whether it changes anything (the server refuses a request that does not).
    public var changesSomething: Bool { sdk != nil || deploymentTarget != nil || poses != nil }

    /// The command.
    public static let spec = CommandSpec(
        "PROJECT SET", role: .admin, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Changes a project's SDK, deployment target or required poses; a new SDK unblocks or blocks items.",
        http: .put("projects/{name}"))
    /// Its arguments.
    public static let fields: [Field<ProjectSetRequest>] = [
        .argument("name", \.name, "The project.", names: .project),
        Field("sdk", \.sdk, "The iOS SDK the team now builds with."),
        Field("deployment-target", \.deploymentTarget, "The lowest iOS the app now supports."),
        Field("poses", \.poses, "The poses every screen must now pass, comma-separated."),
    ]
}

/// `PROJECT DELETE NAME`.
public struct ProjectDeleteRequest: CommandRequest {
    /// `OK deleted=NAME`.
    public typealias Reply = OKReply<ProjectDeleted>
    /// The project.
    public var name = ""
    /// An empty request, filled by decoding.
    public init() {}
    /// A request deleting `name`.
    public init(name: String) { self.name = name }
    /// The command.
    public static let spec = CommandSpec(
        "PROJECT DELETE", role: .admin, effect: .write(isDestructive: true, isIdempotent: false),
        summary: "Deletes a project and everything recorded for it; its history stays.",
        http: .delete("projects/{name}"))
    /// Its argument.
    public static let fields: [Field<ProjectDeleteRequest>] = [
        .argument("name", \.name, "The project.", names: .project)
    ]
}

/// PROJECT DELETE's `OK` fields.
public struct ProjectDeleted: WireFields {
    /// The project deleted.
    public var deleted = ""
    /// An empty value, filled by decoding.
    public init() {}
    /// The value naming `deleted`.
    public init(deleted: String) { self.deleted = deleted }
    /// The fields.
    public static let fields: [Field<ProjectDeleted>] = [Field("deleted", \.deleted, "The project deleted.")]
}
