import BarkeepCore
import BarkeepProtocol

/// What a handler asks the connection to do after its reply.
public enum CommandOutcome: Sendable, Equatable {
    /// Send the reply and read the next request.
    case reply(Reply)
    /// Send the reply, then close the connection.
    case replyAndClose(Reply)
}

/// Who is on the other end of a connection, as far as the server knows.
public struct Peer: Sendable, Equatable {
    /// Whether the peer came through the Unix socket.
    public var isLocal: Bool
    /// The peer's uid (Unix socket only, from SO_PEERCRED).
    public var uid: UInt32?
    /// What the peer may do; nil until it authenticates.
    public var role: Role?
}

/// One command of the protocol: its name, how many arguments it takes, the least role that may run it, and its
/// handler.
public struct Command: Sendable {
    /// The verb, upper case.
    public let name: String
    /// The accepted argument counts.
    public let arity: ClosedRange<Int>
    /// The least role that may run it; nil for commands anyone may send (PING, QUIT, HELLO).
    public let minimumRole: Role?
    /// Runs the command. Handlers run on the event loop thread and must not block.
    public let handler: @Sendable (Request, Peer) -> CommandOutcome

    /// Creates a command.
    public init(
        name: String,
        arity: ClosedRange<Int>,
        minimumRole: Role?,
        handler: @escaping @Sendable (Request, Peer) -> CommandOutcome
    ) {
        self.name = name.uppercased()
        self.arity = arity
        self.minimumRole = minimumRole
        self.handler = handler
    }
}

/// The one place that decides whether a request may run: unknown verbs, wrong argument counts and missing roles
/// are refused here, before any handler sees the request.
public struct CommandTable: Sendable {
    private var commands: [String: Command] = [:]

    /// Creates a table holding `commands`.
    public init(_ commands: [Command]) {
        for command in commands { self.commands[command.name] = command }
    }

    /// The commands every server answers: `PING` and `QUIT`.
    public static let basic = CommandTable([
        Command(name: "PING", arity: 0...0, minimumRole: nil) { _, _ in .reply(.ok("PONG")) },
        Command(name: "QUIT", arity: 0...0, minimumRole: nil) { _, _ in .replyAndClose(.ok("BYE")) },
    ])

    /// The command names, sorted.
    public var names: [String] { commands.keys.sorted() }

    /// Checks `request` against the table and runs its handler.
    public func dispatch(_ request: Request, from peer: Peer) -> CommandOutcome {
        guard let command = commands[request.verb] else {
            // Echo a bounded prefix only: a 64 KiB verb must not earn a 64 KiB reply.
            let shown = request.verb.count > 32 ? request.verb.prefix(32) + "…" : Substring(request.verb)
            return .reply(.error(.unknown, "unknown command '\(shown)'"))
        }
        guard command.arity.contains(request.arguments.count) else {
            let expected =
                command.arity.lowerBound == command.arity.upperBound
                ? "\(command.arity.lowerBound)" : "\(command.arity.lowerBound) to \(command.arity.upperBound)"
            return .reply(
                .error(.badArgument, "\(command.name) takes \(expected) arguments, got \(request.arguments.count)")
            )
        }
        if let needed = command.minimumRole {
            guard let role = peer.role else { return .reply(.error(.noAuth, "\(command.name) needs a token")) }
            guard role >= needed else {
                return .reply(.error(.forbidden, "\(command.name) needs the \(needed.rawValue) role"))
            }
        }
        return command.handler(request, peer)
    }
}
