import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// `GET /api/v1/projects/{project}/events/stream` once its request is authenticated (docs/design/web-dashboard.md,
/// section 6): the one place a request becomes an `HTTPEventStream`, for every `HTTPApplication` that serves it.
/// Query parameters filter as WATCH's keys do: `kinds` (comma-separated), `screen`, `finding`.
enum HTTPEventStreamRoute {
    /// Whether `head` asks for a project's event stream: its name, or nil when the path is another.
    static func project(of head: HTTPRequestHead) -> String? {
        let path = head.pathSegments
        let pattern = RouteTable.prefix + RouteTable.eventStreamSegments
        guard path.count == pattern.count else { return nil }
        var project: String?
        for (segment, value) in zip(pattern, path) {
            if HTTPRoute.parameterName(segment) != nil {
                project = value
            } else if segment != value {
                return nil
            }
        }
        return project
    }

    /// The response that starts the stream of `project` for the token named `tokenName` (already authenticated, a
    /// reader at least), lasting at most `lifetime` (a cookie session's remaining life), on the pool thread with
    /// `database`: `400` for a bad resume point or filter, `404` for an unknown project, `405` for a method other
    /// than GET or HEAD.
    static func respond(
        to head: HTTPRequestHead, project name: String, tokenName: String?, lifetime: Duration? = nil,
        database: PostgresConnection
    ) throws -> HTTPResponse {
        guard head.method == "GET" || head.method == "HEAD" else {
            return .error(
                405, .badArgument, "the event stream is read with GET",
                fields: [HTTPField(name: "Allow", value: "GET, HEAD")])
        }
        let since: Int64?
        switch HTTPEventStream.resumePoint(of: head) {
        case .success(let value): since = value
        case .failure(let bad): return .error(400, .badArgument, "\(bad.source) is not a sequence number")
        }
        var filter = EventFilter()
        for (key, value) in head.query {
            switch key {
            case "kinds":
                do {
                    filter.kinds = Set(try EventKind.kinds(parsing: value))
                } catch {
                    return .error(400, .badArgument, "kinds: \(error)")
                }
            case "screen": filter.screen = value
            case "finding":
                guard let number = Int(value), number > 0 else {
                    return .error(400, .badArgument, "finding is not a finding's number")
                }
                filter.finding = number
            default: continue
            }
        }
        let project: Project
        do {
            project = try ProjectStore.require(name, on: database)
        } catch StoreError.notFound(let message) {
            return .error(404, .notFound, message)
        }
        let start = try since ?? EventLog.head(on: database)
        return .eventStream(
            HTTPEventStream(
                projectID: project.id, project: project.name, since: start, filter: filter, tokenName: tokenName,
                lifetime: lifetime))
    }
}
