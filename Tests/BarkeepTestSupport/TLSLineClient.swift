import CBarkeepTLS
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw TLS test client on a non-blocking socket, driven by `poll` on one thread: it can keep sending requests
/// while it does not read the replies, which a blocking client (or `openssl s_client`) cannot do without stalling.
/// Verifies the server's certificate against a CA file for the address 127.0.0.1.
public final class TLSLineClient {
    private let descriptor: Int32
    private let context: OpaquePointer
    private let session: OpaquePointer

    /// Connects to a loopback TCP port and completes the handshake; with `receiveBuffer`, the socket's receive
    /// buffer is made that small first, so that the server's backlog cannot hide in it.
    public init(port: UInt16, caFile: String, receiveBuffer: Int32? = nil) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var error = [CChar](repeating: 0, count: 512)
        guard status == 0, let context = barkeep_tls_client_context_create(caFile, &error, error.count) else {
            close(descriptor)
            throw TestSupportError("cannot connect with TLS to port \(port)")
        }
        guard let session = barkeep_tls_client_create(context, descriptor, "127.0.0.1") else {
            barkeep_tls_context_free(context)
            close(descriptor)
            throw TestSupportError("cannot make a TLS session")
        }
        self.context = context
        self.session = session
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            switch barkeep_tls_handshake(session) {
            case .BARKEEP_TLS_OK: return
            case .BARKEEP_TLS_WANT_READ where ContinuousClock.now < deadline: wait(for: Int16(POLLIN))
            case .BARKEEP_TLS_WANT_WRITE where ContinuousClock.now < deadline: wait(for: Int16(POLLOUT))
            default: throw TestSupportError("TLS handshake failed: \(String(cString: barkeep_tls_error(session)))")
            }
        }
    }

    deinit {
        barkeep_tls_free(session)
        barkeep_tls_context_free(context)
        close(descriptor)
    }

    /// Sends `requests` while reading nothing until `isTimeToRead` says so (or half of `timeout` passed), then
    /// reads replies (sending the rest as the server takes it) until `count` lines came, the server closed the
    /// connection, or `timeout` passed. Returns the lines.
    public func exchange(
        _ requests: [UInt8],
        replies count: Int,
        timeout: Duration = .seconds(60),
        readingWhen isTimeToRead: () -> Bool
    ) throws -> [String] {
        let started = ContinuousClock.now
        var sent = 0
        var lines: [String] = []
        var partial: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var isReading = false
        while lines.count < count && ContinuousClock.now - started < timeout {
            isReading = isReading || isTimeToRead() || ContinuousClock.now - started >= timeout / 2
            var events: Int16 = 0
            var hasProgressed = false
            if sent < requests.count {
                var written = 0
                let status = requests[sent...].withUnsafeBytes {
                    barkeep_tls_write(session, $0.baseAddress, $0.count, &written)
                }
                switch status {
                case .BARKEEP_TLS_OK:
                    sent += written
                    hasProgressed = true
                case .BARKEEP_TLS_WANT_WRITE: events |= Int16(POLLOUT)
                case .BARKEEP_TLS_WANT_READ: events |= Int16(POLLIN)
                case .BARKEEP_TLS_CLOSED, .BARKEEP_TLS_FAILED:
                    throw TestSupportError("TLS write failed: \(String(cString: barkeep_tls_error(session)))")
                }
            }
            if isReading {
                var received = 0
                let status = buffer.withUnsafeMutableBytes {
                    barkeep_tls_read(session, $0.baseAddress, $0.count, &received)
                }
                switch status {
                case .BARKEEP_TLS_OK:
                    partial += buffer[0..<received]
                    while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                        lines.append(String(decoding: partial[..<newline], as: UTF8.self))
                        partial.removeSubrange(...newline)
                    }
                    hasProgressed = true
                case .BARKEEP_TLS_WANT_READ: events |= Int16(POLLIN)
                case .BARKEEP_TLS_WANT_WRITE: events |= Int16(POLLOUT)
                case .BARKEEP_TLS_CLOSED: return lines
                case .BARKEEP_TLS_FAILED:
                    throw TestSupportError("TLS read failed: \(String(cString: barkeep_tls_error(session)))")
                }
            }
            if !hasProgressed { wait(for: events, milliseconds: 20) }
        }
        return lines
    }

    /// Sends all of `text`, reading nothing.
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            var written = 0
            let status = bytes.withUnsafeBytes { barkeep_tls_write(session, $0.baseAddress, $0.count, &written) }
            switch status {
            case .BARKEEP_TLS_OK: return
            case .BARKEEP_TLS_WANT_WRITE where ContinuousClock.now < deadline: wait(for: Int16(POLLOUT))
            default: throw TestSupportError("TLS write failed: \(String(cString: barkeep_tls_error(session)))")
            }
        }
    }

    /// Sends close_notify: the end of the client's requests (its replies can still be read).
    public func finishSending() throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            switch barkeep_tls_shutdown(session) {
            case .BARKEEP_TLS_OK: return
            case .BARKEEP_TLS_WANT_WRITE where ContinuousClock.now < deadline: wait(for: Int16(POLLOUT))
            case .BARKEEP_TLS_WANT_READ where ContinuousClock.now < deadline: wait(for: Int16(POLLIN))
            default: throw TestSupportError("close_notify failed: \(String(cString: barkeep_tls_error(session)))")
            }
        }
    }

    private func wait(for events: Int16, milliseconds: Int32 = 1000) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        _ = poll(&entry, 1, milliseconds)
    }
}
