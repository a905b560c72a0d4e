import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import BarkeepWeb

/// The API's routes whose bodies are bytes rather than JSON: `GET /api/v1/screenshots/{sha256}` (a reader: the
/// stored bytes with their content type, never sniffed, cached for good since the name is the hash), and the upload
/// routes of the spec (`HTTPRoute.upload`: `POST /api/v1/projects/{project}/screenshots`, SCREENSHOT PUT, and
/// `POST /api/v1/projects/{project}/check`, CHECK), whose raw body with its `Content-Type` is the command's payload
/// and whose reply is the answer.
enum ScreenshotRoute {
    /// `GET screenshots/{sha256}`.
    case fetch(sha256: String)

    /// The `Cache-Control` of a screenshot: private to the signed-in viewer, and never changing under its name.
    static let cache = "private, max-age=31536000, immutable"

    /// The route `method` and `path` (segments, `api`, `v1` included) name; nil for any other request.
    init?(method: String, path: [String]) {
        let below = Array(path.dropFirst(RouteTable.prefix.count))
        guard Array(path.prefix(RouteTable.prefix.count)) == RouteTable.prefix, method == "GET",
            below.count == RouteTable.screenshotSegments.count, below[0] == RouteTable.screenshotSegments[0]
        else { return nil }
        self = .fetch(sha256: below[1])
    }

    /// The answer, run as `client`'s identity.
    func respond(head: HTTPRequestHead, body: [UInt8], client: InProcessClient) -> HTTPResponse {
        switch self {
        case .fetch(let sha256): fetch(sha256, body: body, client: client)
        }
    }

    private func fetch(_ sha256: String, body: [UInt8], client: InProcessClient) -> HTTPResponse {
        guard body.isEmpty else { return APIApplication.refusal(APIRefusal(.badArgument, "a GET takes no body")) }
        guard LowercaseHex.isSHA256(sha256) else {
            return APIApplication.refusal(
                APIRefusal(.badArgument, "a screenshot is named by its SHA-256, 64 lowercase hex digits", key: "sha256")
            )
        }
        let found: (mediaType: ImageHeader.MediaType, bytes: [UInt8])?
        do {
            found = try ScreenshotStore.fetch(sha256, on: client.database)
        } catch {
            let reply = client.server.reply(for: error, command: "screenshot fetch")
            guard case .error(let code, let message) = reply else {
                return APIApplication.refusal(APIRefusal(.internal, ""))
            }
            return APIApplication.refusal(APIRefusal(code, message))
        }
        guard let found else {
            return APIApplication.refusal(
                APIRefusal(.notFound, "no screenshot is stored under that hash", key: "sha256"))
        }
        return HTTPResponse(
            status: 200,
            fields: [
                HTTPField(name: "Content-Type", value: found.mediaType.rawValue),
                HTTPField(name: "X-Content-Type-Options", value: "nosniff"),
                HTTPField(name: "Content-Disposition", value: "inline"),
                HTTPField(name: "Cache-Control", value: Self.cache),
                HTTPField(name: "Content-Security-Policy", value: PageSecurity.screenshotPolicy),
            ],
            body: found.bytes)
    }

    /// Runs the upload route of `R` (its request `request`, from the path and query) with `body` as its payload: the
    /// body's `Content-Type` must be one the route takes and, for an image, agree with the image's own header, else
    /// `415`.
    static func upload<R: CommandRequest>(
        _ type: R.Type, request: Request, head: HTTPRequestHead, body: [UInt8], client: InProcessClient
    ) -> HTTPResponse {
        let types = R.spec.http.uploadContentTypes ?? []
        let declared = head.values(of: "content-type").first.map {
            String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let declared, types.contains(declared) else {
            return APIApplication.refusal(
                APIRefusal(
                    .badArgument, "the body is uploaded as \(types.joined(separator: " or ")), its bytes the body"),
                status: 415)
        }
        // An image's own header decides its type; a body that says otherwise than its Content-Type is refused here,
        // one that is no image at all by the command's own check.
        if let header = try? ImageHeader.parse(body), header.mediaType.rawValue != declared {
            return APIApplication.refusal(
                APIRefusal(
                    .badArgument, "the body is \(header.mediaType.rawValue), not the \(declared) its Content-Type says"),
                status: 415)
        }
        var line = request
        line.arguments.append(String(body.count))
        return APIApplication.answer(R.self, request: line, payload: body, client: client)
    }
}
