import BarkeepCore
import BarkeepHashing

/// A signed-in session as `SessionStore.authenticate` finds it: its token (role and name) and its CSRF token.
public struct WebSession: Sendable, Equatable {
    /// The token the session was signed in with, active.
    public var token: TokenInfo
    /// The session's CSRF token (64 hex digits), which every form that writes must send back.
    public var csrfToken: String
    /// How long the session has left before it expires, as the database's clock says.
    public var remaining: Duration
}

/// Web sessions (docs/design/web-dashboard.md, section 2), in PostgreSQL so that any daemon on the database
/// validates any session: only the SHA-256 of a cookie value is stored; a session ends at its expiry, when its token
/// is revoked, or when it is ended.
public enum SessionStore {
    /// Starts a session for token `tokenID` lasting `lifetime` (`SessionLimit.defaultLifetimeSeconds` by default).
    /// Returns the cookie value and the CSRF token, each `SessionLimit.secretBytes` random bytes in hex; the cookie
    /// value is stored only as its SHA-256. Also deletes up to `SessionLimit.expiredDeletedPerCreate` expired
    /// sessions. `notFound` when the token is unknown or revoked.
    public static func create(
        tokenID: Int64,
        lifetime: Duration = .seconds(SessionLimit.defaultLifetimeSeconds),
        on connection: PostgresConnection
    ) throws -> (cookie: String, csrfToken: String) {
        let (cookie, csrf) = (randomHex(), randomHex())
        let seconds = Double(lifetime.components.seconds) + Double(lifetime.components.attoseconds) / 1e18
        guard seconds > 0 else { throw StoreError.invalid("a session's lifetime must be positive") }
        return try connection.transaction { connection in
            try connection.query(
                """
                DELETE FROM web_sessions WHERE id_hash IN (
                    SELECT id_hash FROM web_sessions WHERE expires_at <= now() ORDER BY expires_at LIMIT $1)
                """, [SessionLimit.expiredDeletedPerCreate])
            let created = try connection.queryValue(
                """
                INSERT INTO web_sessions (id_hash, token_id, csrf_token, expires_at)
                SELECT $1, id, $2, now() + make_interval(secs => $3) FROM tokens WHERE id = $4 AND revoked_at IS NULL
                RETURNING token_id
                """, [hash(cookie), csrf, seconds, tokenID], as: Int64.self)
            guard created != nil else { throw StoreError.notFound("no active token with id \(tokenID)") }
            return (cookie, csrf)
        }
    }

    /// The session whose cookie value is `cookie`, with its token, in one query; nil when the cookie is malformed,
    /// unknown, expired, ended, or its token is revoked.
    public static func authenticate(cookie: String, on connection: PostgresConnection) throws -> WebSession? {
        guard isWellFormed(cookie) else { return nil }
        let row = try connection.query(
            """
            SELECT t.id, t.name, t.role, t.created_at, t.created_by, t.last_used_at, t.revoked_at, s.csrf_token,
                (EXTRACT(EPOCH FROM s.expires_at - now()) * 1000)::bigint AS remaining_ms
            FROM web_sessions s JOIN tokens t ON t.id = s.token_id
            WHERE s.id_hash = $1 AND s.expires_at > now() AND t.revoked_at IS NULL
            """, [hash(cookie)]
        ).first
        guard let row else { return try StoreError.missingCredential("the web session", on: connection) }
        return WebSession(
            token: try TokenInfo(row: row), csrfToken: try row.decode("csrf_token"),
            remaining: .milliseconds(try row.decode("remaining_ms", as: Int64.self)))
    }

    /// Ends the session of `cookie` (signing out); whether there was one.
    @discardableResult
    public static func end(cookie: String, on connection: PostgresConnection) throws -> Bool {
        guard isWellFormed(cookie) else { return false }
        return try connection.queryValue(
            "DELETE FROM web_sessions WHERE id_hash = $1 RETURNING token_id", [hash(cookie)], as: Int64.self) != nil
    }

    /// Whether `text` has the shape of a cookie value or a CSRF token: 64 lowercase hex digits.
    public static func isWellFormed(_ text: String) -> Bool {
        LowercaseHex.isValid(text, digits: 2 * SessionLimit.secretBytes...2 * SessionLimit.secretBytes)
    }

    /// The hex SHA-256 under which a cookie value is stored.
    static func hash(_ cookie: String) -> String { SHA256Digest.hex(of: Array(cookie.utf8)) }

    /// `SessionLimit.secretBytes` bytes from the system's random number generator, in hex.
    private static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<SessionLimit.secretBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.withUnsafeBytes { IdentityDigest($0).hex }
    }
}
