import BarkeepCore
import BarkeepProtocol

/// `NOUN LIST [PROJECT]` for every kind of leased resource: a record each, by id.
public struct LeasedListRequest<Noun: LeasedNoun>: CommandRequest {
    /// A record per resource.
    public typealias Reply = RecordsReply<Noun.Record>
    /// Only this project's; nil: every project's.
    public var project: String?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request listing `project`'s resources, or every project's.
    public init(project: String?) { self.project = project }

    /// The command.
    public static var spec: CommandSpec {
        CommandSpec(
            "\(Noun.verb) LIST", role: Noun.role(.list), effect: .read, summary: Noun.summary(.list),
            http: .get(Noun.noun + "s"))
    }
    /// Its argument.
    public static var fields: [Field<LeasedListRequest>] {
        [Field("project", \.project, "Only this project's \(Noun.noun)s.", placement: .positional, names: .project)]
    }
}

/// A request naming one leased resource by id and answered by its record (`HOOK PAUSE ID`, `SOURCE RUN ID`): what
/// the CLI's leased actions send.
public protocol LeasedRecordRequest: CommandRequest where Reply == RecordsReply<Noun.Record> {
    /// The kind of resource.
    associatedtype Noun: LeasedNoun
    /// A request for the resource `id`.
    init(id: LeasedID<Noun>)
}

/// Whether a `LeasedStateRequest` pauses or resumes.
public protocol LeasedStateChange: Sendable {
    /// PAUSE or RESUME.
    static var command: LeasedCommand { get }
    /// Whether the resource is paused afterwards.
    static var isPaused: Bool { get }
}

/// `NOUN PAUSE ID`.
public enum Pausing: LeasedStateChange {
    /// PAUSE.
    public static let command = LeasedCommand.pause
    /// Paused.
    public static let isPaused = true
}

/// `NOUN RESUME ID`.
public enum Resuming: LeasedStateChange {
    /// RESUME.
    public static let command = LeasedCommand.resume
    /// Active.
    public static let isPaused = false
}

/// `NOUN PAUSE ID` or `NOUN RESUME ID` for every kind of leased resource: the record as it is afterwards.
public struct LeasedStateRequest<Noun: LeasedNoun, Change: LeasedStateChange>: LeasedRecordRequest {
    /// The resource's record.
    public typealias Reply = RecordsReply<Noun.Record>
    /// The resource.
    public var id = LeasedID<Noun>(0)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for the resource `id`.
    public init(id: LeasedID<Noun>) { self.id = id }

    /// The command.
    public static var spec: CommandSpec {
        CommandSpec(
            "\(Noun.verb) \(Change.command.rawValue)", role: Noun.role(Change.command),
            effect: .write(isDestructive: false, isIdempotent: true), summary: Noun.summary(Change.command),
            http: .post(Noun.noun + "s/{id}/" + Change.command.rawValue.lowercased()))
    }
    /// Its argument.
    public static var fields: [Field<LeasedStateRequest>] {
        [.argument("id", \.id, "The \(Noun.noun)'s id.")]
    }
}

/// `NOUN REMOVE ID` for every kind of leased resource: `OK removed=ID`.
public struct LeasedRemoveRequest<Noun: LeasedNoun>: CommandRequest {
    /// `OK removed=ID`.
    public typealias Reply = OKReply<LeasedRemoved>
    /// The resource.
    public var id = LeasedID<Noun>(0)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request removing `id`.
    public init(id: LeasedID<Noun>) { self.id = id }

    /// The command.
    public static var spec: CommandSpec {
        CommandSpec(
            "\(Noun.verb) REMOVE", role: Noun.role(.remove), effect: .write(isDestructive: true, isIdempotent: false),
            summary: Noun.summary(.remove), http: .delete(Noun.noun + "s/{id}"))
    }
    /// Its argument.
    public static var fields: [Field<LeasedRemoveRequest>] {
        [.argument("id", \.id, "The \(Noun.noun)'s id.")]
    }
}

/// `NOUN REMOVE`'s `OK` fields.
public struct LeasedRemoved: WireFields {
    /// The id removed.
    public var removed = 0
    /// An empty value, filled by decoding.
    public init() {}
    /// The value naming `removed`.
    public init(removed: Int) { self.removed = removed }
    /// The fields.
    public static let fields: [Field<LeasedRemoved>] = [Field("removed", \.removed, "The id removed.")]
}
