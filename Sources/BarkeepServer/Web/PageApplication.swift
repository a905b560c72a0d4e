import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepWeb
import Foundation

/// The dashboard's pages (docs/design/web-dashboard.md, sections 2 and 4), served on the pool thread with the
/// request's database connection: `/static/…` (content-hashed, cached for ever), `/signin` and `/signout`, and the
/// signed-in pages, each a few typed requests run as the signed-in person through the in-process client and
/// rendered by BarkeepWeb. No or a dead session cookie sends a page to `/signin?next=…`.
struct PageApplication: HTTPApplication {
    /// The stylesheet and the script, named by their hash.
    let assets: StaticAssets
    /// How long a session lasts from sign-in.
    let sessionLifetime: Duration
    /// Failed sign-ins per peer, shared with the line protocol's failed HELLOs; nil: not limited here.
    let failedSignIns: FailedHelloLimiter?
    /// The client that runs typed requests as the session's token on `database`.
    let client: @Sendable (_ token: TokenInfo, _ database: PostgresConnection) -> any PageApplicationClient

    /// The pages, with `client` running their requests.
    init(
        sessionLifetime: Duration = .seconds(SessionLimit.defaultLifetimeSeconds),
        failedSignIns: FailedHelloLimiter? = nil,
        client: @escaping @Sendable (_ token: TokenInfo, _ database: PostgresConnection) -> any PageApplicationClient
    ) {
        assets = StaticAssets(hasher: LibcryptoHasher())
        self.sessionLifetime = sessionLifetime
        self.failedSignIns = failedSignIns
        self.client = client
    }

    /// Serves a static asset, the sign-in flow, or a page.
    func respond(
        to head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        var response = try route(head, body: body, context: context, database: database)
        if context.isTLS {
            response.fields.append(HTTPField(name: "Strict-Transport-Security", value: PageSecurity.transportSecurity))
        }
        return response
    }

    private func route(
        _ head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse {
        let segments = Self.segments(head)
        let isRead = head.method == "GET" || head.method == "HEAD"
        switch segments.first {
        case "static":
            guard isRead else { return Self.methodNotAllowed(["GET", "HEAD"]) }
            return staticAsset(segments)
        case "signin" where segments.count == 1:
            if isRead { return signInForm(head) }
            guard head.method == "POST" else { return Self.methodNotAllowed(["GET", "HEAD", "POST"]) }
            return try signIn(head, body: body, context: context, database: database)
        case "signout" where segments.count == 1:
            guard head.method == "POST" else { return Self.methodNotAllowed(["POST"]) }
            return try signOut(head, body: body, context: context, database: database)
        default:
            break
        }
        guard let cookie = SignInCookie.value(in: head, isTLS: context.isTLS),
            let session = try SessionStore.authenticate(cookie: cookie, on: database)
        else {
            // A write without a session changes nothing: the sign-in form again, refused.
            if isRead { return Self.toSignIn(head) }
            return Self.html(403, SignInPage.render(next: "/", assets: assets))
        }
        let request = PageApplicationRequest(
            head: head, segments: segments, session: session,
            client: client(session.token, database), assets: assets)
        if isRead { return try request.read() }
        guard head.method == "POST" else { return Self.methodNotAllowed(["GET", "HEAD"]) }
        guard PageApplicationForm.isForm(head), let form = PageApplicationForm(body: body) else {
            return request.failure(415, "A page form is sent as \(PageApplicationForm.mediaType).")
        }
        guard CSRFCheck.isValid(submitted: form.value(PageSecurity.csrfField), expected: session.csrfToken),
            CSRFCheck.isSameOrigin(
                origin: head.values(of: "origin").first, host: head.values(of: "host").first ?? "",
                isTLS: context.isTLS)
        else { return request.failure(403, "This form has expired or came from another site; reload the page.") }
        return try request.write(form)
    }

    /// The path's segments, without the empty one of `/` or of a trailing slash.
    static func segments(_ head: HTTPRequestHead) -> [String] {
        var segments = head.pathSegments
        if segments.last == "" { segments.removeLast() }
        return segments
    }

    private func staticAsset(_ segments: [String]) -> HTTPResponse {
        guard segments.count == 2, let asset = assets.asset(named: segments[1]) else {
            return HTTPResponse.refusal(404, "no such file")
        }
        return HTTPResponse(
            status: 200,
            fields: [
                HTTPField(name: "Content-Type", value: asset.contentType),
                HTTPField(name: "Cache-Control", value: PageSecurity.immutableCache),
            ],
            body: Array(asset.body.utf8))
    }

    /// A `303 See Other` to `location` (a path of this site).
    static func seeOther(_ location: String, fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(status: 303, fields: [HTTPField(name: "Location", value: location)] + fields)
    }

    /// The way to the sign-in form, returning to the page asked for.
    static func toSignIn(_ head: HTTPRequestHead) -> HTTPResponse {
        seeOther(PageURL(["signin"], query: [PageURL.QueryItem("next", head.target)]).text)
    }

    /// `405` with `Allow`.
    static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var response = HTTPResponse.refusal(405, "method not allowed")
        response.fields.append(HTTPField(name: "Allow", value: allowed.joined(separator: ", ")))
        return response
    }

    /// An HTML response.
    static func html(_ status: Int, _ text: String, fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(
            status: status,
            fields: [HTTPField(name: "Content-Type", value: "text/html; charset=utf-8")] + fields,
            body: Array(text.utf8))
    }
}
