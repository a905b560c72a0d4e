// Only the protocol's reply types: the fuzz target `framer` (scripts/fuzz.sh) compiles this file together with the
// connection machine into one module, where there is no BarkeepProtocol to import.
#if canImport(BarkeepProtocol)
    import BarkeepProtocol
#endif

/// An event a WATCH stream carries, as the watch machine needs it: the server's stored `Event`, or the fuzz target's
/// own (which has no Store).
protocol WatchEvent {
    /// What a watcher chose to be sent.
    associatedtype Filter
    /// Its sequence number: events arrive in increasing order of it.
    var seq: Int64 { get }
    /// Whether a watcher with `filter` is sent it.
    func matches(_ filter: Filter) -> Bool
    /// The record line a watcher is sent for it, without its LF.
    var watchLine: String { get }
    /// The Server-Sent Event an HTTP event stream is sent for it, its blank line included (`id:`, `event:`,
    /// `data:` lines; docs/design/web-dashboard.md, section 6).
    var streamFrame: String { get }
}

extension WatchEvent {
    /// The event as its record line, named by its sequence number: for events without a JSON view of their own.
    var streamFrame: String { "id: \(seq)\ndata: \(watchLine)\n\n" }
}

/// One WATCH stream's progress, nested in its connection's machine (`ConnectionMachine.State.watching`): stored
/// events replayed page by page from `since`, then live events, with a cursor that never goes back.
///
/// Pure: the connection machine asks it whether a page is due and hands it what arrives; the event loop fetches the
/// pages (`WatchHub`) and routes the live events.
struct WatchMachine<Event: WatchEvent> {
    /// The project watched.
    let projectID: Int64
    /// Its name (a deleted project's events name it only).
    let project: String
    /// The events the client wants.
    let filter: Event.Filter
    /// The sequence number of the last event queued to the client, or passed over by its filter.
    private(set) var lastSent: Int64
    /// Replaying stored events page by page; live events wait until the replay catches up.
    private(set) var isReplaying = true
    /// A page request is out (`ConnectionMachine.Action.requestEvents`).
    private(set) var isPageRequested = false
    /// Events are written as Server-Sent Events (`streamFrame`, an HTTP event stream) rather than record lines.
    let isEventStream: Bool

    /// A stream of the events of `projectID` after `since` that `filter` passes; `isEventStream`: as Server-Sent
    /// Events.
    init(projectID: Int64, project: String, since: Int64, filter: Event.Filter, isEventStream: Bool = false) {
        self.projectID = projectID
        self.project = project
        self.filter = filter
        self.isEventStream = isEventStream
        lastSent = since
    }

    /// Whether the next replay page is wanted (none is out and the replay has not caught up).
    var wantsPage: Bool { isReplaying && !isPageRequested }

    /// Asks for the next replay page when it is wanted and the client's unwritten output is below `lowWater` (a
    /// quarter of the watcher backlog): returns the cursor to read after, nil when no page is asked for.
    mutating func requestPage(pendingOutput: Int, lowWater: Int) -> Int64? {
        guard wantsPage, pendingOutput < lowWater else { return nil }
        isPageRequested = true
        return lastSent
    }

    /// A page of stored events came, in order; `isComplete` when it reached the newest. The events the filter
    /// passes are queued to `output`; those it passes over still move the cursor on, so the next page starts after
    /// them.
    mutating func receivePage(_ events: [Event], isComplete: Bool, into output: inout [UInt8]) {
        for event in events where event.seq > lastSent { take(event, into: &output) }
        isPageRequested = false
        isReplaying = !isComplete
    }

    /// A live event came: taken (true) once the replay caught up and when it is newer than the cursor.
    mutating func receiveLive(_ event: Event, into output: inout [UInt8]) -> Bool {
        guard !isReplaying, event.seq > lastSent else { return false }
        take(event, into: &output)
        return true
    }

    /// The reply that ends a stream whose client fell too far behind: where to resume.
    var fellBehind: Reply { .error(.busy, "watcher fell behind; resume with since=\(lastSent)") }

    private mutating func take(_ event: Event, into output: inout [UInt8]) {
        if event.matches(filter) {
            if isEventStream {
                output.append(contentsOf: event.streamFrame.utf8)
            } else {
                output.append(contentsOf: event.watchLine.utf8)
                output.append(UInt8(ascii: "\n"))
            }
        }
        lastSent = event.seq
    }
}
