import BarkeepCore
import BarkeepHashing
import BarkeepProtocol
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

/// The JSON API end to end (docs/design/web-dashboard.md, section 3): a real daemon serving HTTP, curl as the client.
/// Reads answer what the CLI's `--json` prints for the same command; writes run as the token's role (a reader's
/// refused with nothing changed), bulk writes preview; cookie sessions need the CSRF token to write; screenshots go up
/// and come back byte for byte; and every GET route's answer is checked against the served OpenAPI document.
@Suite("HTTP JSON API end to end")
struct HTTPAPITests {
    /// One HTTP answer: status, lowercased head lines, body.
    struct Answer {
        var status: Int
        var head: [String]
        var body: Data

        /// The body as JSON.
        func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        /// The body as a JSON object.
        func object() throws -> [String: Any] { try #require(try json() as? [String: Any], "\(text)") }
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request with curl: `token` as Bearer, `cookie` as the session cookie, `body` from a file.
    static func request(
        _ method: String, _ url: String, token: String? = nil, cookie: String? = nil, headers: [String] = [],
        json: String? = nil, bodyFile: String? = nil
    ) throws -> Answer {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-api")
        var arguments = ["-sS", "--http1.1", "--max-time", "20", "-X", method, "-o", directory + "/body"]
        arguments += ["-D", directory + "/head", "-w", "%{http_code}"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let cookie { arguments += ["-H", "Cookie: barkeep_session=\(cookie)"] }
        for header in headers { arguments += ["-H", header] }
        if let json {
            arguments += ["-H", "Content-Type: application/json", "--data-binary", json]
        }
        if let bodyFile { arguments += ["--data-binary", "@" + bodyFile] }
        let result = try Subprocess.run("/usr/bin/curl", arguments + [url], timeout: .seconds(30))
        try #require(result.status == 0, "\(result.error)")
        let head = try String(contentsOfFile: directory + "/head", encoding: .utf8)
        let body = (try? Data(contentsOf: URL(fileURLWithPath: directory + "/body"))) ?? Data()
        return Answer(
            status: Int(result.output) ?? 0,
            head: head.components(separatedBy: "\r\n").map { $0.lowercased() }.filter { !$0.isEmpty }, body: body)
    }

    /// Parses JSON text.
    static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// Whether two JSON values are equal (objects by key, arrays in order, numbers by value).
    static func same(_ left: Any, _ right: Any) -> Bool {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
        return (try? JSONSerialization.data(withJSONObject: left, options: options))
            == (try? JSONSerialization.data(withJSONObject: right, options: options))
    }

    /// A token of `role`, created through the owner's Unix socket.
    static func token(_ daemon: TestDaemon, _ name: String, role: String) throws -> String {
        let created = try daemon.barkeep(["token", "create", name, "--role", role])
        return try #require(created.1.split(separator: "\n").first.map(String.init), "\(created)")
    }

    /// A daemon serving HTTP with project `app`: a scan of two screens' files (DUO003 medium and DUO007 high in each),
    /// screens Inbox (ana's) and Feed, and a failed pose of Inbox with a screenshot.
    static func seeded() throws -> TestDaemon {
        let daemon = try TestDaemon(http: true)
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let findings = ["Inbox", "Feed"].flatMap { key in
            [
                #"{"rule":"DUO003","severity":"medium","file":"Sources/\#(key)/View.swift","line":3,"#
                    + #""snippet":"Text(\"\#(key)\")"}"#,
                #"{"rule":"DUO007","severity":"high","file":"Sources/\#(key)/View.swift","line":7,"#
                    + #""snippet":"let bar = UINavigationBar()"}"#,
            ]
        }
        let scan = try TemporaryDirectory.make(prefix: "barkeep-api") + "/scan.json"
        try #"{"tool":"duo_scan","version":"1.2.2","findings":[\#(findings.joined(separator: ","))]}"#.write(
            toFile: scan, atomically: true, encoding: .utf8)
        let ingested = try daemon.barkeep(["ingest", "app", scan])
        #expect(ingested.0 == 0, "\(ingested)")
        #expect(
            try daemon.barkeep(["screen", "add", "app", "Inbox", "--path", "Sources/Inbox/**", "--owner", "ana"]).0 == 0
        )
        #expect(try daemon.barkeep(["screen", "add", "app", "Feed", "--path", "Sources/Feed/**"]).0 == 0)
        let shot = try SampleImages.temporaryFile(SampleImages.png, named: "inbox.png")
        let posed = try daemon.barkeep([
            "pose", "record", "app", "Inbox", "P3", "failed", "--screenshot", shot, "--item", "Bar overlaps",
        ])
        #expect(posed.0 == 0, "\(posed)")
        return daemon
    }

