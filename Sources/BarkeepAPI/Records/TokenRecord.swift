import BarkeepCore
import BarkeepProtocol

/// A `token` record: TOKEN LIST, and TOKEN CREATE with the secret.
public struct TokenRecord: WireFields {
    /// What the token is for.
    public var name = ""
    /// What it may do.
    public var role = Role.reader
    /// When it was created (the database's text).
    public var created = ""
    /// Who created it.
    public var createdBy = ""
    /// When it last authenticated a connection.
    public var lastUsed: String?
    /// When it was revoked; nil while active.
    public var revoked: String?
    /// The secret: in TOKEN CREATE's reply only, the one time it is shown.
    public var secret: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "token"

    /// The fields, in wire order.
    public static let fields: [Field<TokenRecord>] = [
        Field("name", \.name, "What the token is for."),
        Field("role", \.role, "What it may do."),
        Field("created", \.created, "When it was created."),
        Field("created-by", \.createdBy, "Who created it."),
        Field("last-used", \.lastUsed, "When it last authenticated a connection; absent: never."),
        Field("revoked", \.revoked, "When it was revoked; absent while active."),
        Field("token", \.secret, "The secret (TOKEN CREATE only, shown once)."),
    ]
}
