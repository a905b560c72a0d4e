/// The `Set-Cookie` values that set and clear the dashboard's session cookie (design section 2): `HttpOnly`,
/// `SameSite=Strict`, path `/`; under TLS also `Secure`, its name then `__Host-` prefixed
/// (`WebAuthentication.cookieName`), so no other host or plain connection can set or read it.
enum SignInCookie {
    /// `Set-Cookie` for a new session of `lifetimeSeconds`.
    static func setting(_ value: String, lifetimeSeconds: Int, isTLS: Bool) -> String {
        "\(WebAuthentication.cookieName(isTLS: isTLS))=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(lifetimeSeconds)"
            + (isTLS ? "; Secure" : "")
    }

    /// `Set-Cookie` that clears the cookie (sign-out, or a dead session).
    static func clearing(isTLS: Bool) -> String { setting("", lifetimeSeconds: 0, isTLS: isTLS) }
}
