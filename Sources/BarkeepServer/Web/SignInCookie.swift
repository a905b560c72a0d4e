import Foundation

/// The session cookie of the dashboard (design section 2): its name, and the `Set-Cookie` values that set and clear
/// it. Under TLS the name carries the `__Host-` prefix and the cookie is `Secure`, so no other host or plain
/// connection can set or read it.
enum SignInCookie {
    /// The cookie's name on a plain connection.
    static let plainName = "barkeep_session"

    /// The cookie's name, `__Host-` prefixed under TLS.
    static func name(isTLS: Bool) -> String { isTLS ? "__Host-" + plainName : plainName }

    /// The value of the session cookie in the request's `Cookie` fields; nil when there is none.
    static func value(in head: HTTPRequestHead, isTLS: Bool) -> String? {
        let wanted = name(isTLS: isTLS)
        for field in head.values(of: "cookie") {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == wanted else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { return value }
            }
        }
        return nil
    }

    /// `Set-Cookie` for a new session of `lifetimeSeconds`.
    static func setting(_ value: String, lifetimeSeconds: Int, isTLS: Bool) -> String {
        "\(name(isTLS: isTLS))=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(lifetimeSeconds)"
            + (isTLS ? "; Secure" : "")
    }

    /// `Set-Cookie` that clears the cookie (sign-out, or a dead session).
    static func clearing(isTLS: Bool) -> String { setting("", lifetimeSeconds: 0, isTLS: isTLS) }
}
