import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// barkeepd's HTTP listener end to end, with curl as the client: keep-alive, the bearer token checked on the pool,
/// the security fields on every response, TLS with the TCP listener's certificate, and the options.
@Suite("HTTP listener end to end")
struct HTTPListenerTests {
    private let barkeepd = BuildProducts.path("barkeepd")

    /// The fields every response carries (docs/design/web-dashboard.md, section 2).
    static let securityFields = [
        "content-security-policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        "x-content-type-options: nosniff", "referrer-policy: no-referrer", "cache-control: no-store",
    ]

    /// Creates a token through the daemon's Unix socket (as its owner).
    private func makeToken(_ daemon: TestDaemon, role: String = "reader") throws -> String {
        let created = try daemon.barkeep([
            "token", "create", "web-\(UInt32.random(in: 0...UInt32.max))", "--role", role,
        ])
        return try #require(created.1.split(separator: "\n").first.map(String.init))
    }

    /// Runs curl with `arguments`; never longer than 30 s.
    private func curl(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try Subprocess.run(
            "/usr/bin/curl", ["-sS", "--http1.1", "--max-time", "20"] + arguments, timeout: .seconds(30))
    }

    /// The responses in curl `-i` output, each as its lowercased head lines and its body.
    private func responses(_ output: String) -> [(head: [String], body: String)] {
        var result: [(head: [String], body: String)] = []
        for part in output.components(separatedBy: "HTTP/1.1 ").dropFirst() {
            let pieces = part.components(separatedBy: "\r\n\r\n")
            let head = ("HTTP/1.1 " + pieces[0]).components(separatedBy: "\r\n").map { $0.lowercased() }
            result.append((head, pieces.dropFirst().joined(separator: "\r\n\r\n")))
        }
        return result
    }

    @Test(
        "keep-alive GET and HEAD: 401 with the challenge and a JSON error, a bad token 401, a good one reaches the API (200 JSON); security fields on all"
    )
    func bearerOnKeptAliveConnection() throws {
        let daemon = try TestDaemon(http: true)
        let base = try #require(daemon.httpURL)
        #expect(base.hasPrefix("http://127.0.0.1:") && !base.hasSuffix(":0"))
        let token = try makeToken(daemon)
        let result = try curl([
            "-v", "-i", "\(base)/api/v1/projects", "--next", "-I", "\(base)/api/v1/projects",
            "--next", "-i", "-H", "Authorization: Bearer bk_not_a_token", "\(base)/api/v1/projects",
            "--next", "-i", "-H", "Authorization: Bearer \(token)", "\(base)/api/v1/projects",
        ])
        #expect(result.status == 0, "\(result.error)")
        let answers = responses(result.output)
        try #require(answers.count == 4, "\(result.output)")
        // No token: 401, the challenge, the JSON error; HEAD: the same head, no body.
        for answer in answers[0...1] {
            #expect(answer.head[0] == "http/1.1 401 unauthorized")
            #expect(answer.head.contains("www-authenticate: bearer"))
            #expect(answer.head.contains("content-type: application/json; charset=utf-8"))
        }
        let noToken = try JSONSerialization.jsonObject(with: Data(answers[0].body.utf8)) as? [String: String]
        #expect(noToken?["code"] == "NOAUTH" && noToken?["message"]?.isEmpty == false)
        #expect(answers[1].body.isEmpty)
        #expect(answers[2].head[0] == "http/1.1 401 unauthorized" && answers[2].body.contains("\"code\":\"NOAUTH\""))
        // An active token: past the check, the API answers PROJECT LIST's JSON (none yet).
        #expect(answers[3].head[0] == "http/1.1 200 ok")
        let projects = try JSONSerialization.jsonObject(with: Data(answers[3].body.utf8)) as? [Any]
        #expect(projects?.isEmpty == true, "\(answers[3].body)")
        for answer in answers {
            for field in Self.securityFields { #expect(answer.head.contains(field), "\(answer.head)") }
        }
        // One connection for all four.
        #expect(result.error.components(separatedBy: "Connected to").count == 2, "\(result.error)")
        // Expect: 100-continue is answered 100 only once the head is authorized: an anonymous upload is refused 401
        // without it, a token's is invited. A body over the JSON limit (1 MiB) but within twice it is refused 413
        // TOOLONG unread, and skipped (whether curl keeps the connection after an early answer depends on timing:
        // HTTPUploadTests checks the skip on one connection).
        let body = try TemporaryDirectory.make(prefix: "barkeep-http") + "/body"
        try Data(repeating: 0x61, count: HTTPLimit.bodyBytes + 1000).write(to: URL(fileURLWithPath: body))
        let bearer = "Authorization: Bearer \(token)"
        let uploads = try curl([
            "-v", "-i", "-H", "Expect: 100-continue", "--data-binary", "small", "\(base)/api/v1/x",
            "--next", "-v", "-i", "-H", bearer, "-H", "Expect: 100-continue", "--data-binary", "small",
            "\(base)/api/v1/x",
            "--next", "-i", "-H", bearer, "-H", "Expect:", "--data-binary", "@" + body, "\(base)/api/v1/x",
            "--next", "-i", "\(base)/api/v1/projects",
        ])
        #expect(uploads.status == 0, "\(uploads.error)")
        #expect(uploads.error.components(separatedBy: "HTTP/1.1 100 Continue").count == 2, "\(uploads.error)")
        let statuses = responses(uploads.output).map { $0.head.first ?? "" }.filter { !$0.contains(" 100 ") }
        #expect(
            statuses == [
                "http/1.1 401 unauthorized", "http/1.1 404 not found", "http/1.1 413 content too large",
                "http/1.1 401 unauthorized",
            ],
            "\(uploads.output)")
        // The line protocol is untouched beside it.
        let line = try LineClient(port: daemon.port)
        #expect(try line.request("PING") == "OK PONG")
    }

