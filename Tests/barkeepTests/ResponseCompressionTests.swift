import BarkeepCore
import BarkeepTestSupport
import Foundation
import Testing

@testable import BarkeepServer

/// Text answers of at least `HTTPLimit.compressedFromBytes` go gzip-compressed to a client that accepts it; curl
/// (`--compressed`, zlib of its own) decodes them to the same bytes as the plain answer.
@Suite("gzip for pages and JSON answers")
struct ResponseCompressionTests {
    static func head(_ fields: [(String, String)]) throws -> HTTPRequestHead {
        let text = "GET /projects/app HTTP/1.1\r\nHost: x\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined()
        return try #require(try? HTTPRequestHead.parse(Array(text.utf8)[...], maximumFields: 100, maximumBody: 0))
    }

    @Test("Accept-Encoding is read with its weights; only text worth it is compressed, always with Vary")
    func rules() throws {
        #expect(ResponseCompression.acceptsGzip(try Self.head([("Accept-Encoding", "gzip, deflate, br")])))
        #expect(ResponseCompression.acceptsGzip(try Self.head([("Accept-Encoding", "br;q=1.0, *;q=0.5")])))
        #expect(!ResponseCompression.acceptsGzip(try Self.head([("Accept-Encoding", "gzip;q=0, br")])))
        #expect(!ResponseCompression.acceptsGzip(try Self.head([("Accept-Encoding", "identity")])))
        #expect(!ResponseCompression.acceptsGzip(try Self.head([])))

        let gzip = try Self.head([("Accept-Encoding", "gzip"), ("X-Barkeep-Part", "main")])
        let text = Array(String(repeating: "<tr><td>Inbox</td></tr>\n", count: 200).utf8)
        let page = HTTPResponse(
            status: 200, fields: [HTTPField(name: "Content-Type", value: "text/html; charset=utf-8")], body: text)
        let sent = ResponseCompression.compressed(page, for: gzip)
        #expect(sent.fields.contains { $0.name == "Content-Encoding" && $0.value == "gzip" })
        #expect(sent.fields.contains { $0.name == "Vary" && $0.value == "Accept-Encoding" })
        #expect(sent.body.count < text.count / 10 && sent.body.prefix(2) == [0x1F, 0x8B])
        // A whole page with the browser's own cookie is never compressed (BREACH); with Authorization it is.
        let cookiePage = try Self.head([("Accept-Encoding", "gzip"), ("Cookie", "barkeep_session=x")])
        #expect(ResponseCompression.compressed(page, for: cookiePage).body == text)
        let bearerPage = try Self.head([("Accept-Encoding", "gzip"), ("Authorization", "Bearer bk_x")])
        #expect(ResponseCompression.compressed(page, for: bearerPage).body != text)
        // Not asked for: the same bytes, still with Vary (a cache must not serve one to the other).
        let plain = ResponseCompression.compressed(page, for: try Self.head([]))
        #expect(plain.body == text && plain.fields.contains { $0.name == "Vary" })
        // Small, an image, or already encoded: untouched.
        var small = page
        small.body = Array(text.prefix(HTTPLimit.compressedFromBytes - 1))
        #expect(ResponseCompression.compressed(small, for: gzip).body == small.body)
        let image = HTTPResponse(
            status: 200, fields: [HTTPField(name: "Content-Type", value: "image/png")], body: text)
        #expect(ResponseCompression.compressed(image, for: gzip).fields.count == 1)
    }

    @Test("a real daemon: curl --compressed gets gzip and decodes the same page and JSON as without it")
    func endToEnd() throws {
        let daemon = try HTTPAPITests.seeded()
        let base = try #require(daemon.httpURL)
        let reader = try HTTPAPITests.token(daemon, "rita", role: "reader")
        for path in ["/projects/app", "/api/v1/projects/app/status"] {
            let directory = try TemporaryDirectory.make(prefix: "barkeep-gzip")
            func fetch(_ extra: [String], _ name: String) throws -> (head: String, body: Data) {
                let result = try Subprocess.run(
                    "/usr/bin/curl",
                    [
                        "-sS", "--http1.1", "-H", "Authorization: Bearer \(reader)", "-D", directory + "/\(name).head",
                        "-o", directory + "/\(name).body",
                    ] + extra + [base + path],
                    timeout: .seconds(30))
                try #require(result.status == 0, "\(result.error)")
                return (
                    try String(contentsOfFile: directory + "/\(name).head", encoding: .utf8).lowercased(),
                    try Data(contentsOf: URL(fileURLWithPath: directory + "/\(name).body"))
                )
            }
            let plain = try fetch([], "plain")
            let compressed = try fetch(["--compressed"], "gzip")
            #expect(compressed.head.contains("content-encoding: gzip"), "\(path): \(compressed.head)")
            #expect(!plain.head.contains("content-encoding"), "\(path)")
            #expect(plain.head.contains("vary: accept-encoding") && compressed.head.contains("vary: accept-encoding"))
            if path.hasPrefix("/api") {
                #expect(compressed.body == plain.body, "\(path): the decoded answer differs")
            } else {
                // A page names the person and carries a fresh CSRF meta per session; compare the shape.
                #expect(compressed.body.count == plain.body.count, "\(path)")
            }
        }
    }
}
