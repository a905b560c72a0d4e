/// The headers every page and API answer carries (design section 2), one home: the server sends these, the tests
/// check pages against them.
public enum PageSecurity {
    /// The Content-Security-Policy of every response: scripts, styles, images and fetches only from the daemon
    /// itself, no inline script or style, no framing, no outside form target.
    public static let contentSecurityPolicy = policy()

    /// The policy with styles from `styleSource` and images from `imageSource`: `'self'` for every page; the
    /// readiness report, a self-contained file, names its one inline stylesheet by hash (`'sha256-…'`) and embeds
    /// its screenshots (`data:`).
    public static func policy(styleSource: String = "'self'", imageSource: String = "'self'") -> String {
        "default-src 'none'; script-src 'self'; style-src \(styleSource); img-src \(imageSource); connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }

    /// The policy of a served screenshot: nothing may run or load from it.
    public static let screenshotPolicy = "default-src 'none'"

    /// The headers of every response but `Strict-Transport-Security`, which only a TLS listener sends
    /// (`transportSecurity`), and `Cache-Control` of `/static/` (`immutableCache`).
    public static let headers: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]
    /// `Cache-Control` of a content-hashed static asset.
    public static let immutableCache = "public, max-age=31536000, immutable"

    /// `Strict-Transport-Security` under TLS.
    public static let transportSecurity = "max-age=31536000"
    /// The header the page's script sends when it refetches only `<main>` for a live update.
    public static let partHeader = "X-Barkeep-Part"

    /// The header a script sends the CSRF token in (forms send the field `csrf`).
    public static let csrfHeader = "X-CSRF-Token"
    /// The form field holding the CSRF token.
    public static let csrfField = "csrf"
}
