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
    /// The stylesheet and the script, named by their hash: hashed once per process.
    static let sharedAssets = StaticAssets(hasher: LibcryptoHasher())
    /// The stylesheet and the script.
    var assets: StaticAssets { Self.sharedAssets }
    /// How long a session lasts from sign-in.
    let sessionLifetime: Duration
    /// Failed sign-ins per peer, shared with the line protocol's failed HELLOs.
    let failedSignIns: FailedHelloLimiter
    /// The server whose commands the pages run.
    let server: Server
    /// Its command table.
    let commands: CommandTable

    /// The pages of `server`, running its `commands` as each signed-in person; sign-in failures count against
    /// the peer's failed HELLOs.
    init(
        server: Server, commands: CommandTable,
        sessionLifetime: Duration = .seconds(SessionLimit.defaultLifetimeSeconds)
    ) {
        self.server = server
        self.commands = commands
        self.sessionLifetime = sessionLifetime
        failedSignIns = server.failedHellos
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

    /// Judges a form's head before its body is read: the sign-in and sign-out forms and the assets take a form's
    /// body from anyone (they check what it says); any other path needs a session, else it is answered as `respond`
    /// answers a request without one. Forms are held to `HTTPLimit.bodyBytes`.
    func admit(_ head: HTTPRequestHead, context: HTTPRequestContext, database: PostgresConnection) throws
        -> HTTPAdmission
    {
        let tooLarge = HTTPResponse.error(
            413, .tooLong, "a form of \(head.contentLength) bytes is over the limit of \(HTTPLimit.bodyBytes)")
        let isOpen = ["static", "signin", "signout"].contains(Self.segments(head).first ?? "")
        if !isOpen, try WebAuthentication.identify(head, context: context, database: database) == nil {
            return .refused(try respond(to: head, body: [], context: context, database: database))
        }
        return .body(limit: HTTPLimit.bodyBytes, tooLarge: tooLarge)
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
        case "favicon.ico" where segments.count == 1:
            // A document that names no icon (the readiness report) makes the browser ask here.
            guard isRead else { return Self.methodNotAllowed(["GET", "HEAD"]) }
            return HTTPResponse(
                status: 301,
                fields: [
                    HTTPField(name: "Location", value: assets.iconURL.text),
                    HTTPField(name: "Cache-Control", value: "public, max-age=86400"),
                ])
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
        guard let identity = try WebAuthentication.identify(head, context: context, database: database) else {
            // A write without a session changes nothing: the sign-in form again, refused.
            if isRead {
                // A link followed from another site came without the SameSite=Strict cookie: reload it from here.
                if SharedLinkPage.applies(
                    fetchSite: head.values(of: "sec-fetch-site").last, fetchMode: head.values(of: "sec-fetch-mode").last
                ) {
                    return Self.html(
                        200,
                        SharedLinkPage.render(
                            target: PageURL(
                                head.pathSegments, query: head.query.map { PageURL.QueryItem($0.name, $0.value) }),
                            assets: assets),
                        fields: [HTTPField(name: "Cache-Control", value: "no-store")])
                }
                return Self.toSignIn(head)
            }
            return Self.html(403, SignInPage.render(next: "/", assets: assets))
        }
        let request = PageApplicationRequest(
            head: head, segments: segments, identity: identity,
            client: InProcessClient(
                server: server, commands: commands, identity: identity, peerName: context.peerName,
                database: database),
            assets: assets)
        if isRead { return try request.read() }
        guard head.method == "POST" else { return Self.methodNotAllowed(["GET", "HEAD"]) }
        guard PageApplicationForm.isForm(head), let form = PageApplicationForm(body: body) else {
            return request.failure(415, "A page form is sent as \(PageApplicationForm.mediaType).")
        }
        guard WebAuthentication.writeRefusal(head, body: body, identity: identity, context: context) == nil else {
            return request.failure(403, "This form has expired or came from another site; reload the page.")
        }
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
