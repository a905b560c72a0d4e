/// Errors of the server's own setup: listeners and the event loop. Each case says what failed and where.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A listener could not be opened on an address.
    case cannotListen(address: String, reason: String)
    /// Another process already serves a Unix socket path.
    case socketInUse(path: String)
    /// The event loop could not be created.
    case eventLoop(String)
    /// The TLS certificate or key cannot be used (unreadable, not PEM, mismatched).
    case tls(String)
    /// The daemon could not take its presence on the database (`Presence`).
    case presence(String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        case .socketInUse(let path): "\(path) is in use by another running server"
        case .eventLoop(let reason): "cannot start the event loop: \(reason)"
        case .tls(let reason): "TLS: \(reason)"
        case .presence(let reason): "presence on the database: \(reason)"
        }
    }
}