    @Test("reads equal the CLI's --json (status, screens, findings with the filter language); 401, 404 and 405 in JSON")
    func reads() throws {
        let daemon = try Self.seeded()
        let base = try #require(daemon.httpURL) + "/api/v1"
        let reader = try Self.token(daemon, "rita", role: "reader")
        let pairs: [(path: String, cli: [String])] = [
            ("/projects/app/status", ["status", "app"]),
            ("/projects/app/screens", ["screen", "list", "app"]),
            (
                "/projects/app/findings?severity=high&status=proposed",
                ["findings", "app", "--severity", "high", "--status", "proposed", "--limit", "500"]
            ),
            (
                "/projects/app/findings?rule=DUO003&owner=ana&limit=1",
                ["findings", "app", "--rule", "DUO003", "--owner", "ana", "--limit", "1"]
            ),
            ("/projects/app/findings/1", ["finding", "show", "app", "1"]),
        ]
        for (path, cli) in pairs {
            let answer = try Self.request("GET", base + path, token: reader)
            #expect(answer.status == 200, "\(path): \(answer.text)")
            #expect(answer.head.contains("content-type: application/json; charset=utf-8"))
            let printed = try daemon.barkeep(["--json"] + cli)
            #expect(printed.0 == 0, "\(printed)")
            #expect(try Self.same(answer.json(), try Self.parse(printed.1)), "\(path)\n\(answer.text)\n\(printed.1)")
        }
        // The filter narrows: the two medium DUO003 findings are not in the high ones. A page by default
        // (FindingPage.defaultLimit), the last one: no next, no Link.
        let highAnswer = try Self.request("GET", base + "/projects/app/findings?severity=high", token: reader)
        let high = try highAnswer.object()
        #expect((high["rows"] as? [Any])?.count == 2, "\(highAnswer.text)")
        #expect((high["summary"] as? [String: Any])?["limit"] as? Int == FindingPage.defaultLimit)
        #expect((high["summary"] as? [String: Any])?["next"] is NSNull)
        #expect(!highAnswer.head.contains { $0.hasPrefix("link:") })
        // A cut page names the next: in its summary and in a Link header keeping the filters; following it joins
        // the pages into the whole list, by number.
        var numbers: [Int] = []
        var url: String? = base + "/projects/app/findings?status=all&limit=3"
        while let next = url {
            let page = try Self.request("GET", next, token: reader)
            let object = try page.object()
            numbers += (object["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            let link = page.head.first { $0.hasPrefix("link:") }
            let cursor = (object["summary"] as? [String: Any])?["next"] as? Int
            #expect((link == nil) == (cursor == nil), "\(page.head)")
            url = try link.map { link in
                let target = try #require(link.firstMatch(of: /<([^>]+)>; rel="next"/)?.1, "\(link)")
                #expect(target.hasSuffix("status=all&limit=3&after=\(cursor ?? 0)"), "\(link)")
                return try #require(daemon.httpURL) + target
            }
        }
        #expect(numbers == [1, 2, 3, 4, 5], "\(numbers)")
        for bad in ["limit=0", "limit=1001", "limit=x", "after=0", "after=-1"] {
            let refused = try Self.request("GET", base + "/projects/app/findings?" + bad, token: reader)
            let key = String(bad.prefix { $0 != "=" })
            #expect(
                try refused.status == 400 && refused.object()["code"] as? String == "BADARG"
                    && refused.object()["key"] as? String == key, "\(bad): \(refused.text)")
        }

        // No token: 401 with the challenge and the JSON error; a bad token the same.
        for token in [nil, "bk_not_a_token"] {
            let refused = try Self.request("GET", base + "/projects/app/status", token: token)
            #expect(refused.status == 401 && refused.head.contains("www-authenticate: bearer"))
            #expect(try refused.object()["code"] as? String == "NOAUTH")
        }
        // Unknown path 404, wrong method 405 with Allow, unknown project 404 NOTFOUND, bad filter value 400 naming it.
        let unknown = try Self.request("GET", base + "/nothing/here", token: reader)
        #expect(try unknown.status == 404 && (unknown.object()["code"] as? String) == "UNKNOWN")
        let method = try Self.request("DELETE", base + "/projects/app/status", token: reader)
        #expect(method.status == 405 && method.head.contains { $0.hasPrefix("allow: get") }, "\(method.head)")
        let project = try Self.request("GET", base + "/projects/nope/status", token: reader)
        #expect(try project.status == 404 && (project.object()["code"] as? String) == "NOTFOUND", "\(project.text)")
        let badFilter = try Self.request("GET", base + "/projects/app/findings?severity=loud", token: reader)
        #expect(
            try badFilter.status == 400 && badFilter.object()["code"] as? String == "BADARG"
                && badFilter.text.contains("'loud' is not a severity"), "\(badFilter.text)")
        // The document needs no token.
        let document = try Self.request("GET", base + "/openapi.json")
        #expect(try document.status == 200 && (document.object()["openapi"] as? String)?.hasPrefix("3.1") == true)
    }

