import BarkeepCore
import Testing

@Suite("WebhookURL")
struct WebhookURLTests {
    @Test(
        "accepted URLs and what the client makes of them",
        arguments: [
            ("http://127.0.0.1:8080/hook", false, "127.0.0.1", 8080, "/hook", "127.0.0.1:8080"),
            (
                "https://hooks.slack.com/services/T0/B0/x", true, "hooks.slack.com", 443, "/services/T0/B0/x",
                "hooks.slack.com"
            ),
            ("HTTPS://example.com", true, "example.com", 443, "/", "example.com"),
            ("http://example.com?a=1&b=2", false, "example.com", 80, "/?a=1&b=2", "example.com"),
            ("http://[::1]:9000/x", false, "::1", 9000, "/x", "[::1]:9000"),
            ("https://example.com:443/x", true, "example.com", 443, "/x", "example.com"),
        ]
    )
    func accepted(text: String, isTLS: Bool, host: String, port: Int, target: String, hostHeader: String) throws {
        let url = try WebhookURL(parsing: text)
        #expect(url.isTLS == isTLS)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.target == target)
        #expect(url.hostHeader == hostHeader)
        #expect(url.description == text)
    }

    @Test(
        "refused URLs say why",
        arguments: [
            ("ftp://example.com/x", "starts with http:// or https://"),
            ("example.com/x", "starts with http:// or https://"),
            ("file:///etc/passwd", "starts with http:// or https://"),
            ("http://user:secret@example.com/", "no user name or password"),
            ("http://example.com/a b", "no blanks"),
            ("http://example.com/\u{7}", "control"),
            ("http://exämple.com/", "non-ASCII"),
            ("http:///x", "names a host"),
            ("http://:80/x", "names a host"),
            ("http://example.com:0/", "port is 1 to 65535"),
            ("http://example.com:65536/", "port is 1 to 65535"),
            ("http://example.com:+80/", "port is 1 to 65535"),
            ("http://example.com:/", "port is 1 to 65535"),
            ("http://[::1/", "lacks ']'"),
            ("http://[::1]x/", "':PORT' only"),
            ("http://exa%6dple.com/", "DNS name or an IP address"),
            ("http://example.com/#top", "no fragment"),
            ("http://example.com/" + String(repeating: "a", count: 2048), "at most 2048 bytes"),
        ]
    )
    func refused(text: String, message: String) {
        #expect {
            try WebhookURL(parsing: text)
        } throws: { error in
            guard case CoreError.invalidArgument(let key, let problem) = error else { return false }
            return key == "url" && problem.contains(message)
        }
    }
}
