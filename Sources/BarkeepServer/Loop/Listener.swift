import BarkeepProtocol
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A listening socket, non-blocking and close-on-exec, with the address it is actually bound to (a TCP port of 0
/// becomes the port the kernel chose).
struct Listener {
    /// What a listener's connections speak.
    enum Kind: Equatable {
        /// The line protocol (docs/protocol.md), on TCP and the Unix socket.
        case line
        /// HTTP/1.1 (docs/design/web-dashboard.md, section 1), on TCP only.
        case http
    }

    let descriptor: Int32
    let address: ServerAddress
    /// What its connections speak.
    var kind = Kind.line

    var isUnix: Bool {
        if case .unix = address { return true }
        return false
    }

    /// Opens a listener on `address`. A Unix socket file left by a server that is gone is replaced; one that a
    /// live server answers on is refused.
    static func open(_ address: ServerAddress, backlog: Int32 = 1024) throws(ServerError) -> Listener {
        switch address {
        case .tcp(let host, let port): try openTCP(host: host, port: port, backlog: backlog)
        case .unix(let path): try openUnix(path: path, backlog: backlog)
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
        if case .unix(let path) = address { unlink(path) }
    }

    private static func openTCP(host: String, port: UInt16, backlog: Int32) throws(ServerError) -> Listener {
        let name = ServerAddress.tcp(host: host, port: port).description
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .cannotListen(address: name, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .cannotListen(address: name, reason: errorText()) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0,
            Glibc.listen(descriptor, backlog) == 0
        else {
            let reason = errorText()
            _ = Glibc.close(descriptor)
            throw .cannotListen(address: name, reason: reason)
        }
        setNonBlocking(descriptor)
        return Listener(descriptor: descriptor, address: .tcp(host: host, port: boundPort(descriptor) ?? port))
    }

    private static func openUnix(path: String, backlog: Int32) throws(ServerError) -> Listener {
        let name = "unix:\(path)"
        guard var address = makeUnixAddress(path) else {
            throw .cannotListen(address: name, reason: "the path is too long for a socket")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            // Only ever replace a socket: a mistyped --socket must not delete someone's file.
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw .cannotListen(address: name, reason: "\(path) exists and is not a socket")
            }
            if isAnswering(&address) { throw .socketInUse(path: path) }
            // A socket file whose server is gone (a crash): nobody else can use it, so replace it.
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .cannotListen(address: name, reason: errorText()) }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let reason = errorText()
            _ = Glibc.close(descriptor)
            throw .cannotListen(address: name, reason: reason)
        }
        // Anyone who can reach the directory may connect; what they may do is decided per peer (SO_PEERCRED).
        chmod(path, 0o666)
        setNonBlocking(descriptor)
        return Listener(descriptor: descriptor, address: .unix(path: path))
    }

    static func makeUnixAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return address
    }

    private static func isAnswering(_ address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { _ = Glibc.close(probe) }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    private static func boundPort(_ descriptor: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            switch family {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            default: nil
            }
        }
    }
}

func setNonBlocking(_ descriptor: Int32) {
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
}
