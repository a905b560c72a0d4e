import BarkeepWeb
import Testing

@Suite struct CSRFCheckTests {
    @Test func onlyTheSessionsOwnTokenPasses() {
        let token = String(repeating: "7f", count: 32)
        #expect(CSRFCheck.isValid(submitted: token, expected: token))
        #expect(!CSRFCheck.isValid(submitted: nil, expected: token))
        #expect(!CSRFCheck.isValid(submitted: "", expected: token))
        #expect(!CSRFCheck.isValid(submitted: String(token.dropLast()) + "e", expected: token))
        #expect(!CSRFCheck.isValid(submitted: token + "0", expected: token))
        #expect(!CSRFCheck.isValid(submitted: "", expected: ""))
    }

    @Test func writesComeFromTheSameOriginOrSayNone() {
        #expect(CSRFCheck.isSameOrigin(origin: nil, host: "127.0.0.1:7781", isTLS: false))
        #expect(CSRFCheck.isSameOrigin(origin: "http://127.0.0.1:7781", host: "127.0.0.1:7781", isTLS: false))
        #expect(!CSRFCheck.isSameOrigin(origin: "https://127.0.0.1:7781", host: "127.0.0.1:7781", isTLS: false))
        #expect(!CSRFCheck.isSameOrigin(origin: "http://evil.example", host: "127.0.0.1:7781", isTLS: false))
        #expect(!CSRFCheck.isSameOrigin(origin: "null", host: "127.0.0.1:7781", isTLS: false))
        // A form's POST from a no-referrer page: Origin null, and the browser's word that it is same-origin.
        #expect(
            CSRFCheck.isSameOrigin(origin: "null", host: "127.0.0.1:7781", isTLS: false, fetchSite: "same-origin"))
        #expect(
            !CSRFCheck.isSameOrigin(origin: "null", host: "127.0.0.1:7781", isTLS: false, fetchSite: "cross-site"))
    }

    @Test(arguments: [
        ("/projects/x?severity=high", "/projects/x?severity=high"), ("//evil.example/", "/"), ("/\\evil.example", "/"),
        ("https://evil.example/", "/"), ("", "/"), ("/a\nb", "/"),
    ])
    func signInReturnsOnlyToPathsOfThisSite(next: String, expected: String) {
        #expect(CSRFCheck.safeNext(next) == expected)
    }

    @Test func thePolicyAllowsNoInlineCodeAndNoOtherOrigin() {
        let policy = PageSecurity.contentSecurityPolicy
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'self'"))
        #expect(policy.contains("style-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe"))
        #expect(!policy.contains("http"))
        #expect(PageSecurity.headers.contains { $0.name == "Content-Security-Policy" && $0.value == policy })
    }
}
