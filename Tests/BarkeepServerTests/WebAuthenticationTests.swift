import BarkeepCore
import Testing

@testable import BarkeepServer

/// `WebAuthentication`'s pure parts: which cookie names the session, and when a cookie session's write is refused
/// (CSRF token from the header or the form, the Origin), with Bearer requests and safe methods exempt.
@Suite("web authentication: session cookie, CSRF and Origin")
struct WebAuthenticationTests {
    /// A parsed request head of `lines` (the request line and fields).
    private func head(_ lines: [String]) throws -> HTTPRequestHead {
        // A write without a body still states its length.
        let needsLength = !lines[0].hasPrefix("GET") && !lines.contains { $0.hasPrefix("Content-Length") }
        let lines = lines + (needsLength ? ["Content-Length: 0"] : [])
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        return try HTTPRequestHead.parse(bytes[...], maximumFields: 100, maximumBody: 1 << 20)
    }

    private let cookieSession = WebIdentity(tokenID: 1, name: "wes", role: .writer, csrfToken: "abc123")
    private let bearer = WebIdentity(tokenID: 1, name: "wes", role: .writer, csrfToken: nil)
    private let plain = HTTPRequestContext(peerName: "test", isTLS: false)

    @Test("the cookie is barkeep_session over HTTP, __Host-barkeep_session under TLS; given twice it is none")
    func cookieNames() throws {
        let request = try head([
            "GET / HTTP/1.1", "Host: x", "Cookie: a=1; barkeep_session=plain; __Host-barkeep_session=secure",
        ])
        #expect(WebAuthentication.sessionCookie(request, isTLS: false) == "plain")
        #expect(WebAuthentication.sessionCookie(request, isTLS: true) == "secure")
        let twice = try head(["GET / HTTP/1.1", "Host: x", "Cookie: barkeep_session=a", "Cookie: barkeep_session=b"])
        #expect(WebAuthentication.sessionCookie(twice, isTLS: false) == nil)
    }

    @Test(
        "a cookie session's write needs the CSRF token (header or form field) and its own origin; Bearer and GET do not",
        arguments: [
            (["POST /a HTTP/1.1", "Host: x"], "", true, false),
            (["POST /a HTTP/1.1", "Host: x", "X-CSRF-Token: abc123"], "", true, true),
            (["DELETE /a HTTP/1.1", "Host: x", "X-CSRF-Token: abc124"], "", true, false),
            (["PUT /a HTTP/1.1", "Host: x", "X-CSRF-Token: abc123", "Origin: http://x"], "", true, true),
            (["PUT /a HTTP/1.1", "Host: x", "X-CSRF-Token: abc123", "Origin: http://evil"], "", true, false),
            (
                [
                    "POST /a HTTP/1.1", "Host: x", "Content-Type: application/x-www-form-urlencoded",
                    "Content-Length: 17",
                ],
                "a=1&csrf=abc123&b", true, true
            ),
            (["POST /a HTTP/1.1", "Host: x", "Content-Length: 11"], "csrf=abc123", true, false),
            (["GET /a HTTP/1.1", "Host: x"], "", true, true),
            (["POST /a HTTP/1.1", "Host: x", "Origin: http://evil"], "", false, true),
        ])
    func writes(lines: [String], body: String, isCookie: Bool, isAllowed: Bool) throws {
        let refusal = WebAuthentication.writeRefusal(
            try head(lines), body: Array(body.utf8), identity: isCookie ? cookieSession : bearer, context: plain)
        #expect((refusal == nil) == isAllowed, "\(lines): \(refusal ?? "allowed")")
    }
}
