import BarkeepCore
import BarkeepProtocol

/// `EVENTS PROJECT [after=SEQ] [limit=N]`: one page of the project's event log, oldest first, then `OK next=SEQ
/// count=N`; the next page is `after=` that `next` (equal to `after` when the page is empty).
public struct EventsRequest: CommandRequest {
    /// Event records, then `OK next= count=`.
    public typealias Reply = SummarizedReply<EventFields, EventsPageEnd>
    /// The project.
    public var project = ""
    /// Only events after this sequence number; nil: from the first.
    public var after: SequenceNumber?
    /// At most this many events; nil: `EventPage.defaultLimit`.
    public var limit: EventLimit?

    /// An empty request, filled by decoding.
    public init() {}
    /// The page of `project`'s events after `after`, at most `limit`.
    public init(project: String, after: Int64? = nil, limit: Int? = nil) {
        self.project = project
        self.after = after.map(SequenceNumber.init)
        self.limit = limit.map(EventLimit.init)
    }

    /// The command.
    public static let spec = CommandSpec(
        "EVENTS", role: .reader, effect: .read,
        summary: "A page of a project's event log, oldest first: the events after after=, at most limit=.",
        http: .get("projects/{project}/events"))
    /// Its arguments.
    public static let fields: [Field<EventsRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("after", \.after, "Only the events after this sequence number (the previous page's next)."),
        Field("limit", \.limit, "At most this many events (default \(EventPage.defaultLimit))."),
    ]
}

/// EVENTS' `OK` fields besides `count`.
public struct EventsPageEnd: WireFields {
    /// The sequence number to ask the next page after: the page's last event's, or `after` when it is empty.
    public var next = 0

    /// Filled by decoding.
    public init() {}
    /// The end of a page whose next one starts after `next`.
    public init(next: Int64) { self.next = Int(next) }

    /// Its field.
    public static let fields: [Field<EventsPageEnd>] = [
        Field("next", \.next, "The sequence number the next page starts after.")
    ]
}