    @Test(
        "writes: a reader's 403 changes nothing; a writer's bulk set previews (dry_run) then changes; a misspelled key is 400"
    )
    func writes() throws {
        let daemon = try Self.seeded()
        let base = try #require(daemon.httpURL) + "/api/v1"
        let reader = try Self.token(daemon, "rita", role: "reader")
        let writer = try Self.token(daemon, "wes", role: "writer")
        let show = { try Self.parse(try daemon.barkeep(["--json", "finding", "show", "app", "1"]).1) }
        let before = try show()

        let refused = try Self.request(
            "POST", base + "/projects/app/findings/status", token: reader,
            json: #"{"number":[1],"new_status":"approved"}"#)
        #expect(try refused.status == 403 && (refused.object()["code"] as? String) == "FORBIDDEN", "\(refused.text)")
        #expect(try Self.same(show(), before))

        let misspelled = try Self.request(
            "POST", base + "/projects/app/findings/status", token: writer,
            json: #"{"rule":["DUO003"],"new_status":"approved","dryrun":true}"#)
        #expect(
            try misspelled.status == 400 && misspelled.object()["key"] as? String == "dryrun", "\(misspelled.text)")
        #expect(try Self.same(show(), before))

        let bulk = #"{"where":true,"rule":["DUO003"],"new_status":"approved""#
        let statuses = {
            try #require(
                try Self.parse(try daemon.barkeep(["--json", "findings", "app"]).1) as? [[String: Any]]
            ).map { $0["status"] as? String ?? "" }
        }
        let proposedBefore = try statuses().filter { $0 == "proposed" }.count
        let preview = try Self.request(
            "POST", base + "/projects/app/findings/status", token: writer, json: bulk + #","dry_run":true}"#)
        #expect(preview.status == 200, "\(preview.text)")
        let cliPreview = try daemon.barkeep([
            "--json", "finding", "set", "app", "--where", "--rule", "DUO003", "approved", "--dry-run",
        ])
        #expect(try Self.same(preview.json(), try Self.parse(cliPreview.1)), "\(preview.text)\n\(cliPreview.1)")
        // The preview changed nothing.
        #expect(try statuses().filter { $0 == "proposed" }.count == proposedBefore && proposedBefore >= 4)

        let applied = try Self.request("POST", base + "/projects/app/findings/status", token: writer, json: bulk + "}")
        #expect(applied.status == 200, "\(applied.text)")
        #expect(try statuses().filter { $0 == "approved" }.count == 2)
        #expect(try statuses().filter { $0 == "proposed" }.count == proposedBefore - 2)
    }

    @Test("a cookie session reads, and writes only with its CSRF token and from its own origin")
    func cookieSession() throws {
        let daemon = try Self.seeded()
        let base = try #require(daemon.httpURL) + "/api/v1"
        _ = try Self.token(daemon, "wes", role: "writer")
        let database = try PostgresConnection(configuration: PostgresConfiguration(conninfo: daemon.url))
        defer { database.close() }
        let tokenID = try #require(try TokenStore.list(on: database).first { $0.name == "wes" }?.id)
        let (cookie, csrf) = try SessionStore.create(tokenID: tokenID, on: database)

        let read = try Self.request("GET", base + "/projects/app/screens", cookie: cookie)
        #expect(read.status == 200, "\(read.text)")
        #expect(
            try Self.request("GET", base + "/projects/app/screens", cookie: String(repeating: "0", count: 64)).status
                == 401)

        let comment = base + "/projects/app/findings/1/comments"
        let body = #"{"text":"seen on the phone"}"#
        let noToken = try Self.request("POST", comment, cookie: cookie, json: body)
        #expect(try noToken.status == 403 && (noToken.object()["code"] as? String) == "FORBIDDEN", "\(noToken.text)")
        let wrongToken = try Self.request(
            "POST", comment, cookie: cookie, headers: ["X-CSRF-Token: \(String(csrf.reversed()))"], json: body)
        #expect(wrongToken.status == 403)
        let otherOrigin = try Self.request(
            "POST", comment, cookie: cookie, headers: ["X-CSRF-Token: \(csrf)", "Origin: https://evil.example"],
            json: body)
        #expect(otherOrigin.status == 403)
        let history = { try daemon.barkeep(["finding", "show", "app", "1"]).1 }
        #expect(try !(history()).contains("seen on the phone"))
        let written = try Self.request("POST", comment, cookie: cookie, headers: ["X-CSRF-Token: \(csrf)"], json: body)
        #expect(written.status == 200, "\(written.text)")
        #expect(try history().contains("seen on the phone"))
    }

