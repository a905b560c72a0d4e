import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// A CLI command that can run: built from its parsed arguments, then run with the shared context.
protocol RunnableCommand: ParsableCommand {
    /// Reads and validates the command's arguments.
    init(_ parsed: ParsedCommand) throws(UsageError)
    /// Does the work, printing to standard output; throws `CLIError` on failure.
    func run(_ context: CLIContext) throws
    /// The protocol commands it sends (`SCREEN LIST`), whose highest least role is the role docs/cli.md states
    /// for it (a test checks both); nil, the default: the one its words name (`barkeep project create` sends
    /// `PROJECT CREATE`).
    static var requests: [String]? { get }
}

extension RunnableCommand {
    /// The protocol command its words name.
    static var requests: [String]? { nil }
}

/// What every command shares: where the daemon is, how to reach it, the token, output preferences.
struct CLIContext {
    var server: ServerAddress
    var token: String?
    var isJSON: Bool
    /// TLS for a TCP server (`--tls`, `--ca FILE`); nil: plain text, and always for a Unix socket.
    var tls: ClientTLS.Options?

    /// The default server: the Unix socket of a daemon started in this directory, else the default TCP port.
    static func defaultServer(fileExists: (String) -> Bool = FileManager.default.fileExists) -> ServerAddress {
        let socket = ServerAddress.defaultSocketPath
        if fileExists(socket) {
            return .unix(path: URL(fileURLWithPath: socket).standardizedFileURL.path)
        }
        return .defaultTCP
    }

    init(_ parsed: ParsedCommand) throws(UsageError) {
        if let text = parsed.value("server") {
            do {
                server = try ServerAddress(parsing: text)
            } catch {
                throw UsageError("--server: \(error)", commandPath: parsed.commandPath)
            }
        } else {
            server = Self.defaultServer()
        }
        token = parsed.value("token")
        isJSON = parsed.flag("json")
        let caFile = parsed.value("ca")
        if case .tcp = server, parsed.flag("tls") || caFile != nil {
            tls = ClientTLS.Options(caFile: caFile)
        } else {
            tls = nil
        }
    }

    /// Opens a connection to the daemon, says the protocol version it speaks and, with a token, authenticates it. A
    /// token never crosses the network in clear text: without TLS it is sent only to this machine.
    func connect() throws(CLIError) -> Client {
        if token != nil, tls == nil, !server.isLoopback { throw .tokenInClearText(server) }
        let client = try Client(address: server, tls: tls)
        do {
            client.greeting = try client.send(HelloRequest(protocolVersion: ProtocolVersion.current, token: token))
                .summary
        } catch .server(.noAuth, _) {
            throw .server(.noAuth, "the token was refused: it is unknown or revoked")
        }
        return client
    }

    /// Connects, sends a typed request and returns its typed reply (`Client.send`), a refusal explained.
    func send<R: CommandRequest>(_ request: R) throws(CLIError) -> R.Reply {
        let client = try connect()
        do {
            return try client.send(request)
        } catch {
            throw explained(error)
        }
    }

    /// Sends one request on a new connection and returns its reply. A refusal for want of a token says how to
    /// give one.
    func request(_ request: Request) throws(CLIError) -> Response {
        let client = try connect()
        do {
            return try client.send(request)
        } catch {
            throw explained(error)
        }
    }

    /// The error to report: a refusal for want of a token, when none was given, says how to give one.
    func explained(_ error: CLIError) -> CLIError {
        if case .server(.noAuth, let message) = error, token == nil { return .needsToken(message) }
        return error
    }
}

/// The root command: `barkeep`.
struct BarkeepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "barkeep",
        abstract: "Barkeep: track an app's iPhone Duo bars audit, screen by screen, until it is done.",
        discussion: """
            barkeep talks to barkeepd over its line protocol. Without --server it uses the Unix socket of a daemon
            started in the current directory (\(ServerAddress.defaultSocketPath)), else \
            \(ServerAddress.defaultTCP). A token is sent over TCP
            only with TLS (--tls, --ca) or to a loopback address.
            Exit codes: 0 success, 1 failure, 64 usage error. NO_COLOR turns colour off.
            """,
        arguments: [
            .option(
                "server",
                valueName: "ADDR",
                environment: "BARKEEP_SERVER",
                help: "The daemon: HOST:PORT or unix:PATH."
            ),
            .option(
                "token",
                valueName: "TOKEN",
                environment: "BARKEEP_TOKEN",
                help: "API token (needed over TCP; the daemon's owner on its Unix socket needs none)."
            ),
            .flag(
                "tls",
                environment: "BARKEEP_TLS",
                help: "Connect to a TCP server with TLS, trusting the system's CAs (ignored for a Unix socket)."
            ),
            .option(
                "ca",
                valueName: "FILE",
                environment: "BARKEEP_CA",
                help: "Trust the server certificate's CA from this PEM file (implies --tls)."
            ),
            .flag("json", help: "Print JSON for scripts instead of text."),
            .flag("version", help: "Print the version and exit."),
        ],
        subcommands: [
            PingCommand.self, ProjectGroup.self, IngestCommand.self, CheckCommand.self, RunsCommand.self, RunGroup.self,
            FindingsCommand.self,
            FindingGroup.self, MineCommand.self, ScreenGroup.self, StepGroup.self, ItemGroup.self, SDKGroup.self,
            BlockedCommand.self,
            PoseGroup.self, PosesCommand.self, StatusCommand.self, BurndownCommand.self, ReportCommand.self,
            TokenGroup.self, SourceGroup.self, HookGroup.self, WatchCommand.self, EventsCommand.self, StatsCommand.self,
            MCPCommand.self,
        ]
    )
}
