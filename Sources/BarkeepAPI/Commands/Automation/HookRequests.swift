import BarkeepCore
import BarkeepProtocol

/// Webhooks, as their commands declare them: `hook` records; every command admin only (a hook sends the project's
/// events, and a secret, to wherever its URL says).
public enum HookNoun: LeasedNoun {
    /// A `hook` record.
    public typealias Record = HookRecord
    /// `hook`.
    public static let noun = "hook"

    /// Admin, for every command.
    public static func role(_ command: LeasedCommand) -> Role { .admin }

    /// What each command does.
    public static func summary(_ command: LeasedCommand) -> String {
        switch command {
        case .list: "The webhooks of a project, or of every project, by id; never their secrets."
        case .pause: "Pauses a webhook by hand; its cursor stays, so nothing that matches meanwhile is lost."
        case .resume: "Resumes a paused webhook: it delivers again from its cursor."
        case .remove: "Removes a webhook: nothing more is sent to it."
        }
    }
}

/// `HOOK LIST [PROJECT]`.
public typealias HookListRequest = LeasedListRequest<HookNoun>
/// `HOOK PAUSE ID`.
public typealias HookPauseRequest = LeasedStateRequest<HookNoun, Pausing>
/// `HOOK RESUME ID`.
public typealias HookResumeRequest = LeasedStateRequest<HookNoun, Resuming>
/// `HOOK REMOVE ID`.
public typealias HookRemoveRequest = LeasedRemoveRequest<HookNoun>

/// `HOOK ADD PROJECT URL [kinds=K,…] [screen=KEY] [secret=S] [format=json|slack]`. The URL and the keys are read as
/// the line gives them and checked by the daemon in that order (URL, kinds, screen, secret, format), with the
/// messages docs/protocol.md gives.
public struct HookAddRequest: CommandRequest {
    /// The new hook's record.
    public typealias Reply = RecordsReply<HookRecord>
    /// The project whose events are sent.
    public var project = ""
    /// Where they are POSTed: http:// or https://.
    public var url = ""
    /// Only events of these kinds, comma-separated.
    public var kinds: String?
    /// Only events about this screen, component, app or unmapped, or counting for it.
    public var screen: String?
    /// The signing secret.
    public var secret: String?
    /// json (the default) or slack.
    public var format: String?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request adding a hook to `project` POSTing to `url`; set the keys after.
    public init(project: String, url: String) {
        self.project = project
        self.url = url
    }

    /// The command.
    public static let spec = CommandSpec(
        "HOOK ADD", role: .admin, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Adds a webhook: every matching event of the project from now on is POSTed to its URL.",
        http: .post("projects/{project}/hooks"))
    /// Its arguments.
    public static let fields: [Field<HookAddRequest>] = [
        .argument("project", \.project, "The project whose events are sent.", names: .project),
        .argument("url", \.url, "Where the events are POSTed: http:// or https://."),
        Field("kinds", \.kinds, "Only events of these kinds, comma-separated."),
        Field("screen", \.screen, "Only events about this screen, component, app or unmapped, or counting for it."),
        Field("secret", \.secret, "Sign each body with this secret (HMAC-SHA256)."),
        Field("format", \.format, "json (the event, the default) or slack."),
    ]
}

/// `HOOK TEST ID`.
public struct HookTestRequest: CommandRequest {
    /// The `test` record.
    public typealias Reply = RecordsReply<HookTestRecord>
    /// The hook.
    public var id = LeasedID<HookNoun>(0)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request testing `id`.
    public init(id: LeasedID<HookNoun>) { self.id = id }

    /// The command.
    public static let spec = CommandSpec(
        "HOOK TEST", role: .admin, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "POSTs a hook.test event to a webhook now and answers with the receiver's answer.",
        http: .post("hooks/{id}/test"))
    /// Its argument.
    public static let fields: [Field<HookTestRequest>] = [.argument("id", \.id, "The hook's id.")]
}
