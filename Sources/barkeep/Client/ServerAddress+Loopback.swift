import BarkeepProtocol

#if canImport(Glibc)
    import Glibc
#endif

extension ServerAddress {
    /// Whether traffic to this address stays on this machine: a Unix socket, or TCP to `localhost`, 127.0.0.0/8,
    /// `::1` (or an IPv4-mapped loopback address), or the unspecified address (`:PORT`, which Linux connects to this
    /// machine).
    var isLoopback: Bool {
        switch self {
        case .unix: return true
        case .tcp(let host, _): return Self.isLoopback(host: host)
        }
    }

    /// Whether `host`, a name or a literal address, is a loopback one (names other than `localhost` are not
    /// resolved: what they resolve to may change).
    static func isLoopback(host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "localhost." { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 { return isLoopback(ipv4) }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
        // ::1 and :: (unspecified).
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1 { return true }
        // ::ffff:a.b.c.d, an IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12] == 127 || bytes[12..<16].allSatisfy { $0 == 0 }
        }
        return false
    }

    private static func isLoopback(_ address: in_addr) -> Bool {
        let value = UInt32(bigEndian: address.s_addr)
        // 127.0.0.0/8, and 0.0.0.0, which Linux connects to this machine.
        return value >> 24 == 127 || value == 0
    }
}
