import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

/// The HTTP API's OpenAPI document (BarkeepAPI/HTTP/OpenAPI): generated from the spec, checked in as
/// docs/openapi.json (`make docs` rewrites it), and valid OpenAPI 3.1 by the independent openapi-spec-validator.
@Suite("the OpenAPI document is generated from the spec, in sync with docs/openapi.json, and valid")
struct OpenAPITests {
    static let docsURL = CLIReferenceTests.root.appendingPathComponent("docs/openapi.json")

    @Test("docs/openapi.json is the generated document (BARKEEP_UPDATE_DOCS=1, or make docs, rewrites it)")
    func inSync() throws {
        let text = OpenAPI.documentText
        if ProcessInfo.processInfo.environment["BARKEEP_UPDATE_DOCS"] == "1" {
            try Data(text.utf8).write(to: Self.docsURL)
        }
        let checkedIn = try String(contentsOf: Self.docsURL, encoding: .utf8)
        #expect(checkedIn == text, "docs/openapi.json is stale: run make docs")
    }

    @Test("openapi-spec-validator accepts the document as OpenAPI 3.1")
    func valid() throws {
        let program = """
            import json, sys
            from openapi_spec_validator import validate
            from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
            document = json.load(open(sys.argv[1]))
            assert document["openapi"].startswith("3.1"), document["openapi"]
            try:
                validate(document)
            except OpenAPIValidationError as error:
                print(error)
                sys.exit(1)
            print("valid", len(document["paths"]))
            """
        let directory = try TemporaryDirectory.make(prefix: "barkeep-openapi")
        let path = directory + "/openapi.json"
        try Data(OpenAPI.documentText.utf8).write(to: URL(fileURLWithPath: path))
        let result = try PythonTools.run(program, [path])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.hasPrefix("valid "))
        // The validator refuses a broken document (the test can fail): a path parameter that is not required.
        var broken = OpenAPI.document
        var paths = try #require(broken["paths"] as? [String: [String: Any]])
        let findings = "/api/v1/projects/{project}/findings"
        var get = try #require(paths[findings]?["get"] as? [String: Any])
        var parameters = try #require(get["parameters"] as? [[String: Any]])
        parameters[0]["required"] = false
        get["parameters"] = parameters
        paths[findings]?["get"] = get
        broken["paths"] = paths
        try JSONSerialization.data(withJSONObject: broken).write(to: URL(fileURLWithPath: path))
        #expect(try PythonTools.run(program, [path]).status != 0)
    }

    @Test("one operation per route: operationId from the command's name, summary from its spec, path parameters")
    func operations() throws {
        let paths = try #require(OpenAPI.document["paths"] as? [String: [String: Any]])
        var identifiers: Set<String> = []
        for route in RouteTable.routes {
            let operation = try #require(paths[route.path]?[route.method.lowercased()] as? [String: Any])
            let name = route.command.spec.name
            let identifier = try #require(operation["operationId"] as? String)
            #expect(identifiers.insert(identifier).inserted, "\(identifier) twice")
            #expect(operation["summary"] as? String == route.command.spec.summary, "\(name)")
            let parameters = operation["parameters"] as? [[String: Any]] ?? []
            let inPath = parameters.filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String }
            #expect(inPath == route.command.spec.http.parameterNames, "\(name)")
            #expect((operation["requestBody"] != nil) == (route.method != "GET"), "\(name)")
        }
        #expect(OpenAPI.operationID("FINDING SET") == "findingSet" && OpenAPI.operationID("STATUS") == "status")
        let findings = try #require(paths["/api/v1/projects/{project}/findings"]?["get"] as? [String: Any])
        let names = (findings["parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("severity") && names.contains("new-in"), "the filter language by wire key")
    }

    @Test(
        "the byte routes: the screenshot upload takes Core's image types raw, GET screenshots/{sha256} answers them, the event stream is text/event-stream with Last-Event-ID"
    )
    func byteRoutes() throws {
        let paths = try #require(OpenAPI.document["paths"] as? [String: [String: Any]])
        let types = Set(ImageHeader.MediaType.allCases.map(\.rawValue))
        let upload = try #require(paths["/api/v1/projects/{project}/screenshots"]?["post"] as? [String: Any])
        #expect(upload["operationId"] as? String == "screenshotPut")
        let body = try #require(upload["requestBody"] as? [String: Any])
        #expect(Set((body["content"] as? [String: Any] ?? [:]).keys) == types, "\(body)")
        let fetch = try #require(paths["/api/v1/screenshots/{sha256}"]?["get"] as? [String: Any])
        let answer = (fetch["responses"] as? [String: Any])?["200"] as? [String: Any]
        #expect(Set((answer?["content"] as? [String: Any] ?? [:]).keys) == types, "\(fetch)")
        let stream = try #require(paths["/api/v1/projects/{project}/events/stream"]?["get"] as? [String: Any])
        let streamed = (stream["responses"] as? [String: Any])?["200"] as? [String: Any]
        #expect((streamed?["content"] as? [String: Any])?.keys.sorted() == ["text/event-stream"], "\(stream)")
        let parameters = (stream["parameters"] as? [[String: Any]] ?? []).map {
            "\($0["in"] as? String ?? "") \($0["name"] as? String ?? "")"
        }
        #expect(parameters.contains("header Last-Event-ID") && parameters.contains("query since"), "\(parameters)")
    }
}
