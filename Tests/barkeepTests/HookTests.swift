import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Webhooks end to end: real daemons on a real database POSTing to a receiver written for the test (Python's
/// http.server, which checks each signature with Python's own hmac), driven through the CLI as a user would.
@Suite("webhooks end to end")
struct HookTests {
    /// The receiver: answers 204, or 500 while its directory holds a file named `fail`; appends one JSON line per
    /// request to `received.jsonl` (status answered, body, event header, whether the signature is valid); writes
    /// its port to `port` once listening. Arguments: directory, port (0: any), secret, and for HTTPS the certificate
    /// and key files.
    static let receiverProgram = """
        import hashlib, hmac, json, os, sys
        from http.server import HTTPServer, BaseHTTPRequestHandler
        import ssl
        directory, port, secret = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
                status = 500 if os.path.exists(os.path.join(directory, "fail")) else 204
                record = {"status": status, "body": body.decode(), "event": self.headers["X-Barkeep-Event"],
                          "valid": hmac.compare_digest(expected, self.headers.get("X-Barkeep-Signature", "")),
                          "path": self.path}
                with open(os.path.join(directory, "received.jsonl"), "a") as f:
                    f.write(json.dumps(record) + "\\n")
                self.send_response(status)
                self.end_headers()
            def log_message(self, *args):
                pass
        server = HTTPServer(("127.0.0.1", port), Handler)
        if len(sys.argv) > 5:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[4], sys.argv[5])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        with open(os.path.join(directory, "port.tmp"), "w") as f:
            f.write(str(server.server_address[1]))
        os.rename(os.path.join(directory, "port.tmp"), os.path.join(directory, "port"))
        server.serve_forever()
        """

    /// A receiver process and what it received.
    final class Receiver {
        let directory: String
        let secret: String
        private(set) var process: Subprocess
        let port: Int
        /// HTTPS: the certificate and key the receiver presents.
        let tls: [String]

        init(secret: String = "s3cret-for-the-test", certificates: TestCertificates? = nil) throws {
            directory = try TemporaryDirectory.make(prefix: "barkeep-hooks")
            self.secret = secret
            tls = certificates.map { [$0.certificateFile, $0.keyFile] } ?? []
            try Data(HookTests.receiverProgram.utf8).write(to: URL(fileURLWithPath: directory + "/receiver.py"))
            process = try Self.start(directory, port: 0, secret: secret, tls: tls)
            port = try Self.boundPort(directory)
        }

        private static func start(_ directory: String, port: Int, secret: String, tls: [String]) throws -> Subprocess {
            try? FileManager.default.removeItem(atPath: directory + "/port")
            return try Subprocess.spawn(
                try PythonTools.python(), [directory + "/receiver.py", directory, String(port), secret] + tls)
        }

        private static func boundPort(_ directory: String) throws -> Int {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let text = try? String(contentsOfFile: directory + "/port", encoding: .utf8), let port = Int(text) {
                    return port
                }
                usleep(20_000)
            }
            throw TestSupportError("the receiver did not start")
        }

        var url: String { "\(tls.isEmpty ? "http" : "https")://127.0.0.1:\(port)/hook?team=ios&key=a=b" }

        /// Makes the receiver answer 500 (true) or 204 (false).
        func setFailing(_ isFailing: Bool) throws {
            if isFailing {
                try Data().write(to: URL(fileURLWithPath: directory + "/fail"))
            } else {
                try? FileManager.default.removeItem(atPath: directory + "/fail")
            }
        }

        /// Stops the process: connections are refused until `restart`.
        func stop() {
            process.signal(SIGKILL)
            _ = process.wait(timeout: .seconds(10))
        }

        /// Starts it again on the same port.
        func restart() throws {
            process = try Self.start(directory, port: port, secret: secret, tls: tls)
            _ = try Self.boundPort(directory)
        }

        /// Every request received so far, oldest first.
        var requests: [[String: Any]] {
            let text = (try? String(contentsOfFile: directory + "/received.jsonl", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// The bodies of the requests answered 204.
        var delivered: [String] {
            requests.filter { $0["status"] as? Int == 204 }.compactMap { $0["body"] as? String }
        }

        deinit { stop() }
    }

    // MARK: - Helpers

    private func run(_ daemon: TestDaemon, _ arguments: [String], token: String? = nil) throws -> (
        Int32, String, String
    ) {
        try daemon.barkeep(arguments, token: token, tcp: token != nil)
    }

    @discardableResult
    private func succeed(_ daemon: TestDaemon, _ arguments: [String]) throws -> String {
        let (status, output, error) = try run(daemon, arguments)
        guard status == 0 else { throw TestSupportError("barkeep \(arguments) failed (\(status)): \(error)") }
        return output
    }

    private func hooks(_ daemon: TestDaemon) throws -> [[String: Any]] {
        let output = try succeed(daemon, ["--json", "hook", "list"])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }

    private func secretFile(_ secret: String) throws -> String {
        let path = try TemporaryDirectory.make(prefix: "barkeep-secret") + "/secret"
        try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Changes the project's SDK back and forth `count` times: one `project.updated` event each.
    private func makeEvents(_ daemon: TestDaemon, _ count: Int, from start: Int) throws {
        for index in start..<(start + count) {
            try succeed(daemon, ["project", "set", "app", "--deployment-target", "26.\((index + 1) % 2)"])
        }
    }

    /// What `barkeep watch --json` prints for the project's events since `since`: `count` lines.
    private func watchLines(_ daemon: TestDaemon, since: Int, count: Int) throws -> [String] {
        let watcher = try Subprocess.spawn(
            BuildProducts.path("barkeep"), ["--json", "watch", "app", "--since", String(since)],
            environment: daemon.environment())
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        var lines: [String] = []
        _ = eventually {
            lines = watcher.output.split(separator: "\n").map(String.init)
            return lines.count >= count
        }
        return lines
    }

    private func sequence(_ body: String) -> Int? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["seq"] as? Int
    }

    // MARK: - Tests

    @Test("events arrive in order, signed, as watch --json prints them; failures, a restart, and none is lost")
    func deliveryAcrossFailuresAndRestart() throws {
        let receiver = try Receiver()
        let arguments = ["--hook-max-backoff", "1", "--hook-max-failures", "1000", "--source-lease", "3"]
        var daemon = try TestDaemon(arguments: arguments)
        try succeed(daemon, ["project", "create", "app"])
        let added = try succeed(
            daemon, ["hook", "add", "app", receiver.url, "--secret-file", try secretFile(receiver.secret)])
        #expect(added.contains("Added hook 1 to app: \(receiver.url) (json, signed)"))
        try makeEvents(daemon, 5, from: 0)
        // hook.added and the five changes.
        #expect(eventually { receiver.delivered.count >= 6 })
        let first = try #require(receiver.delivered.first)
        #expect(first.contains(#""kind":"hook.added""#))
        let start = try #require(sequence(first)) - 1
        let expected = try watchLines(daemon, since: start, count: 6)
        #expect(receiver.delivered == expected)
        #expect(
            receiver.requests.allSatisfy {
                $0["valid"] as? Bool == true && $0["path"] as? String == "/hook?team=ios&key=a=b"
            })

        // The receiver fails (500), then refuses connections; the daemon restarts meanwhile.
        try receiver.setFailing(true)
        try makeEvents(daemon, 3, from: 5)
        #expect(eventually { receiver.requests.filter { $0["status"] as? Int == 500 }.count >= 2 })
        receiver.stop()
        try makeEvents(daemon, 3, from: 8)
        #expect(try eventually { (try hooks(daemon).first?["failures"] as? Int ?? 0) >= 4 })
        let listed = try succeed(daemon, ["hook", "list"])
        #expect(listed.contains("cannot connect to 127.0.0.1:\(receiver.port)"))
        let url = daemon.url
        daemon.stop()
        try receiver.setFailing(false)
        try receiver.restart()
        daemon = try TestDaemon(url: url, arguments: arguments)
        try makeEvents(daemon, 2, from: 11)

        let all = try watchLines(daemon, since: start, count: 6 + 3 + 3 + 2)
        #expect(all.count == 14)
        #expect(eventually { receiver.delivered.count >= all.count })
        // At least once, in order: repeats only of the event just delivered, and every event there.
        var unique: [String] = []
        for body in receiver.delivered where body != unique.last { unique.append(body) }
        #expect(unique == all)
        let sequences = unique.compactMap(sequence)
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        #expect(receiver.requests.allSatisfy { $0["valid"] as? Bool == true })
        let hook = try #require(try hooks(daemon).first)
        #expect(hook["failures"] as? Int == 0)
        #expect(hook["delivered"] as? Int == sequences.last)
        #expect(hook["secret"] == nil && hook["signed"] as? String == "yes")
    }

    @Test("a hook that keeps failing is paused, says why in hook list, and resumes from where it stopped")
    func pauseAndResume() throws {
        let receiver = try Receiver()
        receiver.stop()
        let daemon = try TestDaemon(arguments: ["--hook-max-backoff", "1", "--hook-max-failures", "3"])
        try succeed(daemon, ["project", "create", "app"])
        try succeed(daemon, ["hook", "add", "app", receiver.url, "--kinds", "project.updated", "--format", "slack"])
        try makeEvents(daemon, 1, from: 0)
        #expect(try eventually { try hooks(daemon).first?["state"] as? String == "paused" })
        let hook = try #require(try hooks(daemon).first)
        let reason = try #require(hook["paused"] as? String)
        #expect(
            reason.hasPrefix("3 deliveries in a row failed, the last: cannot connect to 127.0.0.1:\(receiver.port)"))
        let listed = try succeed(daemon, ["hook", "list"])
        #expect(listed.contains("paused: 3 deliveries in a row failed"))
        // The last error is shown once: in the reason, not again beside the failures.
        let lastError = try #require(hook["last_error"] as? String)
        #expect(listed.components(separatedBy: lastError).count == 2, "\(listed)")

        try receiver.restart()
        let resumed = try succeed(daemon, ["hook", "resume", "1"])
        #expect(resumed.contains("Hook 1 is active"))
        // The event that matched while it failed is delivered; the hook's own events are not of its kinds.
        #expect(eventually { receiver.delivered.count == 1 })
        let message = try #require(
            try JSONSerialization.jsonObject(with: Data(receiver.delivered[0].utf8)) as? [String: Any])
        let text = try #require(message["text"] as? String)
        #expect(text.contains("  project.updated  deployment-target  26.0 → 26.1  by local:"), "\(text)")
        #expect(message.count == 1)
    }

    @Test("hook pause stops deliveries by hand, says who in hook list; resume sends what matched meanwhile")
    func pauseByHand() throws {
        let receiver = try Receiver()
        let daemon = try TestDaemon(arguments: ["--hook-max-backoff", "1"])
        try succeed(daemon, ["project", "create", "app"])
        try succeed(daemon, ["hook", "add", "app", receiver.url, "--kinds", "project.updated"])
        // --kind, repeatable, as watch takes it, and --kinds are one option: the same kinds either way.
        try succeed(daemon, ["hook", "add", "app", receiver.url, "--kind", "project.updated", "--kind", "finding.new"])
        try succeed(daemon, ["hook", "add", "app", receiver.url, "--kinds", "project.updated,finding.new"])
        let kinds = try hooks(daemon).dropFirst().map { $0["kinds"] as? [String] }
        #expect(kinds == Array(repeating: ["project.updated", "finding.new"], count: 2), "\(kinds)")
        for id in ["2", "3"] { try succeed(daemon, ["hook", "remove", id]) }
        let paused = try succeed(daemon, ["hook", "pause", "1"])
        #expect(paused.hasPrefix("Hook 1 is paused (by local:"), "\(paused)")
        let hook = try #require(try hooks(daemon).first)
        #expect(hook["state"] as? String == "paused" && (hook["paused"] as? String)?.hasPrefix("by local:") == true)
        #expect(try succeed(daemon, ["hook", "list"]).contains("paused: by local:"))
        let json = try succeed(daemon, ["--json", "hook", "pause", "1"])
        #expect(json.contains(#""state" : "paused""#) || json.contains(#""state":"paused""#), "\(json)")
        try makeEvents(daemon, 2, from: 0)
        try succeed(daemon, ["hook", "resume", "1"])
        // Both events that matched while it was paused, in order, nothing skipped.
        #expect(eventually { receiver.delivered.count >= 2 })
        #expect(receiver.delivered.compactMap(sequence) == receiver.delivered.compactMap(sequence).sorted())
        #expect(receiver.delivered.count == 2)
        #expect(try run(daemon, ["hook", "pause", "7"]).2.contains("no hook 7 (NOTFOUND)"))
    }

    @Test("hook test sends a signed hook.test event and shows the answer")
    func testDelivery() throws {
        let receiver = try Receiver()
        let daemon = try TestDaemon()
        try succeed(daemon, ["project", "create", "app"])
        try succeed(
            daemon,
            [
                "hook", "add", "app", receiver.url, "--kinds", "finding.new", "--secret-file",
                try secretFile(receiver.secret),
            ])
        #expect(
            try succeed(daemon, ["hook", "test", "1"]).contains(
                "Sent a test event to hook 1 (\(receiver.url)): HTTP 204."))
        let request = try #require(receiver.requests.last)
        #expect(request["event"] as? String == "hook.test")
        #expect(request["valid"] as? Bool == true)
        try receiver.setFailing(true)
        let (status, output, _) = try run(daemon, ["hook", "test", "1"])
        #expect(status == 1)
        #expect(output.contains("HTTP 500"))
        try succeed(daemon, ["hook", "remove", "1"])
        #expect(try hooks(daemon).isEmpty)
    }

    @Test("two daemons on one database: one lease holder delivers each event once; the other takes over")
    func twoDaemons() throws {
        let receiver = try Receiver()
        let arguments = ["--source-lease", "3", "--hook-max-backoff", "1"]
        let first = try TestDaemon(arguments: arguments)
        let second = try TestDaemon(url: first.url, arguments: arguments)
        try succeed(first, ["project", "create", "app"])
        try succeed(second, ["hook", "add", "app", receiver.url, "--kinds", "project.updated"])
        try makeEvents(first, 3, from: 0)
        try makeEvents(second, 3, from: 3)
        #expect(eventually { receiver.delivered.count >= 6 })
        func serverID(_ daemon: TestDaemon) throws -> String? {
            let output = try succeed(daemon, ["--json", "stats"])
            return (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["server"] as? String
        }
        let holder = try #require(try hooks(first).first?["holder"] as? String)
        let ids = [try serverID(first), try serverID(second)]
        #expect(ids.contains(holder))
        // The holder stops and gives the hook up; the other daemon takes it over and goes on.
        let (stopped, other) = holder == ids[0] ? (first, second) : (second, first)
        stopped.stop()
        try makeEvents(other, 3, from: 6)
        #expect(eventually { receiver.delivered.count >= 9 })
        #expect(try hooks(other).first?["holder"] as? String == (try serverID(other)))
        // Each event once: no daemon delivered what the other did.
        let sequences = receiver.delivered.compactMap(sequence)
        #expect(sequences.count == 9 && sequences == sequences.sorted() && Set(sequences).count == 9)
    }

    @Test("https: delivered when the certificate chains to a CA the daemon's host trusts, refused otherwise")
    func https() throws {
        let certificates = try TestCertificates.make()
        let receiver = try Receiver(certificates: certificates)
        // A daemon whose host trusts the test CA (OpenSSL reads SSL_CERT_FILE for its default CAs), and one whose
        // host does not, on one database.
        let plain = try TestDaemon()
        let directory = try TemporaryDirectory.make(prefix: "barkeep-hooks-tls")
        var environment = ProcessInfo.processInfo.environment
        environment["SSL_CERT_FILE"] = certificates.caFile
        let trusting = try Subprocess.spawn(
            BuildProducts.path("barkeepd"),
            [
                "--data-dir", directory, "--database-url", plain.url, "--listen", "127.0.0.1:0", "--no-hooks",
                "--no-http",
            ],
            environment: environment)
        defer {
            trusting.signal(SIGTERM)
            _ = trusting.wait(timeout: .seconds(30))
        }
        #expect(trusting.waitForError(containing: "msg=ready", timeout: .seconds(120)))
        try succeed(plain, ["project", "create", "app"])
        try succeed(plain, ["hook", "add", "app", receiver.url, "--secret-file", try secretFile(receiver.secret)])
        var trustingEnvironment = plain.environment()
        trustingEnvironment["BARKEEP_SERVER"] = "unix:\(directory)/barkeep.sock"
        let trusted = try Subprocess.run(
            BuildProducts.path("barkeep"), ["hook", "test", "1"], environment: trustingEnvironment)
        #expect(trusted.status == 0)
        #expect(trusted.output.contains("Sent a test event to hook 1 (\(receiver.url)): HTTP 204."), "\(trusted.error)")
        #expect(receiver.requests.last?["valid"] as? Bool == true)
        let (status, output, _) = try run(plain, ["hook", "test", "1"])
        #expect(status == 1)
        #expect(output.contains("untrusted certificate (checked against the system's CAs)"), "\(output)")
        #expect(receiver.requests.count == 1)
    }

    // barkeepd's hook options and their defaults are held to docs/cli.md by CLIReferenceTests, like every option.
    @Test("protocol.md names every key of a hook record")
    func documented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let receiver = try Receiver()
        let daemon = try TestDaemon()
        try succeed(daemon, ["project", "create", "app"])
        // One hook that delivers its own hook.added, one with every setting.
        try succeed(daemon, ["hook", "add", "app", receiver.url, "--kinds", "hook.added"])
        try succeed(
            daemon,
            [
                "hook", "add", "app", receiver.url, "--screen", "app", "--format", "slack", "--secret-file",
                try secretFile(receiver.secret),
            ])
        #expect(eventually { !receiver.delivered.isEmpty })
        let protocolText = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let start = try #require(protocolText.range(of: "- `hook` (each starts with `type=hook`): "))
        let end = try #require(protocolText.range(of: "\n- ", range: start.upperBound..<protocolText.endIndex))
        let documented = protocolText[start.upperBound..<end.lowerBound]
        let keys = Set(try hooks(daemon).flatMap(\.keys)).map { $0.replacingOccurrences(of: "_", with: "-") }
        #expect(keys.count >= 14)
        for key in keys { #expect(documented.contains("`\(key)`"), "\(key)") }
    }

    @Test("only admins manage hooks; bad URLs and options are refused")
    func refusals() throws {
        let daemon = try TestDaemon()
        try succeed(daemon, ["project", "create", "app"])
        for role in ["reader", "writer"] {
            let token = try succeed(daemon, ["token", "create", role, "--role", role])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            for arguments in [
                ["hook", "list"], ["hook", "add", "app", "http://127.0.0.1:9/x"], ["hook", "test", "1"],
                ["hook", "pause", "1"],
            ] {
                let (status, _, error) = try run(daemon, arguments, token: token)
                #expect(status == 1)
                #expect(error.contains("needs the admin role (FORBIDDEN)"), "\(error)")
            }
        }
        let refused: [(String, String)] = [
            ("ftp://example.com/x", "a webhook URL starts with http:// or https://"),
            ("http://user:pw@example.com/x", "no user name or password"),
            ("http://example.com:99999/x", "port is 1 to 65535"),
            ("https:///x", "names a host"),
            ("http://example.com/a#b", "no fragment"),
        ]
        for (url, message) in refused {
            let (status, _, error) = try run(daemon, ["hook", "add", "app", url])
            #expect(status == 1)
            #expect(error.contains(message) && error.contains("(BADARG)"), "\(url): \(error)")
        }
        let (status, _, error) = try run(daemon, ["hook", "add", "app", "http://x/", "--kinds", "finding.nope"])
        #expect(status == 64)
        #expect(error.contains("unknown event kind 'finding.nope'"))
        // A screen filter that no key can ever match is refused, as WATCH refuses it.
        let badScreen = try run(daemon, ["hook", "add", "app", "http://x/", "--screen", "a/b!"])
        #expect(badScreen.0 == 1 && badScreen.2.contains("'a/b!' is not a screen key, app or unmapped (BADARG)"))
        #expect(try run(daemon, ["hook", "add", "app", "http://127.0.0.1:9/x", "--screen", "unmapped"]).0 == 0)
        #expect(try run(daemon, ["hook", "remove", "7"]).2.contains("no hook 7 (NOTFOUND)"))
    }
}
