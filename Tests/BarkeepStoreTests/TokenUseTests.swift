import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Testing

/// A token's last use against a real database: recorded on its first use, then at most once a resolution
/// (`TokenSecret.lastUseResolutionSeconds`), so that the HTTP API's requests, each authenticating, do not each write.
@Suite("Token last use")
struct TokenUseTests {
    let connection: PostgresConnection
    let secret: String

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
        secret = try TokenStore.create(name: "ci", role: .writer, actor: "admin", on: connection).1
    }

    /// The token row's version (a write makes a new one) and its last use, as text.
    func row() throws -> (version: String, lastUsed: String?) {
        let row = try #require(
            try connection.query("SELECT xmin::text AS version, last_used_at::text AS used FROM tokens").first)
        return (try row.decode("version"), try row.decodeIfPresent("used"))
    }

    @Test("the first use is recorded; uses within the resolution write nothing; an older last use is rewritten")
    func lastUse() throws {
        #expect(try row().lastUsed == nil)
        let first = try #require(try TokenStore.authenticate(secret: secret, on: connection))
        let recorded = try row()
        #expect(recorded.lastUsed != nil && first.lastUsedAt != nil)
        for _ in 0..<5 {
            let again = try #require(try TokenStore.authenticate(secret: secret, on: connection))
            #expect(again.name == "ci" && again.role == .writer && again.lastUsedAt == first.lastUsedAt)
        }
        #expect(try row().version == recorded.version, "a use within the minute rewrote the token row")
        try connection.query(
            "UPDATE tokens SET last_used_at = now() - make_interval(secs => $1)",
            [TokenSecret.lastUseResolutionSeconds + 1])
        let aged = try row()
        _ = try #require(try TokenStore.authenticate(secret: secret, on: connection))
        let rewritten = try row()
        #expect(rewritten.version != aged.version && rewritten.lastUsed != aged.lastUsed)
        #expect(try TokenStore.authenticate(secret: secret + "x", on: connection) == nil)
    }
}
