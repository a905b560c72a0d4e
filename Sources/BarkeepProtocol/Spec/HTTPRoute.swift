/// Where a command sits in the HTTP API (docs/design/web-dashboard.md section 3): a method and a path under
/// `/api/v1/` (the route table adds the prefix), or no route and why. A path's `{name}` segments are positional
/// fields of the command, named by their wire key; its other arguments come from the query string (GET, wire keys in
/// wire form) or the JSON body (POST, PUT, DELETE, by JSON name).
public enum HTTPRoute: Sendable, Equatable {
    /// A read: `GET path`.
    case get(String)
    /// A write that creates or acts: `POST path`.
    case post(String)
    /// A write that sets a resource's state: `PUT path`.
    case put(String)
    /// A write that removes: `DELETE path`.
    case delete(String)
    /// An upload: `POST path` whose body is the command's payload as it is — bytes of one of `contentTypes`
    /// (`image/png`), not JSON — its size the line's last argument, as on the wire.
    case upload(String, contentTypes: [String])
    /// Not served over HTTP, and why (PING, HELLO: the line protocol's own session commands).
    case none(reason: String)

    /// The HTTP method, upper case; nil for `.none`.
    public var method: String? {
        switch self {
        case .get: "GET"
        case .post, .upload: "POST"
        case .put: "PUT"
        case .delete: "DELETE"
        case .none: nil
        }
    }

    /// The path below `/api/v1/` (`projects/{project}/findings`); nil for `.none`.
    public var path: String? {
        switch self {
        case .get(let path), .post(let path), .put(let path), .delete(let path), .upload(let path, _): path
        case .none: nil
        }
    }

    /// Why it has no route; nil for a route.
    public var unroutedReason: String? {
        guard case .none(let reason) = self else { return nil }
        return reason
    }

    /// The content types an upload's body may have; nil for every other route, whose body (if any) is JSON.
    public var uploadContentTypes: [String]? {
        guard case .upload(_, let types) = self else { return nil }
        return types
    }

    /// The path's segments, split at `/`.
    public var segments: [String] { path.map { $0.split(separator: "/").map(String.init) } ?? [] }

    /// The names of the path's `{name}` segments, in order.
    public var parameterNames: [String] { segments.compactMap(Self.parameterName) }

    /// The name a path segment `{name}` stands for; nil for a literal segment.
    public static func parameterName(_ segment: String) -> String? {
        guard segment.count > 2, segment.hasPrefix("{"), segment.hasSuffix("}") else { return nil }
        return String(segment.dropFirst().dropLast())
    }
}
