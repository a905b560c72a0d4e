import BarkeepProtocol
import Foundation

/// The HTTP API's routes, taken from each command's `CommandSpec.http` below `/api/v1/`, and the one pure function
/// from an HTTP request to the command's wire `Request` (docs/design/web-dashboard.md section 3). A GET reads its
/// path's `{name}`s as positionals and its query string by wire key in wire form (`?status=open&severity=high,
/// critical` is the filter language); a POST, PUT or DELETE reads its path the same way and its JSON body by JSON
/// name through the request type's JSON reading. Either way the result is the line the CLI would send, which the
/// command table then resolves (role, arity) as on the wire. No I/O, no clock: the HTTP listener calls it.
public enum RouteTable {
    /// The path segments every API route starts with: `/api/v1/`.
    public static let prefix = ["api", "v1"]
    /// The OpenAPI document's path below the prefix.
    public static let openAPIPath = "openapi.json"

    /// One command's route: its method and the segments of its path below the prefix.
    public struct Route: Sendable {
        /// The command.
        public let command: any CommandRequest.Type
        /// GET, POST, PUT or DELETE.
        public let method: String
        /// The path's segments, `{name}` for a parameter.
        public let segments: [String]

        /// The path as the OpenAPI document writes it: `/api/v1/projects/{project}`.
        public var path: String { "/" + (RouteTable.prefix + segments).joined(separator: "/") }

        /// The parameters `path` (below the prefix) gives, by name; nil when it does not match.
        func parameters(of path: [String]) -> [String: String]? {
            guard path.count == segments.count else { return nil }
            var parameters: [String: String] = [:]
            for (segment, value) in zip(segments, path) {
                if let name = HTTPRoute.parameterName(segment) {
                    guard !value.isEmpty else { return nil }
                    parameters[name] = value
                } else if segment != value {
                    return nil
                }
            }
            return parameters
        }

        /// How many literal segments it has: among routes matching one path, the most literal wins.
        var literalCount: Int { segments.count { HTTPRoute.parameterName($0) == nil } }
    }

    /// The path below the prefix of a stored screenshot, read by its SHA-256 (`GET`): bytes, not a command's JSON.
    public static let screenshotSegments = ["screenshots", "{sha256}"]
    /// The path below the prefix of a project's event stream (`GET`, Server-Sent Events): WATCH's route, answered as
    /// a stream of events rather than WATCH's reply.
    public static var eventStreamSegments: [String] { WatchRequest.spec.http.segments }

    /// The command of the upload route (`HTTPRoute.upload`) that `method` and `path` (segments, the prefix
    /// included) name; nil when they name none.
    public static func uploadCommand(method: String, path: [String]) -> (any CommandRequest.Type)? {
        guard Array(path.prefix(prefix.count)) == prefix else { return nil }
        let below = Array(path.dropFirst(prefix.count))
        return routes.first {
            $0.method == method && $0.command.spec.http.uploadContentTypes != nil && $0.parameters(of: below) != nil
        }?.command
    }

    /// Every command's route, in the catalogue's order.
    public static let routes: [Route] = API.commands.compactMap { command in
        guard let method = command.spec.http.method else { return nil }
        return Route(command: command, method: method, segments: command.spec.http.segments)
    }

    /// Resolves an HTTP API request to its command's wire request, or refuses it.
    /// - Parameters:
    ///   - method: GET, HEAD (answered as GET), POST, PUT or DELETE.
    ///   - path: the path's segments, percent-decoded (as the HTTP parser gives them), `/api/v1/` included.
    ///   - query: the query string's parameters, percent-decoded, in order.
    ///   - body: the request's body, JSON for a write; nil or empty: none.
    /// - Returns: the command and its request; the OpenAPI document; or a refusal: 404 for a path no route has, 405
    ///   (with `Allow`) for a known path and another method, 400 naming the argument for anything the command's
    ///   fields refuse.
    public static func resolve(
        method: String, path: [String], query: [(name: String, value: String)], body: [UInt8]?
    ) -> RouteResolution {
        let text = "/" + path.joined(separator: "/")
        guard path.count > prefix.count, Array(path.prefix(prefix.count)) == prefix else {
            return .refused(APIRefusal(.unknown, "no API route is \(text)"))
        }
        let below = Array(path.dropFirst(prefix.count))
        let verb = method == "HEAD" ? "GET" : method
        if below == [openAPIPath] {
            guard verb == "GET" else {
                return .refused(.methodNotAllowed(method, path: text, allowed: ["GET", "HEAD"]))
            }
            return .openAPIDocument
        }
        let matching = routes.compactMap { route in route.parameters(of: below).map { (route, $0) } }
        guard !matching.isEmpty else { return .refused(APIRefusal(.unknown, "no API route is \(text)")) }
        let candidates = matching.filter { $0.0.method == verb }
        guard let (route, parameters) = candidates.max(by: { $0.0.literalCount < $1.0.literalCount }) else {
            var allowed: [String] = []
            for (route, _) in matching where !allowed.contains(route.method) {
                allowed.append(route.method)
                if route.method == "GET" { allowed.append("HEAD") }
            }
            return .refused(.methodNotAllowed(method, path: text, allowed: allowed))
        }
        do throws(APIRefusal) {
            let request =
                verb == "GET"
                ? try readQuery(route.command, path: parameters, query: query, body: body)
                : route.command.spec.http.uploadContentTypes != nil
                    ? try readUpload(route.command, path: parameters, query: query)
                    : try readBody(route.command, path: parameters, query: query, body: body)
            return .command(route.command, request)
        } catch {
            return .refused(error)
        }
    }