    @Test("a stopping daemon closes idle kept-alive HTTP connections at once instead of waiting out its grace")
    func drain() throws {
        let daemon = try TestDaemon(http: true)
        let port = try #require(daemon.httpAddress.flatMap { UInt16($0.split(separator: ":").last ?? "") })
        let idle = try LineClient(port: port)
        try idle.send("GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try idle.readLine() == "HTTP/1.1 401 Unauthorized\r")
        let stopping = ContinuousClock.now
        daemon.process.signal(SIGTERM)
        // The grace is 5 s; an idle connection has nothing to wait for.
        #expect(daemon.process.wait(timeout: .seconds(4)) == 0)
        #expect(ContinuousClock.now - stopping < .seconds(4))
    }

    @Test("alone on its database, a daemon keeps a STATUS check across HTTP GETs; an HTTP POST voids it")
    func httpWritesVoidKeptChecks() throws {
        let daemon = try TestDaemon(http: true)
        let base = try #require(daemon.httpURL)
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let reader = try makeToken(daemon)
        let admin = try makeToken(daemon, role: "admin")
        let client = try daemon.connectionWhenSole(token: reader)
        func stats() throws -> String? { try TestDaemon.stats("status-lookups", on: client) }
        // A connection's first STATUS goes to the pool, its second looks the status version up on the loop; the next
        // ones use what that lookup kept.
        let made = try client.reply("STATUS app")
        #expect(try client.reply("STATUS app") == made)
        let lookups = try #require(try stats())
        #expect(try client.reply("STATUS app") == made)
        #expect(try stats() == lookups)
        for _ in 0..<3 {
            let got = try curl([
                "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(reader)",
                base + "/api/v1/projects",
            ])
            #expect(got.output == "200")
        }
        #expect(try client.reply("STATUS app") == made)
        #expect(try stats() == lookups)
        let posted = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(admin)", "-H",
            "Content-Type: application/json", "--data-binary", #"{"name":"other"}"#, base + "/api/v1/projects",
        ])
        #expect(posted.output == "200")
        #expect(try client.reply("STATUS app") == made)
        #expect(try stats() != lookups)
    }

    @Test("a revoked token is refused at its very next request")
    func revokedToken() throws {
        let daemon = try TestDaemon(http: true)
        let base = try #require(daemon.httpURL)
        let created = try daemon.barkeep(["token", "create", "gone", "--role", "reader"])
        let token = try #require(created.1.split(separator: "\n").first.map(String.init))
        let before = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", base + "/api/v1/projects",
        ])
        #expect(before.output == "200")
        #expect(try daemon.barkeep(["token", "revoke", "gone"]).0 == 0)
        let after = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", base + "/api/v1/projects",
        ])
        #expect(after.output == "401")
    }

    @Test("with --tls-cert the HTTP listener is TLS too: curl verifies the certificate, plain HTTP gets no answer")
    func tls() throws {
        let certificates = try TestCertificates.make()
        let daemon = try TestDaemon(
            http: true, arguments: ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile])
        let base = try #require(daemon.httpURL)
        #expect(base.hasPrefix("https://127.0.0.1:"))
        let token = try makeToken(daemon)
        let result = try curl([
            "-i", "--cacert", certificates.caFile, "-H", "Authorization: Bearer \(token)", base + "/api/v1/projects",
        ])
        #expect(result.status == 0, "\(result.error)")
        let answers = responses(result.output)
        #expect(answers.first?.head.first == "http/1.1 200 ok")
        for field in Self.securityFields { #expect(answers.first?.head.contains(field) == true) }
        // Plain text to the TLS port: the handshake fails and the connection closes without an HTTP answer.
        let plain = try curl(["-i", "http://" + base.dropFirst("https://".count) + "/"])
        #expect(plain.status != 0 && !plain.output.contains("HTTP/1.1"))
        // An unverified certificate is refused by the client.
        #expect(try curl([base + "/"]).status != 0)
    }

    @Test("--http and --no-http together are a usage error; --no-http serves no HTTP; the default is 127.0.0.1:7781")
    func options() throws {
        let both = try Subprocess.run(barkeepd, ["--http", "127.0.0.1:0", "--no-http"])
        #expect(both.status == 64 && both.error.contains("--http and --no-http"))
        let unix = try Subprocess.run(barkeepd, ["--http", "unix:/tmp/x.sock"])
        #expect(unix.status == 64 && unix.error.contains("--http takes HOST:PORT"))
        let count = try Subprocess.run(barkeepd, ["--http-max-connections", "0"])
        #expect(count.status == 64 && count.error.contains("--http-max-connections"))
        let help = try Subprocess.run(barkeepd, ["--help"])
        #expect(help.output.contains("--http HOST:PORT") && help.output.contains("127.0.0.1:7781"))
        #expect(help.output.contains("--no-http") && help.output.contains("--http-max-connections"))
        let daemon = try TestDaemon()
        #expect(daemon.httpAddress == nil && !daemon.process.errorOutput.contains(" http="))
    }
}
