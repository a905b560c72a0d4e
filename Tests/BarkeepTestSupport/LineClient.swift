import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw test client: sends bytes exactly as given and reads reply lines, so tests can send what a well-behaved
/// client never would (garbage, huge lines, many pipelined requests in one write).
///
/// `@unchecked Sendable`: one thread may `send` while another reads; `send` touches only the descriptor (the
/// kernel orders concurrent use), and only the reading thread touches `buffer` and `start`.
public final class LineClient: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    /// Connects to a TCP port on the loopback address.
    public convenience init(port: UInt16, host: String = "127.0.0.1") throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        try self.init(family: AF_INET, address: address, name: "\(host):\(port)")
    }

    /// Connects to a Unix socket.
    public convenience init(socketPath: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes.prefix(buffer.count - 1))
        }
        try self.init(family: AF_UNIX, address: address, name: socketPath)
    }

    private init<Address>(family: Int32, address: Address, name: String) throws {
        descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        var address = address
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw TestSupportError("cannot connect to \(name): \(String(cString: strerror(errno)))")
        }
        var interval = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Makes the kernel's receive buffer for this socket as small as it allows, so a server's backlog cannot hide
    /// in it.
    public func shrinkReceiveBuffer() {
        var size: Int32 = 1024
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Whether bytes the server sent wait to be read (looked at without reading them, nor waiting).
    public func hasUnreadBytes() -> Bool {
        if start < buffer.count { return true }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 1
    }

    /// Half-closes: the server sees the end of the stream, and replies can still be read.
    public func shutdownWrite() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// Sends the bytes of `text` as they are.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a server that closed the connection is an error to report, not a SIGPIPE to die of.
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestSupportError("send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads one line without its LF; nil when the server closed the connection.
    public func readLine() throws -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            guard count > 0 else { throw TestSupportError("no reply: \(String(cString: strerror(errno)))") }
            buffer += chunk[0..<count]
        }
    }

    /// Sends one request line and returns the reply line.
    public func request(_ line: String) throws -> String? {
        try send(line + "\n")
        return try readLine()
    }

    /// Sends one request line and reads its whole reply: its records (`* …`), then its final line, last.
    public func reply(_ line: String) throws -> [String] {
        try send(line + "\n")
        var lines: [String] = []
        while let read = try readLine() {
            lines.append(read)
            if !read.hasPrefix("* ") { break }
        }
        return lines
    }

    /// Whether the server has closed the connection (reads until end of stream or timeout).
    public func isClosedByServer() -> Bool {
        (try? readLine()) == nil
    }
}
