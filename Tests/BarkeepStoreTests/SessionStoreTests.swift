import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Testing

/// Web sessions against a real database: only the cookie's hash is stored, a session ends at its expiry, with its
/// token's revocation (at once) and when ended, and creating one sweeps expired ones.
@Suite("Session store")
struct SessionStoreTests {
    let connection: PostgresConnection
    let token: TokenInfo

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        token = try TokenStore.create(name: "lead", role: .reader, actor: "admin", on: connection).0
    }

    /// Ages every session so that it expired an hour ago.
    func expireAll() throws {
        try connection.query(
            "UPDATE web_sessions SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour'")
    }

    @Test("the table holds the cookie's SHA-256, never the cookie; authenticating gives the token and the CSRF token")
    func hashedOnly() throws {
        let (cookie, csrf) = try SessionStore.create(tokenID: token.id, on: connection)
        #expect(SessionStore.isWellFormed(cookie) && SessionStore.isWellFormed(csrf) && cookie != csrf)
        let rows = try connection.query("SELECT id_hash, csrf_token, token_id FROM web_sessions")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(try row.decode("id_hash", as: String.self) == SHA256Digest.hex(of: Array(cookie.utf8)))
        let stored = try connection.query("SELECT web_sessions::text AS row FROM web_sessions").map {
            try $0.decode("row", as: String.self)
        }
        #expect(stored.allSatisfy { !$0.contains(cookie) })
        let session = try #require(try SessionStore.authenticate(cookie: cookie, on: connection))
        #expect(session.token.name == "lead" && session.token.role == .reader && session.token.id == token.id)
        #expect(session.csrfToken == csrf)
        // Twelve hours by default (Core's SessionLimit).
        let lifetime = try connection.queryValue(
            "SELECT extract(epoch FROM expires_at - created_at)::integer FROM web_sessions", as: Int.self)
        #expect(lifetime == SessionLimit.defaultLifetimeSeconds)
        // What is left of it, by the database's clock (an event stream the session opens lasts that long).
        let left = session.remaining.components.seconds
        #expect(
            left <= Int64(SessionLimit.defaultLifetimeSeconds) && left > Int64(SessionLimit.defaultLifetimeSeconds) - 60
        )
        let (short, _) = try SessionStore.create(tokenID: token.id, lifetime: .seconds(90), on: connection)
        let shortLeft = try #require(try SessionStore.authenticate(cookie: short, on: connection)).remaining
        #expect(shortLeft <= .seconds(90) && shortLeft > .seconds(30))
    }

    @Test("unknown, malformed and someone else's cookies authenticate nothing")
    func unknown() throws {
        let (cookie, _) = try SessionStore.create(tokenID: token.id, on: connection)
        let hash = SHA256Digest.hex(of: Array(cookie.utf8))
        for other in [String(repeating: "a", count: 64), "", cookie.uppercased(), cookie + "0", hash] {
            #expect(try SessionStore.authenticate(cookie: other, on: connection) == nil)
        }
    }

    @Test("an expired session authenticates nothing, and the next sign-in deletes it")
    func expiry() throws {
        let (old, _) = try SessionStore.create(tokenID: token.id, on: connection)
        let (other, _) = try SessionStore.create(tokenID: token.id, on: connection)
        try expireAll()
        #expect(try SessionStore.authenticate(cookie: old, on: connection) == nil)
        #expect(try SessionStore.authenticate(cookie: other, on: connection) == nil)
        let (new, _) = try SessionStore.create(tokenID: token.id, lifetime: .seconds(60), on: connection)
        #expect(try connection.queryValue("SELECT count(*) FROM web_sessions", as: Int.self) == 1)
        #expect(try SessionStore.authenticate(cookie: new, on: connection) != nil)
    }

    @Test("revoking the token ends its sessions at once; a revoked or unknown token starts none")
    func revocation() throws {
        let (cookie, _) = try SessionStore.create(tokenID: token.id, on: connection)
        #expect(try SessionStore.authenticate(cookie: cookie, on: connection) != nil)
        try TokenStore.revoke(name: "lead", actor: "admin", on: connection)
        #expect(try SessionStore.authenticate(cookie: cookie, on: connection) == nil)
        #expect(throws: StoreError.notFound("no active token with id \(token.id)")) {
            try SessionStore.create(tokenID: token.id, on: connection)
        }
        #expect(throws: StoreError.self) { try SessionStore.create(tokenID: 999_999, on: connection) }
    }

    @Test("ending a session (signing out) ends that one only")
    func end() throws {
        let (cookie, _) = try SessionStore.create(tokenID: token.id, on: connection)
        let (other, _) = try SessionStore.create(tokenID: token.id, on: connection)
        #expect(try SessionStore.end(cookie: cookie, on: connection))
        #expect(try SessionStore.authenticate(cookie: cookie, on: connection) == nil)
        #expect(try SessionStore.authenticate(cookie: other, on: connection) != nil)
        #expect(try !SessionStore.end(cookie: cookie, on: connection))
        #expect(try !SessionStore.end(cookie: "nonsense", on: connection))
    }
}
