import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import BarkeepWeb
import Foundation

/// The JSON API below `/api/v1` (docs/design/web-dashboard.md, section 3): `GET /api/v1/openapi.json` for anyone;
/// every other route needs a Bearer token or a session cookie (a cookie's writes also its CSRF token), then the route
/// table makes the request the CLI would send, `InProcessClient` runs it as the line protocol does, and the answer is
/// the command's JSON body — or `{"code","message","key"}` with the error code's status.
struct APIApplication: HTTPApplication {
    /// The JSON content type of every answer but a screenshot's.
    static let jsonType = HTTPResponse.jsonContentType
    /// The OpenAPI document's bytes, made once.
    static let openAPIBytes = Array(OpenAPI.documentText.utf8)

    /// The server whose commands run.
    let server: Server
    /// Its command table.
    let commands: CommandTable

    /// The answer to a request without a valid Bearer token or session: `401` with the challenge.
    static var unauthenticated: HTTPResponse {
        refusal(
            APIRefusal(.noAuth, "this request needs Authorization: Bearer TOKEN or a signed-in session"),
            fields: [HTTPField(name: "WWW-Authenticate", value: "Bearer")])
    }

    /// Judges a request with a body before it is read: `401` without a valid token or session, so that nobody
    /// uploads a screenshot to be told that; otherwise the route's body limit — an upload route's is its command's
    /// (the screenshot upload's the daemon's `--max-screenshot`, a check's `--max-upload`), every other route's
    /// `HTTPLimit.bodyBytes` — and past it `413 TOOLONG`, the code the command answers on the line protocol.
    func admit(_ head: HTTPRequestHead, context: HTTPRequestContext, database: PostgresConnection) throws
        -> HTTPAdmission
    {
        guard try WebAuthentication.identify(head, context: context, database: database) != nil else {
            return .refused(Self.unauthenticated)
        }
        // An upload route's limit is its command's, as on the line protocol (`PayloadLimit`).
        let (limit, what): (Int, String) =
            switch RouteTable.uploadCommand(method: head.method, path: head.pathSegments).flatMap({
                commands.payloadLimit(of: $0.spec.name)
            }) {
            case .screenshot: (server.configuration.maximumScreenshot, "screenshot")
            case .upload: (server.configuration.maximumPayload, "payload")
            case nil: (HTTPLimit.bodyBytes, "body")
            }
        return .body(
            limit: limit,
            tooLarge: Self.refusal(
                APIRefusal(.tooLong, "\(what) of \(head.contentLength) bytes is over the limit of \(limit)")))
    }

    /// The answer to one API request.
    func respond(
        to head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        let path = head.pathSegments
        let method = head.method == "HEAD" ? "GET" : head.method
        if path == RouteTable.prefix + [RouteTable.openAPIPath], method == "GET" {
            return HTTPResponse(
                status: 200, fields: [HTTPField(name: "Content-Type", value: Self.jsonType)], body: Self.openAPIBytes)
        }
        guard let identity = try WebAuthentication.identify(head, context: context, database: database) else {
            return Self.unauthenticated
        }
        if let reason = WebAuthentication.writeRefusal(head, body: body, identity: identity, context: context) {
            return Self.refusal(APIRefusal(.forbidden, reason))
        }
        let client = InProcessClient(
            server: server, commands: commands, identity: identity, peerName: context.peerName, database: database)
        if let screenshot = ScreenshotRoute(method: method, path: path) {
            return screenshot.respond(head: head, body: body, client: client)
        }
        if let project = HTTPEventStreamRoute.project(of: head) {
            // The pages' live updates: a session cookie's EventSource, or a Bearer client, gets the project's events.
            return try HTTPEventStreamRoute.respond(
                to: head, project: project, tokenName: identity.name, lifetime: identity.sessionRemaining,
                database: database)
        }
        let query = head.query.map { (name: $0.name, value: $0.value) }
        switch RouteTable.resolve(method: head.method, path: path, query: query, body: body) {
        case .openAPIDocument:
            return HTTPResponse(
                status: 200, fields: [HTTPField(name: "Content-Type", value: Self.jsonType)], body: Self.openAPIBytes)
        case .refused(let refusal):
            return Self.refusal(refusal)
        case .command(let type, let request) where type.spec.http.uploadContentTypes != nil:
            return ScreenshotRoute.upload(type, request: request, head: head, body: body, client: client)
        case .command(let type, let request):
            if type == FindingsRequest.self { return Self.findingsPage(request, head: head, client: client) }
            return Self.answer(type, request: request, client: client)
        }
    }

