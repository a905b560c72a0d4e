import BarkeepCore
import BarkeepProtocol
import Foundation

/// The HTTP API's OpenAPI 3.1 document, generated from the command spec (one operation per route of
/// `RouteTable.routes`): served at `GET /api/v1/openapi.json` and written to docs/openapi.json by `make docs`.
public enum OpenAPI {
    /// The document.
    public static var document: [String: Any] {
        var paths: [String: [String: Any]] = [:]
        for route in RouteTable.routes {
            paths[route.path, default: [:]][route.method.lowercased()] = operation(route.command)
        }
        addByteRoutes(to: &paths)
        let error: [String: Any] = [
            "type": "object", "required": ["code", "message"],
            "properties": [
                "code": ["type": "string", "enum": ErrorCode.allCases.map(\.rawValue)] as [String: Any],
                "message": ["type": "string"], "key": ["type": "string"],
            ] as [String: Any],
        ]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Barkeep API", "version": BarkeepVersion.current,
                "description": "The commands of Barkeep's line protocol (docs/protocol.md) over HTTP: a GET's "
                    + "arguments are query parameters by wire key in wire form (the filter language), a write's "
                    + "a JSON body by JSON name. Errors carry the wire's error code.",
            ],
            "paths": paths,
            "security": [["bearer": [String]()], ["session": [String]()]],
            "components": [
                "schemas": ["Error": error],
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer", "description": "An API token."],
                    "session": [
                        "type": "apiKey", "in": "cookie", "name": "barkeep_session",
                        "description": "The cookie of a page session (writes also need X-CSRF-Token).",
                    ],
                ] as [String: Any],
            ] as [String: Any],
        ]
    }

    /// The document as docs/openapi.json holds it: keys sorted, indented, one newline at the end.
    public static var documentText: String {
        // A dictionary of strings, numbers, arrays and dictionaries always serializes.
        let data =
            (try? JSONSerialization.data(
                withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `FINDING SET` → `findingSet`.
    public static func operationID(_ name: String) -> String {
        let words = name.lowercased().split(separator: " ").map(String.init)
        return (words.first ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func operation<R: CommandRequest>(_ command: R.Type) -> [String: Any] {
        let spec = R.spec
        let inPath = Set(spec.http.parameterNames)
        let isGet = spec.http.method == "GET"
        // An upload's body is its payload: its other arguments come from the query, as a GET's.
        let takesQuery = isGet || spec.http.uploadContentTypes != nil
        var parameters: [[String: Any]] = []
        for field in R.fields where inPath.contains(field.key) {
            parameters.append([
                "name": field.key, "in": "path", "required": true, "description": field.summary,
                "schema": wireSchema(field.schema),
            ])
        }
        if takesQuery {
            for field in R.fields where !inPath.contains(field.key) {
                var parameter: [String: Any] = [
                    "name": field.key, "in": "query", "required": field.isRequired, "description": field.summary,
                    "schema": wireSchema(field.schema), "style": "form",
                    "explode": field.placement == .repeatedKey,
                ]
                if field.placement == .repeatedKey { parameter["schema"] = ["type": "array", "items": [:]] }
                parameters.append(parameter)
            }
        }
        var operation: [String: Any] = [
            "operationId": operationID(spec.name), "summary": spec.summary,
            "tags": [String(spec.name.split(separator: " ")[0]).lowercased()],
            "responses": [
                "200": [
                    "description": "The reply, as `barkeep --json` prints it.",
                    "content": ["application/json": ["schema": R.jsonBodySchema ?? anyBody]],
                ] as [String: Any],
                "default": [
                    "description": "Refused: the wire's error code as an HTTP status.",
                    "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]],
                ] as [String: Any],
            ] as [String: Any],
        ]
        if spec.role == nil { operation["security"] = [[String: Any]]() }
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if !isGet {
            var schema = R.inputSchema
            let pathNames = Set(R.fields.filter { inPath.contains($0.key) }.map(\.jsonName))
            if var properties = schema["properties"] as? [String: Any] {
                for name in pathNames { properties[name] = nil }
                schema["properties"] = properties
            }
            let required = (schema["required"] as? [String] ?? []).filter { !pathNames.contains($0) }
            schema["required"] = required.isEmpty ? nil : required
            operation["requestBody"] = [
                "required": !required.isEmpty, "content": ["application/json": ["schema": schema]],
            ]
        }
        return operation
    }

    // MARK: - Routes whose bodies are bytes

    /// Describes the routes whose bodies are not JSON: each upload route's raw body (`HTTPRoute.upload`, its
    /// content types), a stored screenshot's bytes (`GET screenshots/{sha256}`) and WATCH's route, a project's event
    /// stream (`GET projects/{project}/events/stream`, Server-Sent Events).
    static func addByteRoutes(to paths: inout [String: [String: Any]]) {
        for route in RouteTable.routes {
            guard let types = route.command.spec.http.uploadContentTypes,
                var operation = paths[route.path]?["post"] as? [String: Any]
            else { continue }
            operation["requestBody"] =
                [
                    "required": true,
                    "description": "The bytes as they are (not JSON), at most the daemon's limit for them "
                        + "(--max-screenshot for a screenshot, --max-upload for a scan): larger is 413 TOOLONG "
                        + "before a byte is read.",
                    "content": Dictionary(uniqueKeysWithValues: types.map { ($0, bytes($0)) }),
                ] as [String: Any]
            paths[route.path]?["post"] = operation
        }
        let prefix = "/" + RouteTable.prefix.joined(separator: "/") + "/"
        paths[prefix + RouteTable.screenshotSegments.joined(separator: "/")] = ["get": screenshotOperation]
        let stream = prefix + RouteTable.eventStreamSegments.joined(separator: "/")
        if let watch = paths[stream]?["get"] as? [String: Any] { paths[stream]?["get"] = eventStreamOperation(watch) }
    }

    /// A body of bytes of `type`, as OpenAPI 3.1 describes one.
    private static func bytes(_ type: String) -> [String: Any] {
        ["schema": ["type": "string", "contentMediaType": type]]
    }

    /// The refusal every operation answers besides its success.
    private static var refusalResponse: [String: Any] {
        [
            "description": "Refused: the wire's error code as an HTTP status.",
            "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]],
        ]
    }

    /// `GET screenshots/{sha256}`: a stored screenshot's bytes, with their type.
    private static var screenshotOperation: [String: Any] {
        return [
            "operationId": "screenshotFetch", "tags": ["screenshot"],
            "summary": "A stored screenshot's bytes, by the SHA-256 a pose names (screenshot=sha256:HEX).",
            "parameters": [
                [
                    "name": "sha256", "in": "path", "required": true,
                    "description": "The SHA-256 of the bytes, 64 lowercase hex digits.",
                    "schema": ["type": "string", "pattern": "^[0-9a-f]{64}$"],
                ] as [String: Any]
            ],
            "responses": [
                "200": [
                    "description": "The image, never sniffed (X-Content-Type-Options: nosniff), cached privately.",
                    "content": Dictionary(
                        uniqueKeysWithValues: ImageHeader.MediaType.allCases.map { ($0.rawValue, bytes($0.rawValue)) }),
                ] as [String: Any],
                "default": refusalResponse,
            ] as [String: Any],
        ]
    }

    /// WATCH's operation as its route answers it: the events as Server-Sent Events (not WATCH's reply), resumable
    /// with `Last-Event-ID` as well as `since`.
    private static func eventStreamOperation(_ watch: [String: Any]) -> [String: Any] {
        var operation = watch
        let resume: [String: Any] = [
            "name": "Last-Event-ID", "in": "header", "required": false,
            "description": "Resume after this event (the id: of the last event received); it wins over since.",
            "schema": ["type": "integer", "minimum": 0],
        ]
        operation["parameters"] = (watch["parameters"] as? [[String: Any]] ?? []) + [resume]
        operation["responses"] =
            [
                "200": [
                    "description": "Server-Sent Events until the connection closes: a retry: line, then one frame an "
                        + "event (id: its sequence number, event: its kind, data: its fields as JSON) and : keep-alive "
                        + "comments when quiet.",
                    "content": ["text/event-stream": ["schema": ["type": "string"]]],
                ] as [String: Any],
                "default": refusalResponse,
            ] as [String: Any]
        return operation
    }

    /// A body whose schema is not declared yet: an object or an array.
    private static var anyBody: [String: Any] { ["type": ["object", "array"]] }

    /// A field's schema as a path or query parameter carries it: the wire's text (`yes`/`no` for a boolean, a
    /// comma-separated list for an array).
    private static func wireSchema(_ schema: ValueSchema) -> [String: Any] {
        switch schema {
        case .boolean: ["type": "string", "enum": ["yes", "no"]]
        case .described(_, let inner): wireSchema(inner)
        case .anyOf(let alternatives): ["anyOf": alternatives.map(wireSchema)]
        case .array(let items): ["type": "array", "items": wireSchema(items)]
        case .string, .integer: schema.json()
        }
    }
}
