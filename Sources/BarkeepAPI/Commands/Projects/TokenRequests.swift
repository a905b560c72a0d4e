import BarkeepCore
import BarkeepProtocol

/// The token commands.
public enum TokenAPI {
    /// TOKEN CREATE, LIST and REVOKE.
    public static let all: [any CommandRequest.Type] = [
        TokenCreateRequest.self, TokenListRequest.self, TokenRevokeRequest.self,
    ]
}

/// `TOKEN CREATE NAME role=ROLE`.
public struct TokenCreateRequest: CommandRequest {
    /// The new token's record, with its secret.
    public typealias Reply = RecordsReply<TokenRecord>
    /// What the token is for (`ci`, `dana@laptop`).
    public var name = ""
    /// What it may do.
    public var role = Role.reader

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for a token `name` of `role`.
    public init(name: String, role: Role) {
        self.name = name
        self.role = role
    }

    /// The command.
    public static let spec = CommandSpec(
        "TOKEN CREATE", role: .admin, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Creates a token; its secret is in the reply, once.", http: .post("tokens"))
    /// Its arguments.
    public static let fields: [Field<TokenCreateRequest>] = [
        .argument(
            "name", \.name, "What the token is for.", names: .token,
            check: { name in
                Names.isValidToken(name)
                    ? nil
                    : ValueProblem(
                        "a token name is 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit"
                    )
            }),
        Field("role", \.role, "What it may do."),
    ]
}

/// `TOKEN LIST`.
public struct TokenListRequest: CommandRequest {
    /// A record per token, never its secret.
    public typealias Reply = RecordsReply<TokenRecord>
    /// The request.
    public init() {}
    /// The command.
    public static let spec = CommandSpec(
        "TOKEN LIST", role: .admin, effect: .read, summary: "Every token, without its secret.", http: .get("tokens"))
    /// No arguments.
    public static let fields: [Field<TokenListRequest>] = []
}

/// `TOKEN REVOKE NAME`.
public struct TokenRevokeRequest: CommandRequest {
    /// `OK revoked=NAME`.
    public typealias Reply = OKReply<TokenRevoked>
    /// The token's name.
    public var name = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// A request revoking `name`.
    public init(name: String) { self.name = name }

    /// The command.
    public static let spec = CommandSpec(
        "TOKEN REVOKE", role: .admin, effect: .write(isDestructive: true, isIdempotent: true),
        summary: "Revokes a token on every daemon.", http: .delete("tokens/{name}"))
    /// Its argument.
    public static let fields: [Field<TokenRevokeRequest>] = [
        .argument("name", \.name, "The token's name.", names: .token)
    ]
}

/// TOKEN REVOKE's `OK` fields.
public struct TokenRevoked: WireFields {
    /// The token revoked.
    public var revoked = ""
    /// An empty value, filled by decoding.
    public init() {}
    /// The value naming `revoked`.
    public init(revoked: String) { self.revoked = revoked }
    /// The fields.
    public static let fields: [Field<TokenRevoked>] = [Field("revoked", \.revoked, "The token revoked.")]
}
