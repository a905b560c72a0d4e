import BarkeepCore
import BarkeepProtocol

/// `WATCH PROJECT [since=SEQ] [kinds=KIND,…] [screen=KEY] [finding=N]`: the project's events, those stored after
/// `since` first, then each as it commits, until the connection ends.
public struct WatchRequest: CommandRequest {
    /// `OK watching project= since=`, then an event record per event (no final line).
    public typealias Reply = WatchReply
    /// The project.
    public var project = ""
    /// Send the events after this sequence number; nil: from now.
    public var since: SequenceNumber?
    /// Only events of these kinds.
    public var kinds: EventKindList?
    /// Only events about this screen or component, the app area or the unmapped findings.
    public var screen: EventScreen?
    /// Only events about this finding or item.
    public var finding: ProjectNumber?

    /// An empty request, filled by decoding.
    public init() {}
    /// Every event of `project` from now.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "WATCH", role: .reader, effect: .read,
        summary: "Streams a project's events, those after since= first, then each as it commits.",
        http: .get("projects/{project}/events/stream"), readsPrimary: true)
    /// Its arguments.
    public static let fields: [Field<WatchRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("since", \.since, "Send the events after this sequence number; absent: from now."),
        Field("kinds", \.kinds, "Only events of these kinds, comma-separated."),
        Field("screen", \.screen, "Only events about this screen or component, app, or unmapped."),
        Field("finding", \.finding, "Only events about this finding or item."),
    ]
}

/// WATCH's answer: `OK watching project=NAME since=SEQ`; the events that follow are read one at a time
/// (`EventFields`), as they come.
public struct WatchReply: CommandReply {
    /// `{"project", "since"}`: where the stream starts (its events are each their own JSON).
    public var jsonBody: Any { ["project": project, "since": since] as [String: Any] }
    /// The two members.
    public static var jsonBodySchema: [String: Any]? {
        [
            "type": "object", "required": ["project", "since"], "additionalProperties": false,
            "properties": ["project": ["type": "string"], "since": ["type": "integer"]] as [String: Any],
        ]
    }
    /// The project watched.
    public var project = ""
    /// The sequence number the stream starts after.
    public var since: Int64 = 0

    /// The start of a stream of `project`'s events after `since`.
    public init(project: String, since: Int64) {
        self.project = project
        self.since = since
    }

    /// `OK watching project=NAME since=SEQ`.
    public func reply(version: Int) -> Reply {
        .ok("watching project=\(Quoting.quoteValue(project)) since=\(since)")
    }

    /// The `OK` line's project and since.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        guard records.isEmpty else { throw .badReply("\(command) sent records before OK") }
        guard let project = final["project"], let since = final["since"].flatMap({ Int64($0) }) else {
            throw .badReply("\(command) did not say which project and sequence number it watches from")
        }
        self.project = project
        self.since = since
    }

    /// The `OK` line starts with `watching`.
    public static func check(finalText: String, command: String) throws(ProtocolError) {
        guard finalText.hasPrefix("watching ") else {
            throw .badReply("\(command) answered \(ValueExcerpt.quoted(finalText))")
        }
    }

    /// An example.
    public static var example: WatchReply { WatchReply(project: "example-1", since: 1234) }
    /// The event records of the stream.
    public static var recordTypes: [any WireFields.Type] { [EventFields.self] }
}

/// A sequence number of the event log (`since=`): 0 or more, decimal digits only.
public struct SequenceNumber: WireValue, Equatable {
    /// The number.
    public var value: Int64

    /// The number `value`.
    public init(_ value: Int64) { self.value = value }

    /// Decimal digits.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Int64(wire), value >= 0, wire.allSatisfy(\.isNumber) else {
            throw ValueProblem(predicate: "must be a sequence number (0 or more)")
        }
        self.value = value
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer of 0 or more.
    public init(json: Any) throws(ValueProblem) {
        guard let value = Int(jsonNumber: json), value >= 0 else {
            throw ValueProblem(predicate: "must be a sequence number (0 or more)")
        }
        self.value = Int64(value)
    }
    /// The number.
    public var json: Any { Int(value) }
    /// An integer of 0 or more.
    public static var schema: ValueSchema { .integer(minimum: 0) }
    /// A number.
    public static var example: SequenceNumber { SequenceNumber(1234) }
}

/// Event kinds, comma-separated (`kinds=finding.status,pose.recorded`): Core's parse, its words.
public struct EventKindList: WireValue, Equatable {
    /// The kinds, in order, each once.
    public var kinds: [EventKind]

    /// The list of `kinds`.
    public init(_ kinds: [EventKind]) { self.kinds = kinds }

    /// Core's `EventKind.kinds(parsing:)`.
    public init(wire: String) throws(ValueProblem) {
        do throws(CoreError) {
            kinds = try EventKind.kinds(parsing: wire)
        } catch {
            throw ValueProblem(error.description)
        }
    }
    /// Comma-separated.
    public var wire: String { kinds.map(\.rawValue).joined(separator: ",") }
    /// A JSON array of kinds.
    public init(json: Any) throws(ValueProblem) {
        guard let words = json as? [String] else { throw ValueProblem(predicate: "must be an array of event kinds") }
        try self.init(wire: words.joined(separator: ","))
    }
    /// The kinds' names.
    public var json: Any { kinds.map(\.rawValue) }
    /// An array of the kinds' names.
    public static var schema: ValueSchema { .array(.string(values: EventKind.allCases.map(\.rawValue))) }
    /// The first kind.
    public static var example: EventKindList { EventKindList([EventKind.allCases[0]]) }
}

/// What a `screen=` of a request that follows events names (WATCH, HOOK ADD): a screen or component key, the app
/// area or the unmapped findings.
public struct EventScreen: WireValue, Equatable {
    /// The key, `app` or `unmapped`.
    public var key: String

    /// The screen `key`.
    public init(_ key: String) { self.key = key }

    /// A valid screen key, `app` or `unmapped`.
    public init(wire: String) throws(ValueProblem) {
        guard Names.isValidScreenKey(wire) || AuditArea.isReserved(wire) else {
            throw ValueProblem(
                "screen \(ValueExcerpt.quoted(wire)) is not a screen key, \(AuditArea.app) or \(AuditArea.unmapped)")
        }
        key = wire
    }
    /// The key.
    public var wire: String { key }
    /// A JSON string, as on the wire.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a string") }
        try self.init(wire: text)
    }
    /// The key.
    public var json: Any { key }
    /// A string.
    public static var schema: ValueSchema { .string(minLength: 1, maxLength: Names.maximumScreenKeyLength) }
    /// A key.
    public static var example: EventScreen { EventScreen("example-1") }
}
