import BarkeepProtocol

/// What can go wrong in the CLI after its arguments were understood. Every case exits with code 1.
enum CLIError: Error, CustomStringConvertible {
    /// The daemon could not be reached.
    case cannotConnect(ServerAddress, String)
    /// The connection broke or timed out mid-conversation.
    case connectionLost(ServerAddress, String)
    /// The daemon answered with an error.
    case server(ErrorCode, String)
    /// The daemon's answer broke the protocol.
    case badReply(String)
    /// A file or argument the command was given cannot be used.
    case badInput(String)

    var description: String {
        switch self {
        case .cannotConnect(let address, let reason):
            "cannot reach barkeepd at \(address): \(reason) (is it running? see --server)"
        case .connectionLost(let address, let reason): "lost the connection to barkeepd at \(address): \(reason)"
        case .server(let code, let message): "\(message) (\(code.rawValue))"
        case .badReply(let reason): "unexpected reply from barkeepd: \(reason)"
        case .badInput(let reason): reason
        }
    }

    /// A refusal for want of a token, saying how to give one.
    static func needsToken(_ message: String) -> CLIError {
        let what = message.split(separator: ":").first.map(String.init) ?? message
        return .server(.noAuth, "\(what): pass --token or set BARKEEP_TOKEN")
    }

    /// Whether the daemon could not be reached or the connection broke (worth retrying for a long-running
    /// command).
    var isConnectionProblem: Bool {
        switch self {
        case .cannotConnect, .connectionLost: true
        case .server(.unavailable, _): true
        default: false
        }
    }

    /// The process exit code for this error.
    var exitCode: Int32 { 1 }
}
