import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// TOKEN CREATE, LIST and REVOKE, declared by their specs (BarkeepAPI).
enum TokenCommands {
    static let all: [Command] = [create, list, revoke]

    static let create = Command(TokenCreateRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let (token, secret) = try TokenStore.create(
                name: request.name, role: request.role, actor: actor, on: connection)
            var record = TokenRecord(token)
            record.secret = secret
            return CommandResult(TokenCreateRequest.Reply([record]), version: version)
        }
    }

    static let list = Command(TokenListRequest.self) { _, input in
        let version = input.session.protocolVersion
        return .database { connection in
            CommandResult(
                TokenListRequest.Reply(try TokenStore.list(on: connection).map(TokenRecord.init)), version: version)
        }
    }

    static let revoke = Command(TokenRevokeRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            try TokenStore.revoke(name: request.name, actor: actor, on: connection)
            return CommandResult(TokenRevokeRequest.Reply(TokenRevoked(revoked: request.name)), version: version)
        }
    }
}

extension TokenRecord {
    /// The token's record, without its secret.
    init(_ token: TokenInfo) {
        self.init()
        name = token.name
        role = token.role
        created = token.createdAt.postgresText
        createdBy = token.createdBy
        lastUsed = token.lastUsedAt?.postgresText
        revoked = token.revokedAt?.postgresText
    }
}
