import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import BarkeepWeb

/// The API's two screenshot routes, which carry an image's bytes rather than JSON: `GET /api/v1/screenshots/{sha256}`
/// (a reader: the stored bytes with their content type, never sniffed, cached for good since the name is the hash)
/// and `POST /api/v1/projects/{project}/screenshots` (a writer: the raw PNG or JPEG body with its `Content-Type`,
/// stored through SCREENSHOT PUT, whose reply is the answer).
enum ScreenshotRoute {
    /// `GET screenshots/{sha256}`.
    case fetch(sha256: String)
    /// `POST projects/{project}/screenshots`.
    case upload(project: String)

    /// The `Cache-Control` of a screenshot: private to the signed-in viewer, and never changing under its name.
    static let cache = "private, max-age=31536000, immutable"

    /// The route `method` and `path` (segments, `api`, `v1` included) name; nil for any other request.
    init?(method: String, path: [String]) {
        let below = Array(path.dropFirst(RouteTable.prefix.count))
        guard Array(path.prefix(RouteTable.prefix.count)) == RouteTable.prefix else { return nil }
        switch (method, below.count) {
        case ("GET", 2) where below[0] == "screenshots":
            self = .fetch(sha256: below[1])
        case ("POST", 3) where below[0] == "projects" && below[2] == "screenshots":
            self = .upload(project: below[1])
        default:
            return nil
        }
    }

    /// Whether `method` and `path` name the upload, whose body may be as large as `--max-screenshot`.
    static func isUpload(method: String, path: [String]) -> Bool {
        guard case .upload = ScreenshotRoute(method: method, path: path) else { return false }
        return true
    }

    /// The answer, run as `client`'s identity.
    func respond(head: HTTPRequestHead, body: [UInt8], client: InProcessClient) -> HTTPResponse {
        switch self {
        case .fetch(let sha256): fetch(sha256, body: body, client: client)
        case .upload(let project): upload(project, head: head, body: body, client: client)
        }
    }

    private func fetch(_ sha256: String, body: [UInt8], client: InProcessClient) -> HTTPResponse {
        guard body.isEmpty else { return APIApplication.refusal(APIRefusal(.badArgument, "a GET takes no body")) }
        let isHash =
            sha256.utf8.count == 64
            && sha256.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard isHash else {
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

    private func upload(_ project: String, head: HTTPRequestHead, body: [UInt8], client: InProcessClient)
        -> HTTPResponse
    {
        let declared = head.values(of: "content-type").first.map {
            String($0.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let declared, let type = ImageHeader.MediaType(rawValue: declared) else {
            let types = ImageHeader.MediaType.allCases.map(\.rawValue).joined(separator: " or ")
            return APIApplication.refusal(
                APIRefusal(.badArgument, "a screenshot is uploaded as \(types), its bytes the body"), status: 415)
        }
        // The image's own header decides its type; a body that says otherwise than its Content-Type is refused here,
        // one that is no image at all by SCREENSHOT PUT's check.
        if let header = try? ImageHeader.parse(body), header.mediaType != type {
            return APIApplication.refusal(
                APIRefusal(
                    .badArgument,
                    "the body is \(header.mediaType.rawValue), not the \(type.rawValue) its Content-Type says"),
                status: 415)
        }
        var request = ScreenshotPutRequest(project: project).wireRequest
        request.arguments.append(String(body.count))
        return APIApplication.answer(ScreenshotPutRequest.self, request: request, payload: body, client: client)
    }
}
