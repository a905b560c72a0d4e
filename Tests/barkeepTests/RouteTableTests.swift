import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepServer
import Foundation
import Testing

/// The HTTP API's route table (BarkeepAPI/HTTP/RouteTable): every routed command's example reaches the same wire
/// request as the CLI sends and the command table accepts it; queries are the filter language by wire key; bodies
/// are read by JSON name; unknown paths are 404, other methods 405 with Allow, bad arguments 400 naming the key.
@Suite("the HTTP API's route table resolves a request to the line the CLI sends")
struct RouteTableTests {
    /// `/api/v1/` and `path`'s segments.
    private static func segments(_ path: String) -> [String] {
        RouteTable.prefix + path.split(separator: "/").map(String.init)
    }

    private static func resolve(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], body: String? = nil
    ) -> RouteResolution {
        RouteTable.resolve(method: method, path: segments(path), query: query, body: body.map { Array($0.utf8) })
    }

    private static func request(_ resolution: RouteResolution) -> Request? {
        guard case .command(_, let request) = resolution else { return nil }
        return request
    }

    private static func refusal(_ resolution: RouteResolution) -> APIRefusal? {
        guard case .refused(let refusal) = resolution else { return nil }
        return refusal
    }

    /// `R`'s example as an HTTP request: the path's parameters filled from its positionals, the other positionals
    /// and its keys in the query (GET) or the JSON body (the rest).
    private static func exampleRoundTrip<R: CommandRequest>(_ request: R.Type) throws -> (Request, RouteResolution)? {
        guard let method = R.spec.http.method else { return nil }
        let example = R.exampleRequest
        let line = example.wireRequest
        let layout = R.spec.shapes.first?.positionals ?? R.positionals.map(\.key)
        let subverbs = R.spec.name.split(separator: " ").count - 1
        let values = Dictionary(uniqueKeysWithValues: zip(layout, line.arguments.dropFirst(subverbs)))
        let parameters = Set(R.spec.http.parameterNames)
        let path = try R.spec.http.segments.map { segment in
            guard let name = HTTPRoute.parameterName(segment) else { return segment }
            return try #require(values[name], "\(R.spec.name): no value for {\(name)}")
        }
        if method == "GET" {
            var query = layout.filter { !parameters.contains($0) }.compactMap { key in values[key].map { (key, $0) } }
            query += line.keywordList.map { ($0.key, $0.value) }
            let resolution = RouteTable.resolve(
                method: "GET", path: RouteTable.prefix + path, query: query.map { (name: $0.0, value: $0.1) },
                body: nil)
            return (line, resolution)
        }
        if R.spec.http.uploadContentTypes != nil {
            // An upload's body is its payload, not JSON: the line is the path's fields and the query's keys (CHECK's
            // format, base, fail-on…); the size comes with the body.
            let query = line.keywordList.map { (name: $0.key, value: $0.value) }
            let resolution = RouteTable.resolve(
                method: method, path: RouteTable.prefix + path, query: query, body: [1, 2])
            return (line, resolution)
        }
        var object = example.json
        for field in R.fields where parameters.contains(field.key) { object[field.jsonName] = nil }
        let body = try JSONSerialization.data(withJSONObject: object)
        return (line, RouteTable.resolve(method: method, path: RouteTable.prefix + path, query: [], body: Array(body)))
    }

    @Test("every routed command's example reaches the CLI's line, and the command table accepts it")
    func everyRoute() throws {
        let admin = Session(isLocal: false, uid: nil, peerName: "test", role: .admin, actor: "test")
        var routed = 0
        for command in API.commands {
            guard let (line, resolution) = try Self.exampleRoundTrip(command) else { continue }
            routed += 1
            let request = try #require(Self.request(resolution), "\(command.spec.name): \(resolution)")
            #expect(request == line, "\(command.spec.name)")
            guard case .command(let resolved, _) = resolution else { continue }
            #expect(ObjectIdentifier(resolved) == ObjectIdentifier(command), "\(command.spec.name)")
            var sized = request
            // An upload's line ends with its payload's size, which the API appends from the body's length.
            if command.spec.payload { sized.arguments.append("2") }
            let result = CommandTable.standard.resolve(sized, session: admin, maximumPayload: 1 << 20)
            if case .failure(let refusal) = result { Issue.record("\(command.spec.name): \(refusal.reply)") }
        }
        #expect(routed == RouteTable.routes.count && routed > 40)
    }

    @Test("a findings URL is the filter language: wire keys in wire form, in order")
    func filterLanguage() throws {
        let resolution = Self.resolve(
            "GET", "projects/demo/findings",
            query: [("status", "open"), ("severity", "high,critical"), ("screen", "Login*"), ("new-in", "3")])
        let request = try #require(Self.request(resolution))
        #expect(request.line == "FINDINGS demo status=open severity=high,critical screen=Login* new-in=3")
        // HEAD is answered as GET.
        #expect(Self.request(Self.resolve("HEAD", "projects/demo/findings", query: [("status", "open")])) != nil)
    }

    @Test("a GET's bad argument is 400 naming the wire key, before any command runs")
    func getRefusals() throws {
        let unknown = try #require(
            Self.refusal(Self.resolve("GET", "projects/demo/findings", query: [("colour", "red")])))
        #expect(unknown.status == 400 && unknown.code == .badArgument && unknown.key == "colour")
        let bad = try #require(
            Self.refusal(Self.resolve("GET", "projects/demo/runs", query: [("limit", "many")])))
        #expect(bad.status == 400 && bad.key == "limit" && bad.message.contains("limit"))
        let twice = try #require(
            Self.refusal(
                Self.resolve("GET", "projects/demo/findings", query: [("status", "open"), ("status", "fixed")])))
        #expect(twice.key == "status")
        let number = try #require(Self.refusal(Self.resolve("GET", "projects/demo/findings/seven")))
        #expect(number.status == 400 && number.key == "number")
        #expect(Self.refusal(Self.resolve("GET", "projects/demo/status", body: "{}"))?.status == 400)
        // A positional the path has no place for comes from the query by its name: POSE HISTORY's pose.
        let history = Self.request(
            Self.resolve("GET", "projects/demo/screens/Login/poses", query: [("pose", "\(Pose.allCases[0])")]))
        #expect(history?.line == "POSE HISTORY demo Login \(Pose.allCases[0])")
    }

    @Test("a write's body is read by JSON name, its path in wire form; a bad one is 400 naming the JSON name")
    func bodies() throws {
        let comment = try #require(
            Self.request(
                Self.resolve("POST", "projects/demo/findings/7/comments", body: #"{"text": "seen on iOS 18"}"#)))
        #expect(comment.line == #"FINDING COMMENT demo 7 "seen on iOS 18""#)
        let set = try #require(
            Self.request(
                Self.resolve(
                    "POST", "projects/demo/findings/status",
                    body: #"{"new_status": "fixed", "where": true, "status": ["open"], "dry_run": true}"#)))
        #expect(set.verb == "FINDING" && set.arguments == ["SET", "demo", "fixed"])
        #expect(set.keyword("where") == "yes" && set.keyword("status") == "open" && set.keyword("dry-run") == "yes")
        let unknown = try #require(
            Self.refusal(Self.resolve("POST", "projects/demo/findings/7/comments", body: #"{"txt": "x"}"#)))
        #expect(unknown.status == 400 && unknown.key == "txt")
        let missing = try #require(Self.refusal(Self.resolve("POST", "projects/demo/findings/7/comments", body: "{}")))
        #expect(missing.key == "text")
        let again = try #require(
            Self.refusal(
                Self.resolve("POST", "projects/demo/findings/7/comments", body: #"{"text": "x", "project": "b"}"#)))
        #expect(again.key == "project")
        let dryRun = try #require(
            Self.refusal(
                Self.resolve("POST", "projects/demo/findings/status", body: #"{"new_status": "fixed", "dry_run": 3}"#)
            ))
        #expect(dryRun.key == "dry_run")
        #expect(Self.refusal(Self.resolve("POST", "projects/demo/steps", body: "[1]"))?.status == 400)
        #expect(Self.refusal(Self.resolve("POST", "projects/demo/steps", body: "{"))?.status == 400)
        let query = try #require(
            Self.refusal(Self.resolve("POST", "projects/demo/findings/7/comments", query: [("text", "x")])))
        #expect(query.key == "text")
    }

    @Test("an unknown path is 404; a known path with another method 405 with Allow; the error body is JSON")
    func pathsAndMethods() throws {
        for path in ["projects/demo/nothing", "projects/demo/findings/7/comments/1", "nothing"] {
            let refusal = try #require(Self.refusal(Self.resolve("GET", path)))
            #expect(refusal.status == 404 && refusal.code == .unknown, "\(path)")
        }
        let outside = RouteTable.resolve(method: "GET", path: ["projects"], query: [], body: nil)
        #expect(Self.refusal(outside)?.status == 404)
        let delete = try #require(Self.refusal(Self.resolve("DELETE", "projects/demo/findings")))
        #expect(delete.status == 405)
        #expect(delete.headers.map(\.name) == ["Allow"] && delete.headers.first?.value == "GET, HEAD")
        let project = try #require(Self.refusal(Self.resolve("POST", "projects/demo")))
        #expect(project.headers.first?.value == "GET, HEAD, PUT, DELETE")
        // The literal segment wins over a parameter: POST …/findings/status is FINDING SET (refused by its own
        // fields here), not FINDING COMMENT's …/findings/{number}/… nor a 405.
        let set = try #require(Self.refusal(Self.resolve("POST", "projects/demo/findings/status", body: "{}")))
        #expect(set.status == 400 && set.key == "new_status")
    }

    @Test("the OpenAPI document's path needs no command; the error body is {code, key, message}")
    func documentAndErrorBody() throws {
        guard case .openAPIDocument = Self.resolve("GET", "openapi.json") else {
            Issue.record("openapi.json is not the document")
            return
        }
        #expect(Self.refusal(Self.resolve("POST", "openapi.json"))?.status == 405)
        let refusal = APIRefusal(.badArgument, "severity must be one of low, high", key: "severity")
        #expect(
            String(decoding: refusal.jsonBody, as: UTF8.self)
                == #"{"code":"BADARG","key":"severity","message":"severity must be one of low, high"}"#)
        #expect(
            String(decoding: APIRefusal(.busy, "busy").jsonBody, as: UTF8.self) == #"{"code":"BUSY","message":"busy"}"#)
        #expect(APIRefusal(.busy, "busy").headers.map(\.name) == ["Retry-After"])
        #expect(APIRefusal(.forbidden, "no").status == 403)
    }
}
