import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep token …`.
struct TokenGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "token",
        abstract: "Create, list and revoke API tokens (admin).",
        subcommands: [TokenCreateCommand.self, TokenListCommand.self, TokenRevokeCommand.self]
    )
}

struct TokenCreateCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "create",
        abstract: "Create a token; it is printed once and cannot be shown again.",
        discussion: """
            A token stands for the person its name names before the first @: dana@laptop is dana (one person, a
            token per machine), ci is ci. That person is who barkeep mine lists screens and findings for, matching
            the owners and assignees written as that name.
            """,
        arguments: [
            .positional("name", help: "What the token is for, e.g. ci or dana@laptop (the person dana)."),
            .option("role", valueName: "ROLE", help: "reader, writer or admin."),
        ]
    )

    let name: String
    let role: Role

    init(_ parsed: ParsedCommand) throws(UsageError) {
        name = parsed.value("name") ?? ""
        guard let text = parsed.value("role") else {
            throw UsageError("--role is required (reader, writer or admin)", commandPath: parsed.commandPath)
        }
        guard let role = Role(rawValue: text) else {
            throw UsageError(
                "--role must be reader, writer or admin, not \(ValueExcerpt.quoted(text))",
                commandPath: parsed.commandPath)
        }
        self.role = role
    }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(TokenCreateRequest(name: name, role: role))
        guard let token = reply.rows.first, let secret = token.secret else {
            throw CLIError.badReply("TOKEN CREATE returned no token")
        }
        if context.isJSON {
            try Output.json(token.json)
        } else {
            print(secret)
            FileHandle.standardError.write(
                Data("Token \(name) (\(role.rawValue)) created. It is shown only now: store it safely.\n".utf8)
            )
        }
    }
}

struct TokenListCommand: RunnableCommand {
    static let configuration = CommandConfiguration(name: "list", abstract: "List tokens (never their secrets).")

    init(_ parsed: ParsedCommand) throws(UsageError) {}

    func run(_ context: CLIContext) throws {
        let tokens = try context.send(TokenListRequest()).rows
        if context.isJSON {
            try Output.json(tokens.map(\.json))
        } else if tokens.isEmpty {
            print("No tokens. Create one with: barkeep token create NAME --role reader|writer|admin")
        } else {
            Output.table(
                ["NAME", "ROLE", "CREATED", "BY", "LAST USED", "STATUS"],
                tokens.map { token in
                    [
                        token.name, token.role.rawValue, String(token.created.prefix(16)), token.createdBy,
                        String((token.lastUsed ?? "never").prefix(16)),
                        token.revoked.map { "revoked \($0.prefix(10))" } ?? "active",
                    ]
                }
            )
        }
    }
}

struct TokenRevokeCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "revoke",
        abstract: "Revoke a token: refused from now on, on every daemon.",
        arguments: [.positional("name", help: "The token's name.")]
    )

    let name: String

    init(_ parsed: ParsedCommand) throws(UsageError) { name = parsed.value("name") ?? "" }

    func run(_ context: CLIContext) throws {
        let revoked = try context.send(TokenRevokeRequest(name: name)).summary
        if context.isJSON {
            try Output.json(revoked.json)
        } else {
            print("Revoked token \(revoked.revoked).")
        }
    }
}
