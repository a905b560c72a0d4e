import BarkeepStore
import BarkeepWeb

/// Who an HTTP request comes from: `Authorization: Bearer TOKEN` (the token store) or the session cookie (the
/// session store), each looked up on the request's pool connection, so a revoked token fails its very next request.
/// A cookie-authenticated request that changes state must also carry the session's CSRF token and come from the same
/// origin; a Bearer request needs neither, since no browser sends that header by itself.
enum WebAuthentication {
    /// The session cookie's name over plain HTTP.
    static let cookieName = "barkeep_session"
    /// The session cookie's name under TLS: the `__Host-` prefix binds it to this host, `Secure` and path `/`.
    static let secureCookieName = "__Host-" + cookieName
    /// The methods that change state: a cookie session's request with one passes the CSRF and Origin checks.
    static let stateChangingMethods: Set<String> = ["POST", "PUT", "DELETE"]

    /// The session cookie's name on a connection that is (or is not) TLS.
    static func cookieName(isTLS: Bool) -> String { isTLS ? secureCookieName : cookieName }

    /// The identity behind the request's Bearer token or session cookie; nil when it has neither, or they are
    /// unknown, expired or revoked. A request with an `Authorization` field is judged by it alone.
    static func identify(
        _ head: HTTPRequestHead, context: HTTPRequestContext, database: PostgresConnection
    ) throws -> WebIdentity? {
        if !head.values(of: "authorization").isEmpty {
            guard let secret = bearerToken(head),
                let token = try TokenStore.authenticate(secret: secret, on: database)
            else { return nil }
            return WebIdentity(tokenID: token.id, name: token.name, role: token.role, csrfToken: nil)
        }
        guard let cookie = sessionCookie(head, isTLS: context.isTLS), SessionStore.isWellFormed(cookie),
            let session = try SessionStore.authenticate(cookie: cookie, on: database)
        else { return nil }
        return WebIdentity(
            tokenID: session.token.id, name: session.token.name, role: session.token.role,
            csrfToken: session.csrfToken, sessionRemaining: session.remaining)
    }

    /// The token of the request's `Authorization: Bearer` field; nil when there is none, or more than one field.
    static func bearerToken(_ head: HTTPRequestHead) -> String? {
        let values = head.values(of: "authorization")
        guard values.count == 1, let value = values.first else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The session cookie's value from the request's `Cookie` fields; nil when absent or given twice.
    static func sessionCookie(_ head: HTTPRequestHead, isTLS: Bool) -> String? {
        let name = cookieName(isTLS: isTLS)
        var found: [String] = []
        for field in head.values(of: "cookie") {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                found.append(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return found.count == 1 ? found.first : nil
    }

    /// Why a state-changing request of a cookie session is refused (no or a wrong CSRF token, another origin); nil
    /// when it may run: any safe method, any Bearer request, and a cookie session's write that passes both checks.
    /// The token comes from the `X-CSRF-Token` header or a form body's `csrf` field.
    static func writeRefusal(
        _ head: HTTPRequestHead, body: [UInt8], identity: WebIdentity, context: HTTPRequestContext
    ) -> String? {
        guard let expected = identity.csrfToken, stateChangingMethods.contains(head.method) else { return nil }
        let origins = head.values(of: "origin")
        guard origins.count <= 1,
            CSRFCheck.isSameOrigin(
                origin: origins.first, host: head.values(of: "host").first ?? "", isTLS: context.isTLS,
                fetchSite: head.values(of: "sec-fetch-site").first)
        else { return "the request's Origin is not this site" }
        let headers = head.values(of: PageSecurity.csrfHeader.lowercased())
        let submitted = headers.count == 1 ? headers.first : formField(PageSecurity.csrfField, head: head, body: body)
        guard CSRFCheck.isValid(submitted: submitted, expected: expected) else {
            return "this request needs the session's CSRF token (\(PageSecurity.csrfHeader) or the form field csrf)"
        }
        return nil
    }

    /// A field of an `application/x-www-form-urlencoded` body; nil for another body, a bad escape, or none.
    static func formField(_ name: String, head: HTTPRequestHead, body: [UInt8]) -> String? {
        guard let type = head.values(of: "content-type").first,
            type.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else { return nil }
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard let key = try? HTTPRequestHead.decodePercent(pair[..<equals], plusIsSpace: true), key == name
            else { continue }
            guard equals < pair.endIndex else { return "" }
            return try? HTTPRequestHead.decodePercent(pair[(equals + 1)...], plusIsSpace: true)
        }
        return nil
    }
}
