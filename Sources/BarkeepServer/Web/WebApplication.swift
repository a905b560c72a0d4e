import BarkeepStore

/// The daemon's HTTP application (`Server.httpApplication`): `/api/v1/…` goes to the JSON API, every other path to
/// the pages. Each part authenticates its requests itself, on the pool thread that runs them.
struct WebApplication: HTTPApplication {
    /// The JSON API.
    let api: APIApplication
    /// The pages, the sign-in form and their assets.
    let pages: any HTTPApplication

    /// The application of `server`, running its `commands`.
    init(server: Server, commands: CommandTable) {
        api = APIApplication(server: server, commands: commands)
        pages = PageApplication(
            server: server, commands: commands, sessionLifetime: server.configuration.sessionLifetime)
    }

    /// The API's judgement of a head below `/api/v1`, else the pages'.
    func admit(_ head: HTTPRequestHead, context: HTTPRequestContext, database: PostgresConnection) throws
        -> HTTPAdmission
    {
        if head.pathSegments.first == "api" { return try api.admit(head, context: context, database: database) }
        return try pages.admit(head, context: context, database: database)
    }

    /// The API's answer for a path below `/api/v1` (or `/api` itself), else the pages'.
    func respond(
        to head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        let response =
            head.pathSegments.first == "api"
            ? try api.respond(to: head, body: body, context: context, database: database)
            : try pages.respond(to: head, body: body, context: context, database: database)
        return ResponseCompression.compressed(response, for: head)
    }
}
