import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// TOKEN CREATE, LIST and REVOKE.
enum TokenCommands {
    static let all: [Command] = [create, list, revoke]

    static let create = Command(
        "TOKEN CREATE", positional: 1...1, arguments: [.token], requiredKeys: ["role"], minimumRole: .admin
    ) {
        input throws(CommandError) in
        let name = input.argument(0)
        guard Names.isValidToken(name) else {
            throw CommandError(
                .badArgument,
                "a token name is 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit"
            )
        }
        guard let roleText = input.keyword("role"), let role = Role(rawValue: roleText) else {
            throw CommandError(.badArgument, "role must be reader, writer or admin")
        }
        let actor = input.session.actor
        return .database { connection in
            let (token, secret) = try TokenStore.create(name: name, role: role, actor: actor, on: connection)
            var record = token.record
            record.append("token", secret)
            return CommandResult(.records([record]))
        }
    }

    static let list = Command("TOKEN LIST", minimumRole: .admin) { _ in
        .database { connection in CommandResult(.records(try TokenStore.list(on: connection).map(\.record))) }
    }

    static let revoke = Command("TOKEN REVOKE", positional: 1...1, arguments: [.token], minimumRole: .admin) { input in
        let name = input.argument(0)
        let actor = input.session.actor
        return .database { connection in
            try TokenStore.revoke(name: name, actor: actor, on: connection)
            return CommandResult(.ok(["revoked": name]))
        }
    }
}

extension TokenInfo {
    /// The token as a `token` record, without its secret.
    var record: Record {
        Record([
            "name": name, "role": role.rawValue, "created": createdAt.postgresText, "created-by": createdBy,
            "last-used": lastUsedAt?.postgresText, "revoked": revokedAt?.postgresText,
        ])
    }
}