    @Test(
        "screenshots: POST a PNG then GET the same bytes with their type; a wrong type is 415, a reader cannot upload")
    func screenshots() throws {
        let daemon = try TestDaemon(http: true)
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let base = try #require(daemon.httpURL) + "/api/v1"
        let reader = try Self.token(daemon, "rita", role: "reader")
        let writer = try Self.token(daemon, "wes", role: "writer")
        let file = try SampleImages.temporaryFile(SampleImages.png, named: "shot.png")
        let upload = base + "/projects/app/screenshots"

        // Refused: another type, a type the image's header contradicts (415); a reader (403).
        for (token, type, status) in [
            (writer, "text/plain", 415), (writer, "image/jpeg", 415), (reader, "image/png", 403),
        ] {
            let refused = try Self.request(
                "POST", upload, token: token, headers: ["Content-Type: \(type)"], bodyFile: file)
            #expect(refused.status == status, "\(type): \(refused.text)")
        }

        let stored = try Self.request(
            "POST", upload, token: writer, headers: ["Content-Type: image/png"], bodyFile: file)
        #expect(stored.status == 200, "\(stored.text)")
        let hex = SHA256Digest.hex(of: SampleImages.png)
        let object = try stored.object()
        #expect(object["sha256"] as? String == hex && object["width"] as? Int == 3, "\(stored.text)")
        #expect(object["media_type"] as? String == "image/png", "\(stored.text)")

        let fetched = try Self.request("GET", base + "/screenshots/\(hex)", token: reader)
        #expect(fetched.status == 200)
        #expect([UInt8](fetched.body) == SampleImages.png)
        for field in [
            "content-type: image/png", "x-content-type-options: nosniff", "content-disposition: inline",
            "cache-control: private, max-age=31536000, immutable", "content-security-policy: default-src 'none'",
        ] {
            #expect(fetched.head.contains(field), "\(fetched.head)")
        }
        #expect(try Self.request("GET", base + "/screenshots/\(hex)").status == 401)
        let missing = try Self.request("GET", base + "/screenshots/\(String(repeating: "0", count: 64))", token: reader)
        #expect(missing.status == 404)
    }

    /// The Python function both OpenAPI walks use: the document's path template a request's path answers to (of
    /// those matching, the one with the most literal segments), or None.
    static let pathTemplate = """
        def template(path):
            parts = path.split("?")[0].strip("/").split("/")
            best = None
            for name in document["paths"]:
                pattern = name.strip("/").split("/")
                if len(pattern) != len(parts): continue
                if all(p.startswith("{") or p == q for p, q in zip(pattern, parts)):
                    literals = sum(not p.startswith("{") for p in pattern)
                    if best is None or literals > best[0]: best = (literals, name)
            return best and best[1]
        """

