import BarkeepCore

/// Who sent an HTTP request, once authenticated: the API token behind it (given as `Authorization: Bearer`, or behind
/// a session cookie), and the session's CSRF token when a cookie authenticated it.
struct WebIdentity: Sendable, Equatable {
    /// The token's id: re-checked by each command's database work, as a line connection's token is.
    var tokenID: Int64
    /// The token's name: the actor `token:NAME` in the event log.
    var name: String
    /// What the token may do.
    var role: Role
    /// The cookie session's CSRF token; nil for `Authorization: Bearer`, which needs none (no browser sends it alone).
    var csrfToken: String?
    /// How long the cookie session has left at authentication; nil for `Authorization: Bearer` (a token lasts until
    /// it is revoked). An event stream the session opened ends when it expires.
    var sessionRemaining: Duration? = nil

    /// Whether a cookie authenticated the request (a state-changing one then needs the CSRF and Origin checks).
    var isCookieSession: Bool { csrfToken != nil }
}
