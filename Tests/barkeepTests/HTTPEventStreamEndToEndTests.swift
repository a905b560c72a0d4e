import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The event stream end to end (docs/design/web-dashboard.md, section 6): a real daemon, the CLI changing things,
/// and curl holding `GET /api/v1/projects/{p}/events/stream` open.
@Suite("HTTP event stream end to end")
struct HTTPEventStreamEndToEndTests {
    /// Opens a stream with curl (`-N`: every byte as it comes) and `headers`; it runs until killed or the stream ends.
    private func openStream(_ base: String, token: String, query: String = "", headers: [String] = []) throws
        -> Subprocess
    {
        try Subprocess.spawn(
            "/usr/bin/curl",
            ["-sS", "-N", "--http1.1", "--max-time", "60", "-H", "Authorization: Bearer \(token)"]
                + headers.flatMap { ["-H", $0] } + ["\(base)/api/v1/projects/app/events/stream\(query)"])
    }

    /// Creates project `app` from a real scan and a reader's token `viewer`: the token and the findings' numbers.
    private func prepare(_ daemon: TestDaemon) throws -> (token: String, numbers: [Int]) {
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let fixture = try #require(Fixtures.directory) + "/duo_scan/gilrodar_ToolBar.json"
        #expect(try daemon.barkeep(["ingest", "app", fixture]).0 == 0)
        let created = try daemon.barkeep(["token", "create", "viewer", "--role", "reader"])
        let token = try #require(created.1.split(separator: "\n").first.map(String.init))
        let findings = try JSONSerialization.jsonObject(
            with: Data(try daemon.barkeep(["--json", "findings", "app"]).1.utf8))
        return (token, try #require((findings as? [[String: Any]])?.compactMap { $0["id"] as? Int }))
    }

    /// The ids of the events a stream's output holds, in order.
    private func ids(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    @Test(
        "a finding set appears on an open stream within a second; Last-Event-ID resumes with nothing lost; a revoked token ends the stream; line and HTTP requests keep answering"
    )
    func liveResumeRevoke() throws {
        let daemon = try TestDaemon(http: true)
        let base = "http://" + (try #require(daemon.httpAddress))
        let (token, numbers) = try prepare(daemon)
        try #require(numbers.count >= 2)

        let stream = try openStream(base, token: token)
        defer { stream.signal(SIGKILL) }
        #expect(eventually(.seconds(10)) { stream.output.hasPrefix("retry: 1000\n\n") })
        let started = ContinuousClock.now
        let set = try daemon.barkeep(["finding", "set", "app", String(numbers[0]), "declined", "--reason", "kept"])
        #expect(set.0 == 0, "\(set.2)")
        #expect(eventually(.seconds(5)) { stream.output.contains("event: finding.status\n") })
        #expect(ContinuousClock.now - started < .seconds(1), "the event took \(ContinuousClock.now - started)")
        let first = try #require(ids(stream.output).last)
        #expect(stream.output.contains("\"kind\":\"finding.status\"") && stream.output.contains("\"project\":\"app\""))

        // Meanwhile the line protocol and other HTTP requests answer.
        #expect(try daemon.barkeep(["ping"]).0 == 0)
        let other = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                base + "/api/v1/x",
            ])
        #expect(other.1 == "404")

        // Two more changes while a second stream resumes from the first event: it gets exactly what followed.
        #expect(
            try daemon.barkeep(["finding", "set", "app", String(numbers[1]), "declined", "--reason", "kept"]).0 == 0)
        #expect(try daemon.barkeep(["finding", "assign", "app", String(numbers[0]), "alice"]).0 == 0)
        #expect(eventually(.seconds(5)) { ids(stream.output).count >= 3 })
        let resumed = try openStream(base, token: token, headers: ["Last-Event-ID: \(first)"])
        defer { resumed.signal(SIGKILL) }
        #expect(eventually(.seconds(5)) { ids(resumed.output) == Array(ids(stream.output).drop { $0 <= first }) })
        #expect(ids(resumed.output).count >= 2 && ids(resumed.output).allSatisfy { $0 > first })
        let since = try openStream(base, token: token, query: "?since=\(first)")
        defer { since.signal(SIGKILL) }
        #expect(eventually(.seconds(5)) { ids(since.output) == ids(resumed.output) })

        // Revoking the token ends every stream it opened; curl exits (the stream closed), a reconnect is 401.
        #expect(try daemon.barkeep(["token", "revoke", "viewer"]).0 == 0)
        #expect(stream.wait(timeout: .seconds(5)) != nil)
        #expect(resumed.wait(timeout: .seconds(5)) != nil)
        let refused = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                base + "/api/v1/projects/app/events/stream",
            ])
        #expect(refused.1 == "401")
    }

    @Test("signing out ends the event streams the session opened, at once; a stream of another session goes on")
    func signOutEndsStreams() throws {
        let daemon = try TestDaemon(http: true)
        let base = "http://" + (try #require(daemon.httpAddress))
        let (token, numbers) = try prepare(daemon)
        let number = try #require(numbers.first)
        /// Signs in through the form: the session's cookie.
        func signIn() throws -> String {
            let signedIn = try Subprocess.run(
                "/usr/bin/curl",
                ["-sS", "-o", "/dev/null", "-D", "-", "--data", "token=\(token)&next=/", base + "/signin"])
            let field = signedIn.1.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: ") } ?? ""
            return String(field.dropFirst("set-cookie: ".count).prefix { $0 != ";" })
        }
        let (leaving, staying) = (try signIn(), try signIn())
        try #require(leaving.hasPrefix("barkeep_session=") && staying.hasPrefix("barkeep_session="))
        func open(_ cookie: String) throws -> Subprocess {
            try Subprocess.spawn(
                "/usr/bin/curl",
                [
                    "-sS", "-N", "--http1.1", "--max-time", "60", "-b", cookie,
                    base + "/api/v1/projects/app/events/stream",
                ])
        }
        let (ending, going) = (try open(leaving), try open(staying))
        defer {
            ending.signal(SIGKILL)
            going.signal(SIGKILL)
        }
        #expect(eventually(.seconds(10)) { ending.output.hasPrefix("retry: ") && going.output.hasPrefix("retry: ") })

        // The page's sign-out form: its CSRF token from the page, the session's cookie.
        let page = try Subprocess.run("/usr/bin/curl", ["-sS", "-b", leaving, base + "/"])
        let csrf = try #require(page.1.components(separatedBy: "name=\"csrf-token\" content=\"").dropFirst().first)
            .prefix { $0 != "\"" }
        let out = try Subprocess.run(
            "/usr/bin/curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-b", leaving, "--data", "csrf=\(csrf)",
                base + "/signout",
            ])
        #expect(out.1 == "303")
        #expect(ending.wait(timeout: .seconds(5)) != nil, "the signed-out session's stream is still open")

        // The other session's stream still gets what changes.
        #expect(try daemon.barkeep(["finding", "set", "app", String(number), "declined", "--reason", "kept"]).0 == 0)
        #expect(eventually(.seconds(5)) { going.output.contains("event: finding.status\n") })
        #expect(going.wait(timeout: .milliseconds(1)) == nil)
    }

    /// The daemon's resident memory, in KiB, from /proc.
    private func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Reads lines until one is `wanted`; false when the stream ended first.
    private func readUntil(_ client: LineClient, _ wanted: String) throws -> Bool {
        while let line = try client.readLine() {
            if line == wanted { return true }
        }
        return false
    }

    @Test("300 open streams: each gets a change, the daemon's memory stays bounded, PING answers meanwhile")
    func manyStreams() throws {
        let count = 300
        let daemon = try TestDaemon(http: true)
        let port = try #require(daemon.httpAddress.flatMap { UInt16($0.split(separator: ":").last ?? "") })
        let (token, numbers) = try prepare(daemon)
        let number = try #require(numbers.first)
        let before = residentKiB(daemon.process.pid)

        var clients: [LineClient] = []
        for _ in 0..<count {
            let client = try LineClient(port: port)
            try client.send(
                "GET /api/v1/projects/app/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
            clients.append(client)
        }
        for client in clients { #expect(try readUntil(client, "retry: 1000")) }
        let line = try LineClient(port: daemon.port)
        #expect(try line.request("PING")?.hasPrefix("OK") == true)

        #expect(try daemon.barkeep(["finding", "set", "app", String(number), "declined", "--reason", "kept"]).0 == 0)
        var reached = 0
        for client in clients where try readUntil(client, "event: finding.status") { reached += 1 }
        #expect(reached == count)
        let after = residentKiB(daemon.process.pid)
        #expect(after - before < 32 * 1024, "RSS grew from \(before) KiB to \(after) KiB with \(count) streams")
        #expect(try line.request("PING")?.hasPrefix("OK") == true)
    }
}
