// Core's event filter, when compiled in the package; the fuzz target `http` (scripts/fuzz.sh) compiles this file with
// Core's EventFilter in one module, where there is no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// What an `HTTPApplication` returns, inside an `HTTPResponse` (`HTTPResponse.eventStream(_:)`), to turn the
/// connection into a stream of Server-Sent Events (docs/design/web-dashboard.md, section 6): the events of one
/// project after `since` that `filter` passes, replayed from the event log and then live, as WATCH sends them.
///
/// The application decides everything before it returns this: it authenticated the request (a reader), found the
/// project, and chose the resume point (`resumePoint(of:)`, or the event log's head when that is nil). The stream
/// ends only by closing: when the client falls behind, when `tokenName`'s token is revoked, or when the server drains.
struct HTTPEventStream: Sendable, Equatable {
    /// The project's id, which its events carry.
    var projectID: Int64
    /// The project's name (a deleted project's events name it only).
    var project: String
    /// Events with a sequence number above this are sent.
    var since: Int64
    /// Only the events this matches are sent (the cursor still moves past the others).
    var filter: EventFilter
    /// The API token the request was authenticated by (its name, as `token.revoked` events name it): its revocation
    /// ends the stream at once. Nil: none (a test's application).
    var tokenName: String?
    /// How long the stream may last: the remaining life of the session cookie that opened it (the stream closes
    /// then, and the page's reconnection finds the session gone). Nil: until the token is revoked.
    var lifetime: Duration?

    /// A stream of the events of `projectID` after `since` that `filter` passes, ended by `tokenName`'s revocation
    /// or after `lifetime`.
    init(
        projectID: Int64, project: String, since: Int64, filter: EventFilter = EventFilter(), tokenName: String?,
        lifetime: Duration? = nil
    ) {
        self.projectID = projectID
        self.project = project
        self.since = since
        self.filter = filter
        self.tokenName = tokenName
        self.lifetime = lifetime
    }

    /// Where a request asks its stream to start: the `Last-Event-ID` field (a reconnecting `EventSource` sends the
    /// last id it saw), else the `since` query parameter, else nil ("now": the application takes the event log's
    /// head). A value that is not a sequence number (negative, or not a number) is `.failure` with the name of
    /// where it came from, for a `400`.
    static func resumePoint(of head: HTTPRequestHead) -> Result<Int64?, BadResumePoint> {
        if let value = head.values(of: "last-event-id").last {
            guard let seq = Int64(value), seq >= 0 else { return .failure(BadResumePoint(source: "Last-Event-ID")) }
            return .success(seq)
        }
        if let value = head.query.last(where: { $0.name == "since" })?.value {
            guard let seq = Int64(value), seq >= 0 else { return .failure(BadResumePoint(source: "since")) }
            return .success(seq)
        }
        return .success(nil)
    }

    /// A resume point that is not a sequence number.
    struct BadResumePoint: Error, Equatable {
        /// Where it came from: `Last-Event-ID` or `since`.
        var source: String
    }
}