    /// FINDINGS over HTTP: always a page (`limit=` `FindingPage.defaultLimit` unless given), so that a project of
    /// 100,000 findings answers its first page rather than `TOOLONG`; when findings follow, a `Link: <…>;
    /// rel="next"` header names the same URL with `after=` the reply's `next`.
    static func findingsPage(_ request: Request, head: HTTPRequestHead, client: InProcessClient) -> HTTPResponse {
        var request = request
        if !request.keywordList.contains(where: { $0.key == "limit" }) {
            request.keywordList.append((key: "limit", value: String(FindingPage.defaultLimit)))
        }
        do throws(CommandError) {
            let reply = try InProcessClient.typed(try client.run(request), of: FindingsRequest.self)
            var response = json(200, FindingsRequest.decoded(request).jsonBody(of: reply))
            if let next = reply.summary?.next {
                let url = PageURL(head.pathSegments, query: head.query.map { PageURL.QueryItem($0.name, $0.value) })
                    .setting("after", to: String(next))
                response.fields.append(HTTPField(name: "Link", value: "<\(url.text)>; rel=\"next\""))
            }
            return response
        } catch {
            return Self.refusal(APIRefusal(error.code, error.message))
        }
    }

    /// Runs `request` (an `R`'s wire request) and answers `R`'s JSON body, or the error.
    static func answer<R: CommandRequest>(
        _ type: R.Type, request: Request, payload: [UInt8]? = nil, client: InProcessClient
    ) -> HTTPResponse {
        do throws(CommandError) {
            let answer = try client.run(request, payload: payload)
            let reply = try InProcessClient.typed(answer, of: R.self)
            return json(200, R.decoded(request).jsonBody(of: reply))
        } catch {
            return Self.refusal(APIRefusal(error.code, error.message, key: error.key.map(R.apiKey)))
        }
    }

    /// A JSON answer of `status`, written as the CLI writes JSON.
    static func json(_ status: Int, _ object: Any) -> HTTPResponse {
        guard let text = try? Record.jsonText(object) else {
            return refusal(APIRefusal(.internal, "the answer did not serialize"))
        }
        return HTTPResponse(
            status: status, fields: [HTTPField(name: "Content-Type", value: jsonType)], body: Array(text.utf8))
    }

    /// The JSON error of `refusal`, with its status (or `status`, an HTTP-only one such as 415) and headers
    /// (`Allow`, `Retry-After`) and `fields`.
    static func refusal(_ refusal: APIRefusal, status: Int? = nil, fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(
            status: status ?? refusal.status,
            fields: [HTTPField(name: "Content-Type", value: jsonType)]
                + refusal.headers.map { HTTPField(name: $0.name, value: $0.value) } + fields,
            body: refusal.jsonBody)
    }
}

extension CommandRequest {
    /// The name the HTTP API's error body gives the argument whose wire key is `key`: the key itself for a GET's
    /// query or a path's parameter, the field's JSON name for a write's body (as the route table names them).
    static func apiKey(_ key: String) -> String {
        guard spec.http.method != "GET", !spec.http.parameterNames.contains(key) else { return key }
        return fields.first { $0.key == key }?.jsonName ?? key
    }

    /// The request `wire` (a request line of this command, the subverb still in it) read back into its fields, for
    /// its `jsonBody(of:)`; after the command ran, the table and the handler have accepted every field.
    static func decoded(_ wire: Request) -> Self {
        var request = wire
        let words = spec.name.split(separator: " ").count
        if words > 1, !request.arguments.isEmpty { request.arguments.removeFirst(words - 1) }
        return (try? Self(decoding: request)) ?? Self()
    }
}