    /// A GET: positionals from the path (or, when the path has no place for one, the query by its name), keys from
    /// the query, each value checked by its field.
    private static func readQuery<R: CommandRequest>(
        _ command: R.Type, path: [String: String], query: [(name: String, value: String)], body: [UInt8]?
    ) throws(APIRefusal) -> Request {
        if let body, !body.isEmpty { throw APIRefusal(.badArgument, "a GET takes no body") }
        let positionals = R.positionals.map(\.key)
        var values = path
        var keywords: [(key: String, value: String)] = []
        let repeatable = R.repeatableKeys
        for (name, value) in query {
            if positionals.contains(name) {
                guard values[name] == nil else {
                    throw APIRefusal(.badArgument, "\(name) is given twice", key: name)
                }
                values[name] = value
            } else if R.keys.contains(name) {
                guard repeatable.contains(name) || !keywords.contains(where: { $0.key == name }) else {
                    throw APIRefusal(.badArgument, "\(name) is given twice", key: name)
                }
                keywords.append((name, value))
            } else {
                throw APIRefusal(.badArgument, "\(name) is not a parameter of \(R.spec.name)", key: name)
            }
        }
        // Positionals in order: a missing one ends them, and none may follow it.
        var arguments: [String] = []
        var missing: String?
        for field in R.positionals {
            guard let value = values[field.key] else {
                if field.isRequired { throw APIRefusal(.badArgument, "\(field.key) is required", key: field.key) }
                missing = missing ?? field.key
                continue
            }
            if let missing {
                throw APIRefusal(.badArgument, "\(field.key) needs \(missing) before it", key: field.key)
            }
            arguments.append(value)
        }
        for key in R.requiredKeys.sorted() where !keywords.contains(where: { $0.key == key }) {
            throw APIRefusal(.badArgument, "\(key) is required", key: key)
        }
        var request = Request(verb: R.spec.name, arguments: arguments)
        request.keywordList = keywords
        do {
            _ = try R(decoding: request)
        } catch {
            throw APIRefusal(.badArgument, error.message, key: error.key.isEmpty ? nil : error.key)
        }
        return wire(request, of: R.self)
    }

    /// A POST, PUT or DELETE: the path's fields in wire form, the rest from the JSON body by JSON name.
    private static func readBody<R: CommandRequest>(
        _ command: R.Type, path: [String: String], query: [(name: String, value: String)], body: [UInt8]?
    ) throws(APIRefusal) -> Request {
        if let (name, _) = query.first {
            throw APIRefusal(
                .badArgument, "a \(R.spec.http.method ?? "write")'s arguments go in its JSON body", key: name)
        }
        var object: [String: Any] = [:]
        if let body, !body.isEmpty {
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(body)),
                let parsed = parsed as? [String: Any]
            else { throw APIRefusal(.badArgument, "the body must be a JSON object") }
            object = parsed
        }
        do {
            return try R(json: object, path: path).wireRequest
        } catch {
            throw APIRefusal(.badArgument, error.message, key: error.jsonName.isEmpty ? nil : error.jsonName)
        }
    }

    /// An upload: its fields from the path and the query string (in wire form, as a GET's), since the body is the
    /// payload, whose size the caller appends to the line as the CLI does.
    private static func readUpload<R: CommandRequest>(
        _ command: R.Type, path: [String: String], query: [(name: String, value: String)]
    ) throws(APIRefusal) -> Request {
        try readQuery(command, path: path, query: query, body: nil)
    }

    /// A request decoded with its verb alone, written back as the CLI sends it (verb, subverb, then arguments).
    private static func wire<R: CommandRequest>(_ request: Request, of command: R.Type) -> Request {
        let words = R.spec.name.split(separator: " ").map(String.init)
        var line = Request(verb: words[0], arguments: Array(words.dropFirst()) + request.arguments)
        line.keywordList = request.keywordList
        return line
    }
}