    /// Checks each GET path's answer (status and JSON body) against the OpenAPI document the daemon serves, with
    /// jsonschema: the operation of the path's template, its response for the status (or `default`).
    static let conformance = """
        import json, sys, urllib.request, urllib.error
        from jsonschema import Draft202012Validator
        base, token = sys.argv[1], sys.argv[2]
        document = json.load(urllib.request.urlopen(base + "/api/v1/openapi.json"))
        \(pathTemplate)
        # The check can fail: PROJECT LIST's schema refuses an object where its array belongs.
        listing = dict(document["paths"]["/api/v1/projects"]["get"]["responses"]["200"]["content"]["application/json"]["schema"])
        listing["components"] = document["components"]
        assert list(Draft202012Validator(listing).iter_errors({"name": "app"})), "the schema check accepts anything"
        failures = 0
        for path in sys.argv[3:]:
            request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
            try:
                answer = urllib.request.urlopen(request)
                status, body = answer.status, answer.read()
            except urllib.error.HTTPError as error:
                status, body = error.code, error.read()
            name = template(path)
            operation = document["paths"].get(name, {}).get("get") if name else None
            if operation is None:
                print("NO-OPERATION", path); failures += 1; continue
            response = operation["responses"].get(str(status)) or operation["responses"].get("default")
            if response is None:
                print("NO-RESPONSE", status, path); failures += 1; continue
            schema = dict(response["content"]["application/json"]["schema"])
            schema["components"] = document["components"]
            errors = list(Draft202012Validator(schema).iter_errors(json.loads(body)))
            for error in errors[:3]:
                print("INVALID", path, "/".join(map(str, error.absolute_path)), error.message[:300])
            failures += bool(errors)
            print(status, path)
        sys.exit(1 if failures else 0)
        """

    @Test("every GET route's answer on a seeded daemon matches the served OpenAPI document (status and body)")
    func openAPIConformance() throws {
        let daemon = try Self.seeded()
        let base = try #require(daemon.httpURL)
        let admin = try Self.token(daemon, "ada", role: "admin")
        #expect(try daemon.barkeep(["finding", "comment", "app", "1", "looked at it"]).0 == 0)
        let paths = [
            "/api/v1/projects", "/api/v1/projects/app", "/api/v1/projects/app/status", "/api/v1/projects/app/screens",
            "/api/v1/projects/app/screens/Inbox", "/api/v1/projects/app/screens/Inbox/poses",
            "/api/v1/projects/app/findings", "/api/v1/projects/app/findings?severity=high",
            "/api/v1/projects/app/findings/1", "/api/v1/projects/app/mine?as=ana", "/api/v1/projects/app/runs",
            "/api/v1/projects/app/runs/1", "/api/v1/projects/app/blocked", "/api/v1/projects/app/burndown",
            "/api/v1/projects/app/poses", "/api/v1/projects/app/events", "/api/v1/projects/app/steps",
            "/api/v1/projects/app/dismissals", "/api/v1/projects/app/exclusions", "/api/v1/checklist",
            "/api/v1/hooks", "/api/v1/tokens", "/api/v1/sources", "/api/v1/projects/nope/status",
        ]
        let result = try PythonTools.run(Self.conformance, [base, admin] + paths)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        // Every path answered 200 but the unknown project (its 404 checked against the error schema).
        let lines = result.output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("200 ") }.count == paths.count - 1, "\(result.output)")
        #expect(lines.contains("404 /api/v1/projects/nope/status"))
    }

    @Test("docs/operations.md's HTTP API section states the answer bound and the cookie names as the code has them")
    func documented() throws {
        let text = try String(
            contentsOf: CLIReferenceTests.root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## The HTTP API").dropFirst().first)
        #expect(section.contains(HTTPLimit.answerRecords.formatted(.number.locale(Locale(identifier: "en_US")))))
        #expect(section.contains("`limit` (1 to \(FindingPage.maximumLimit), default \(FindingPage.defaultLimit))"))
        #expect(section.contains("`barkeep_session`") && section.contains("`__Host-barkeep_session`"))
        #expect(section.contains("[openapi.json](openapi.json)"))
        for code in ErrorCode.allCases {
            #expect(section.contains("`\(code.rawValue)` \(code.httpStatus)"), "\(code)")
        }
    }
}
