import BarkeepCore
import Foundation

/// An API token as listed: never its secret, which is not stored.
public struct TokenInfo: Sendable, Equatable {
    /// The database id.
    public var id: Int64
    /// The name given at creation (unique among active tokens).
    public var name: String
    /// What it may do.
    public var role: Role
    /// When it was created.
    public var createdAt: Date
    /// Who created it.
    public var createdBy: String
    /// When it last authenticated a connection.
    public var lastUsedAt: Date?
    /// When it was revoked; nil while active.
    public var revokedAt: Date?

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        name = try row.decode("name")
        guard let role = Role(rawValue: try row.decode("role")) else {
            throw StoreError.decoding(column: "role", expected: "Role")
        }
        self.role = role
        createdAt = try row.decode("created_at")
        createdBy = try row.decode("created_by")
        lastUsedAt = try row.decodeIfPresent("last_used_at")
        revokedAt = try row.decodeIfPresent("revoked_at")
    }
}

/// API tokens: made, checked and revoked. Only the SHA-256 of a secret is stored.
public enum TokenStore {
    private static let columns = "id, name, role, created_at, created_by, last_used_at, revoked_at"

    /// Creates a token; returns it with its secret, which exists nowhere else from then on.
    public static func create(
        name: String,
        role: Role,
        actor: String,
        on connection: PostgresConnection
    ) throws -> (TokenInfo, secret: String) {
        let secret = TokenSecret.generate()
        return try connection.transaction { connection in
            let rows: PostgresRows
            do {
                rows = try connection.query(
                    "INSERT INTO tokens (name, role, hash, created_by) VALUES ($1, $2, $3, $4) RETURNING \(columns)",
                    [name, role.rawValue, TokenSecret.hash(secret), actor]
                )
            } catch let error as StoreError where error.sqlState == PostgresError.Code.uniqueViolation {
                throw StoreError.conflict("an active token named \(ValueExcerpt.quoted(name)) already exists")
            } catch let error as StoreError where error.sqlState == PostgresError.Code.checkViolation {
                throw StoreError.invalid("not a valid token name")
            }
            guard let info = try rows.first.map(TokenInfo.init(row:)) else {
                throw StoreError.invalid("token not created")
            }
            try EventLog.append(
                [
                    NewEvent(
                        projectID: nil, project: nil, kind: .tokenCreated, subject: name, to: role.rawValue,
                        actor: actor
                    )
                ],
                on: connection
            )
            return (info, secret)
        }
    }

    /// Every token, active ones first, then by name.
    public static func list(on connection: PostgresConnection) throws -> [TokenInfo] {
        try connection.query("SELECT \(columns) FROM tokens ORDER BY revoked_at IS NOT NULL, name, id")
            .map(TokenInfo.init(row:))
    }

    /// Revokes the active token named `name`; `notFound` when there is none.
    public static func revoke(name: String, actor: String, on connection: PostgresConnection) throws {
        try connection.transaction { connection in
            let revoked = try connection.queryValue(
                "UPDATE tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING id",
                [name],
                as: Int64.self
            )
            guard revoked != nil else {
                throw StoreError.notFound("no active token named \(ValueExcerpt.quoted(name))")
            }
            try EventLog.append(
                [NewEvent(projectID: nil, project: nil, kind: .tokenRevoked, subject: name, actor: actor)],
                on: connection
            )
        }
    }

    /// The active token whose secret is `secret`, recording its use; nil when unknown or revoked.
    public static func authenticate(secret: String, on connection: PostgresConnection) throws -> TokenInfo? {
        guard TokenSecret.isWellFormed(secret) else { return nil }
        // A wrong token writes nothing; a match records when it was last used, at most once a minute (every HTTP
        // API request authenticates: a write per read would cost WAL for nothing `token list` shows).
        let hash = TokenSecret.hash(secret)
        guard
            let row = try connection.query(
                """
                SELECT \(columns), last_used_at > now() - make_interval(secs => $2) AS recent
                FROM tokens WHERE hash = $1 AND revoked_at IS NULL
                """,
                [hash, TokenSecret.lastUseResolutionSeconds]
            ).first
        else { return try StoreError.missingCredential("the token", on: connection) }
        if try row.decodeIfPresent("recent", as: Bool.self) == true { return try TokenInfo(row: row) }
        return try connection.query(
            """
            UPDATE tokens SET last_used_at = now()
            WHERE id = $1 AND revoked_at IS NULL
            RETURNING \(columns)
            """,
            [try row.decode("id", as: Int64.self)]
        ).first.map(TokenInfo.init(row:))
    }

    /// The role of token `id` if it is still active, nil once revoked.
    public static func activeRole(id: Int64, on connection: PostgresConnection) throws -> Role? {
        guard
            let role = try connection.queryValue(
                "SELECT role FROM tokens WHERE id = $1 AND revoked_at IS NULL", [id], as: String.self)
        else { return try StoreError.missingCredential("the token", on: connection) }
        return Role(rawValue: role)
    }

    /// Which of the tokens `ids` are still active (not revoked): one statement for many sessions' requests.
    public static func active(_ ids: Set<Int64>, on connection: PostgresConnection) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return Set(
            try connection.query(
                "SELECT id FROM tokens WHERE id = ANY($1::bigint[]) AND revoked_at IS NULL", [ids.map(String.init)]
            ).map { try $0.decode(at: 0, as: Int64.self) })
    }
}
