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

    var description: String {
        switch self {
        case .cannotConnect(let address, let reason):
            "cannot reach barkeepd at \(address): \(reason) (is it running? see --server)"
        case .connectionLost(let address, let reason): "lost the connection to barkeepd at \(address): \(reason)"
        case .server(let code, let message): "\(message) (\(code.rawValue))"
        case .badReply(let reason): "unexpected reply from barkeepd: \(reason)"
        }
    }

    /// The process exit code for this error.
    var exitCode: Int32 { 1 }
}
