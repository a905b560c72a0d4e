import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

/// Every write route of the HTTP API run against a seeded daemon, each answer (status and JSON body) checked with
/// jsonschema's Draft 2020-12 validator against the OpenAPI document the daemon serves — independent of our own
/// JSONSchemaValidator. The walk takes its routes from the served document: a write operation without a case here
/// fails it, so a new route is not forgotten. Each case also runs refused: by a reader (403), and by a writer when
/// it needs an admin; with a member the body does not take (400 naming it); on a project that does not exist (404).
@Suite("HTTP API writes answer as the served OpenAPI document says")
struct HTTPAPIWritesTests {
    /// The walk: argv is the base URL, a JSON object of tokens by role, and the cases' JSON file. A case is
    /// `{method, path, body, as, status, code?, key?, save?, refusals?}`: `<name>` in a path is the `id` of the answer
    /// (or of its first row) of the case that saved `name`; `refusals: false` leaves out the generic refused runs (a second identical
    /// request, made to answer 409); `upload: {file, type}` sends the file's bytes as the body instead (a screenshot),
    /// and is skipped, said `UNDOCUMENTED`, while the document has no such operation.
    static let walk = #"""
        import json, sys, urllib.request, urllib.error
        from jsonschema import Draft202012Validator
        base, tokens, cases = sys.argv[1], json.loads(sys.argv[2]), json.load(open(sys.argv[3]))
        document = json.load(urllib.request.urlopen(base + "/api/v1/openapi.json"))
        \#(HTTPAPITests.pathTemplate)
        def send(method, path, body, role, upload=None):
            data = json.dumps(body).encode() if body is not None else None
            headers = {"Authorization": "Bearer " + tokens[role]}
            if data is not None: headers["Content-Type"] = "application/json"
            if upload is not None:
                data, headers["Content-Type"] = open(upload["file"], "rb").read(), upload["type"]
            request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
            try:
                answer = urllib.request.urlopen(request)
                return answer.status, answer.read()
            except urllib.error.HTTPError as error:
                return error.code, error.read()
        # The check can fail: FINDING SET's schema refuses a bulk answer without its counts and rows.
        probe = dict(document["paths"]["/api/v1/projects/{project}/findings/status"]["post"]["responses"]["200"]["content"]["application/json"]["schema"])
        probe["components"] = document["components"]
        assert list(Draft202012Validator(probe).iter_errors({"dry_run": True})), "the schema check accepts anything"
        failures, saved, covered = 0, {}, set()
        def check(method, path, body, role, status, code=None, key=None, upload=None):
            global failures
            for name, value in saved.items(): path = path.replace("<" + name + ">", str(value))
            label = "%s %s as %s" % (method, path, role)
            name = template(path)
            operation = document["paths"].get(name, {}).get(method.lower()) if name else None
            if operation is None:
                if upload is not None: print("UNDOCUMENTED", label); return None
                print("NO-OPERATION", label); failures += 1; return None
            got, raw = send(method, path, body, role, upload)
            answer = json.loads(raw) if raw else None
            if got != status:
                print("STATUS", got, "not", status, label, raw[:300]); failures += 1; return answer
            response = operation["responses"].get(str(got)) or operation["responses"].get("default")
            if response is None:
                print("NO-RESPONSE", got, label); failures += 1; return answer
            schema = dict(response["content"]["application/json"]["schema"])
            schema["components"] = document["components"]
            errors = list(Draft202012Validator(schema).iter_errors(answer))
            for error in errors[:3]:
                print("INVALID", label, "/".join(map(str, error.absolute_path)), error.message[:300])
            failures += bool(errors)
            if code is not None and answer.get("code") != code:
                print("CODE", answer.get("code"), "not", code, label); failures += 1
            if key is not None and answer.get("key") != key:
                print("KEY", answer.get("key"), "not", key, label); failures += 1
            if got == 200: covered.add((method.lower(), name))
            print(got, label)
            return answer
        for case in cases:
            method, path, body = case["method"], case["path"], case.get("body")
            if case.get("refusals", True):
                check(method, path, body, "reader", 403, "FORBIDDEN")
                if case["as"] == "admin": check(method, path, body, "writer", 403, "FORBIDDEN")
                check(method, path, dict(body or {}, unknown_member=1), case["as"], 400, "BADARG", "unknown_member")
                if path.startswith("/api/v1/projects/app/"):
                    check(method, path.replace("/projects/app/", "/projects/nope/", 1), body, case["as"], 404, "NOTFOUND")
            answer = check(
                method, path, body, case["as"], case["status"], case.get("code"), case.get("key"), case.get("upload"))
            if case.get("save"):
                row = answer[0] if isinstance(answer, list) and answer else answer
                saved[case["save"]] = row.get("id") if isinstance(row, dict) else None
        writes = {(method, name) for name, item in document["paths"].items() for method in item if method != "get"}
        for method, name in sorted(writes - covered):
            print("NO-CASE", method.upper(), name); failures += 1
        print("covered", len(covered & writes), "of", len(writes))
        sys.exit(1 if failures else 0)
        """#

    /// The cases, in order: what each write needs exists by the time it runs (a component before USES, an item
    /// before ITEM SET), deletions last.
    static func cases(inbox: String, screenshot: String, scan: String) -> String {
        let project = "/api/v1/projects/app"
        let rows: [String] = [
            #"{"method":"POST","path":"\#(project)/findings/1/comments","body":{"text":"seen on the phone"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/findings/status","body":{"where":true,"rule":["DUO003"],"new_status":"approved","dry_run":true},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/findings/status","body":{"where":true,"rule":["DUO003"],"new_status":"approved"},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/findings/status","body":{"number":[2],"new_status":"applied"},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/findings/status","body":{"number":[2],"new_status":"declined"},"as":"writer","status":400,"code":"BADARG","key":"reason","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/findings/status","body":{"number":[99],"new_status":"approved"},"as":"writer","status":404,"code":"NOTFOUND","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/findings/assignee","body":{"where":true,"severity":["high"],"name":"ana","dry_run":true},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/findings/assignee","body":{"number":[1],"name":"ana"},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/findings/assignee","body":{"number":[1],"name":"Ana Lopez!"},"as":"writer","status":400,"code":"BADARG","key":"name","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/steps","body":{"screen":"Inbox","step":1,"state":"not_applicable","note":"no bar"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/steps","body":{"screen":"Feed","step":1,"state":"done"},"as":"writer","status":409,"code":"CONFLICT","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/steps","body":{"all":true,"step":2,"state":"done","dry_run":true},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/poses","body":{"screen":"Feed","pose":"P1","result":"passed","device":"Duo 3"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/poses","body":{"screens":"*","pose":"P2","result":"passed","dry_run":true},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/screens","body":{"key":"Settings","path":["Sources/Settings/**"]},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/screens","body":{"key":"Settings","path":["Sources/Settings/**"]},"as":"writer","status":409,"code":"CONFLICT","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/screens","body":{"key":"Button","kind":"component","path":["Sources/Button/**"]},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"PUT","path":"\#(project)/screens","body":{"key":"Settings","owner":"bo"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/screens/Inbox/uses","body":{"component":"Button"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/dismissals","body":{"key":"Onboarding"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/exclusions","body":{"path":"Sources/Generated/**","why":"generated"},"as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/items","body":{"screen":"Inbox","step":1,"title":"Bar hides the title"},"as":"writer","status":200,"save":"item"}"#,
            #"{"method":"PUT","path":"\#(project)/items/<item>","body":{"title":"Bar hides the title on P3"},"as":"writer","status":200}"#,
            #"{"method":"DELETE","path":"\#(project)/items/<item>","as":"writer","status":200}"#,
            #"{"method":"POST","path":"\#(project)/screenshots","upload":{"file":"\#(screenshot)","type":"image/png"},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/check?format=duo-scan&fail-on=critical&record=no","upload":{"file":"\#(scan)","type":"application/json"},"as":"reader","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/check?format=duo-scan&base=99","upload":{"file":"\#(scan)","type":"application/json"},"as":"reader","status":404,"code":"NOTFOUND","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/check?format=duo-scan&fail-on=severe","upload":{"file":"\#(scan)","type":"application/json"},"as":"reader","status":400,"code":"BADARG","key":"fail-on","refusals":false}"#,
            #"{"method":"PUT","path":"\#(project)/sdk","body":{"version":"26.1"},"as":"admin","status":200}"#,
            #"{"method":"POST","path":"\#(project)/hooks","body":{"url":"http://127.0.0.1:9/hook"},"as":"admin","status":200,"save":"hook"}"#,
            #"{"method":"POST","path":"/api/v1/hooks/<hook>/pause","as":"admin","status":200}"#,
            #"{"method":"POST","path":"/api/v1/hooks/<hook>/resume","as":"admin","status":200}"#,
            #"{"method":"POST","path":"/api/v1/hooks/<hook>/test","as":"admin","status":200}"#,
            #"{"method":"DELETE","path":"/api/v1/hooks/<hook>","as":"admin","status":200}"#,
            #"{"method":"DELETE","path":"/api/v1/hooks/<hook>","as":"admin","status":404,"code":"NOTFOUND","refusals":false}"#,
            #"{"method":"POST","path":"\#(project)/sources","body":{"inbox":"\#(inbox)"},"as":"admin","status":200,"save":"source"}"#,
            #"{"method":"POST","path":"/api/v1/sources/<source>/pause","as":"writer","status":200}"#,
            #"{"method":"POST","path":"/api/v1/sources/<source>/resume","as":"writer","status":200}"#,
            #"{"method":"POST","path":"/api/v1/sources/<source>/run","as":"writer","status":200}"#,
            #"{"method":"DELETE","path":"/api/v1/sources/<source>","as":"admin","status":200}"#,
            #"{"method":"DELETE","path":"\#(project)/screens","body":{"screens":"Butt*","dry_run":true},"as":"writer","status":200}"#,
            #"{"method":"DELETE","path":"\#(project)/screens","body":{"key":"Settings"},"as":"writer","status":200,"refusals":false}"#,
            #"{"method":"POST","path":"/api/v1/projects","body":{"name":"other"},"as":"admin","status":200}"#,
            #"{"method":"POST","path":"/api/v1/projects","body":{"name":"other"},"as":"admin","status":409,"code":"CONFLICT","refusals":false}"#,
            #"{"method":"PUT","path":"/api/v1/projects/other","body":{"deployment_target":"18.0"},"as":"admin","status":200}"#,
            #"{"method":"DELETE","path":"/api/v1/projects/other","as":"admin","status":200}"#,
            #"{"method":"PUT","path":"/api/v1/projects/other","body":{"deployment_target":"18.0"},"as":"admin","status":404,"code":"NOTFOUND","refusals":false}"#,
            #"{"method":"POST","path":"/api/v1/tokens","body":{"name":"tess","role":"reader"},"as":"admin","status":200}"#,
            #"{"method":"POST","path":"/api/v1/tokens","body":{"name":"tess","role":"reader"},"as":"admin","status":409,"code":"CONFLICT","refusals":false}"#,
            #"{"method":"DELETE","path":"/api/v1/tokens/tess","as":"admin","status":200}"#,
        ]
        return "[\n" + rows.joined(separator: ",\n") + "\n]\n"
    }

    @Test(
        "every write route's answers, refused and not, match the served OpenAPI document; none is left without a case")
    func writes() throws {
        let daemon = try HTTPAPITests.seeded()
        let base = try #require(daemon.httpURL)
        var tokens: [String: String] = [:]
        for (name, role) in [("rita", "reader"), ("wes", "writer"), ("ada", "admin")] {
            tokens[role] = try HTTPAPITests.token(daemon, name, role: role)
        }
        let directory = try TemporaryDirectory.make(prefix: "barkeep-writes")
        let inbox = directory + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let cases = directory + "/cases.json"
        let screenshot = try SampleImages.temporaryFile(SampleImages.png, named: "walk.png")
        // A pull request's scan for CHECK's upload route (a reader's).
        let scan = directory + "/scan.json"
        try Data(
            #"{"tool":"duo_scan","version":"1.2.2","findings":[{"rule":"DUO007","severity":"medium","file":"Sources/New.swift","line":3,"snippet":"let bar = UIToolbar()"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: scan))
        try Self.cases(inbox: inbox, screenshot: screenshot, scan: scan).write(
            toFile: cases, atomically: true, encoding: .utf8)
        let tokenText = String(decoding: try JSONSerialization.data(withJSONObject: tokens), as: UTF8.self)
        let result = try PythonTools.run(Self.walk, [base, tokenText, cases])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let writes = RouteTable.routes.filter { $0.method != "GET" }.count
        #expect(lines.last == "covered \(writes) of \(writes)", "\(result.output)")
        // The screenshot upload answered 200 against its operation, or waits for the document to have one.
        #expect(
            lines.contains { $0.hasSuffix("POST /api/v1/projects/app/screenshots as writer") }, "\(result.output)")
        // The error bodies were checked for each status the routes answer refusals with.
        for status in ["400", "403", "404", "409"] {
            #expect(lines.contains { $0.hasPrefix(status + " ") }, "no \(status) checked")
        }
    }
}
