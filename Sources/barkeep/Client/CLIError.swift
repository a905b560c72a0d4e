import BarkeepProtocol

/// What can go wrong in the CLI after its arguments were understood. Every case exits with code 1 but `undecided`
/// (2).
enum CLIError: Error, CustomStringConvertible {
    /// The daemon could not be reached.
    case cannotConnect(ServerAddress, String)
    /// The connection broke or timed out mid-conversation.
    case connectionLost(ServerAddress, String)
    /// The daemon answered with an error.
    case server(ErrorCode, String)
    /// A request refused before it was sent, with the code the daemon would answer it with: an upload larger
    /// than the daemon's limit (`TOOLONG`), or one the connection's role may not make (`FORBIDDEN`, `NOAUTH`).
    case refused(ErrorCode, String)
    /// The daemon's answer broke the protocol.
    case badReply(String)
    /// A file or argument the command was given cannot be used.
    case badInput(String)
    /// The TLS handshake with the daemon failed for another reason than its certificate (a server without TLS on
    /// that port, a timeout).
    case tlsHandshake(ServerAddress, String)
    /// The TLS server's certificate failed verification (chain, validity or name); the text says why.
    case untrustedCertificate(String)
    /// A change over many rows was refused for some of them (the others changed); the text says which were left.
    case partial(String)
    /// A token would have crossed the network in clear text: TCP without TLS to a host that is not this machine.
    case tokenInClearText(ServerAddress)
    /// A change of many rows was listed but not made: neither `--dry-run` nor `--yes` was given; the text says so.
    case unconfirmed(String)
    /// A check's gate failed (`barkeep check`): its answer was printed; the text says why it failed.
    case gateFailed(String)
    /// A command whose exit code 1 is an answer (`barkeep check`'s failed gate) could not give one: the error says
    /// why. Exit code 2, so that a CI job tells "the change adds findings" from "the check did not run".
    indirect case undecided(CLIError)

    var description: String {
        switch self {
        case .cannotConnect(let address, let reason):
            "cannot reach barkeepd at \(address): \(reason) (is it running? see --server)"
        case .connectionLost(let address, let reason): "lost the connection to barkeepd at \(address): \(reason)"
        case .server(let code, let message), .refused(let code, let message): "\(message) (\(code.rawValue))"
        case .badReply(let reason): "unexpected reply from barkeepd: \(reason)"
        case .badInput(let reason): reason
        case .partial(let reason): reason
        case .unconfirmed(let reason): reason
        case .gateFailed(let reason): reason
        case .undecided(let error): error.description
        case .tlsHandshake(let address, let reason):
            "TLS with barkeepd at \(address) failed: \(reason) (does it serve TLS on this port?)"
        case .untrustedCertificate(let reason): "the server's certificate is not trusted: \(reason)"
        case .tokenInClearText(let address):
            "refusing to send the token to \(address) in clear text: connect with TLS (--tls, or --ca FILE for a "
                + "private CA), or reach the daemon through a loopback address or its Unix socket"
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
        case .cannotConnect, .connectionLost, .tlsHandshake: true
        case .server(.unavailable, _): true
        case .undecided(let error): error.isConnectionProblem
        default: false
        }
    }

    /// The process exit code for this error.
    var exitCode: Int32 {
        if case .undecided = self { return 2 }
        return 1
    }
}
