import BarkeepCore
import BarkeepHashing
import BarkeepProtocol
import BarkeepTestSupport
import Foundation
import Testing

/// A request body is judged by its route before it is read (docs/design/web-dashboard.md, section 1): a real daemon
/// serving HTTP, curl as the client. A screenshot between the JSON limit (1 MiB) and `--max-screenshot` (5 MiB) goes
/// up through the API and comes back byte for byte; an anonymous upload is refused 401 without `100 Continue`; one
/// over `--max-screenshot` is refused `413 TOOLONG` unread, as SCREENSHOT PUT refuses it on the line protocol; the
/// line protocol answers throughout.
@Suite("HTTP uploads are authorized and sized before their body")
struct HTTPUploadTests {
    /// Writes a real PNG of `side` × `side` noise pixels (RGB, 8 bits): its size is about 3 × side² bytes.
    static func noisePNG(side: Int, named name: String) throws -> String {
        let path = try TemporaryDirectory.make(prefix: "barkeep-upload") + "/" + name
        let script = """
            import os, struct, sys, zlib
            side, path = int(sys.argv[1]), sys.argv[2]
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            rows = b"".join(b"\\x00" + os.urandom(side * 3) for _ in range(side))
            with open(path, "wb") as out:
                out.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
                          + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
            """
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script, String(side), path])
        try #require(result.status == 0, "\(result.error)")
        return path
    }

    /// Runs curl verbosely against `url`: the status, the body, and curl's trace (the interim `100 Continue` shows
    /// there).
    static func upload(_ url: String, file: String, token: String?) throws -> (
        status: Int, body: String, trace: String
    ) {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-upload")
        var arguments = ["-sS", "-v", "--http1.1", "--max-time", "20", "-o", directory + "/body", "-w", "%{http_code}"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        // curl asks Expect: 100-continue by itself for a body this large; the header makes it explicit.
        arguments += ["-H", "Content-Type: image/png", "-H", "Expect: 100-continue", "--data-binary", "@" + file, url]
        let result = try Subprocess.run("/usr/bin/curl", arguments, timeout: .seconds(30))
        let body = (try? String(contentsOfFile: directory + "/body", encoding: .utf8)) ?? ""
        return (Int(result.output) ?? 0, body, result.error)
    }

    @Test(
        "a 3 MiB PNG goes up through the API and back byte for byte; anonymous: 401, no 100; over --max-screenshot: 413 TOOLONG, nothing stored"
    )
    func screenshotUploads() throws {
        let daemon = try TestDaemon(http: true)
        #expect(try daemon.barkeep(["project", "create", "app"]).0 == 0)
        let base = try #require(daemon.httpURL) + "/api/v1"
        let writer = try HTTPAPITests.token(daemon, "wes", role: "writer")
        let upload = base + "/projects/app/screenshots"

        let image = try Self.noisePNG(side: 1000, named: "large.png")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: image)))
        #expect(bytes.count > HTTPLimit.bodyBytes && bytes.count < ScreenshotLimit.defaultBytes)
        let hex = SHA256Digest.hex(of: bytes)

        // Anonymous: refused before the body, never invited to send it.
        let anonymous = try Self.upload(upload, file: image, token: nil)
        #expect(anonymous.status == 401 && anonymous.body.contains("\"code\":\"NOAUTH\""), "\(anonymous.body)")
        #expect(!anonymous.trace.contains("100 Continue"), "\(anonymous.trace)")
        #expect(try LineClient(port: daemon.port).request("PING") == "OK PONG")

        // A writer: invited, read, stored; the same bytes come back, never sniffed.
        let stored = try Self.upload(upload, file: image, token: writer)
        #expect(stored.status == 200 && stored.body.contains(hex), "\(stored.body)")
        #expect(stored.trace.contains("HTTP/1.1 100 Continue"), "\(stored.trace)")
        let fetched = try HTTPAPITests.request("GET", base + "/screenshots/\(hex)", token: writer)
        #expect(fetched.status == 200 && [UInt8](fetched.body) == bytes)
        #expect(
            fetched.head.contains("x-content-type-options: nosniff") && fetched.head.contains("content-type: image/png")
        )

        // Over --max-screenshot: refused unread with the line protocol's code, and the connection closed.
        let huge = try Self.noisePNG(side: 1500, named: "huge.png")
        let hugeBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: huge)))
        #expect(hugeBytes.count > 6 << 20)
        let refused = try Self.upload(upload, file: huge, token: writer)
        #expect(
            refused.status == 413 && refused.body.contains("\"code\":\"\(ErrorCode.tooLong.rawValue)\""),
            "\(refused.body)")
        #expect(!refused.trace.contains("100 Continue") && refused.trace.lowercased().contains("connection: close"))
        let missing = try HTTPAPITests.request(
            "GET", base + "/screenshots/\(SHA256Digest.hex(of: hugeBytes))", token: writer)
        #expect(missing.status == 404)
        // The line protocol refuses the same size with the same code, before a byte of it.
        let line = try LineClient(port: daemon.port)
        let lineAnswer = try line.request("SCREENSHOT PUT app \(hugeBytes.count)")
        #expect(lineAnswer?.hasPrefix("ERR TOOLONG") == true, "\(lineAnswer ?? "")")
        #expect(try LineClient(port: daemon.port).request("PING") == "OK PONG")
    }

    @Test(
        "a JSON route keeps the 1 MiB limit: a larger body is 413 TOOLONG before it is read, a smaller refusal skipped")
    func jsonRouteLimit() throws {
        let daemon = try TestDaemon(http: true)
        let http = try #require(daemon.httpAddress.flatMap { UInt16($0.split(separator: ":").last ?? "") })
        let writer = try HTTPAPITests.token(daemon, "wes", role: "writer")
        // A token's body over the JSON limit but within twice it: 413 TOOLONG, the body skipped unread, and the next
        // request on the same connection answered.
        let client = try LineClient(port: http)
        let length = HTTPLimit.bodyBytes + 1000
        try client.send(
            Array(
                ("POST /api/v1/projects/app/findings/status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(writer)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n").utf8)
                + [UInt8](repeating: 0x20, count: length)
                + Array("GET /api/v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(writer)\r\n\r\n".utf8))
        let status = try client.readLine()
        #expect(status == "HTTP/1.1 413 Content Too Large\r", "\(status ?? "")")
        // The JSON body has no line end: the next response's status line follows it on the same line.
        var lines: [String] = []
        while lines.count < 60, let next = try client.readLine() {
            lines.append(next)
            if next.contains("HTTP/1.1 ") { break }
        }
        #expect(lines.last?.hasSuffix("HTTP/1.1 200 OK\r") == true, "\(lines)")
        #expect(lines.last?.contains("\"code\":\"TOOLONG\"") == true, "\(lines)")
        #expect(!lines.contains("Connection: close\r"), "\(lines)")
    }
}
