/// Where a `barkeepd` listens or a client connects: a TCP host and port, or a Unix socket path.
public enum ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// A TCP endpoint. `host` is a name or a literal IPv4/IPv6 address (without brackets).
    case tcp(host: String, port: UInt16)
    /// A Unix domain socket at `path`.
    case unix(path: String)

    /// The longest path a Unix socket address can hold on Linux (`sun_path` is 108 bytes with its NUL).
    public static let maximumSocketPathLength = 107

    /// Parses `host:port`, `[ipv6]:port`, `:port` (every IPv4 interface) or `unix:PATH`. A listener given port 0 takes a
    /// free port chosen by the kernel.
    public init(parsing text: String) throws(ProtocolError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst("unix:".count))
            guard !path.isEmpty else { throw .badAddress(text, "the socket path is empty") }
            guard path.utf8.count <= Self.maximumSocketPathLength else {
                throw .badAddress(text, "a socket path is at most \(Self.maximumSocketPathLength) bytes")
            }
            self = .unix(path: path)
            return
        }
        guard let colon = text.lastIndex(of: ":") else {
            throw .badAddress(text, "expected host:port or unix:PATH")
        }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        // Port 0 asks the kernel for a free port when listening; connecting to it simply fails.
        guard portText.allSatisfy({ ("0"..."9").contains($0) }), let port = UInt16(portText) else {
            throw .badAddress(text, "the port must be a number from 0 to 65535")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw .badAddress(text, "write an IPv6 address in brackets: [::1]:\(port)")
        }
        if host.isEmpty { host = "0.0.0.0" }
        self = .tcp(host: host, port: port)
    }

    /// The address in the form `init(parsing:)` reads.
    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}
