import BarkeepCore
import CBarkeepTLS
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client that POSTs one webhook body and reads the answer's status line: blocking sockets whose
/// timeouts bound the connect, every send and every receive, TLS through CBarkeepTLS with the server's certificate
/// verified against the system's CAs and the URL's host, no redirects followed, one request per connection.
///
/// Why not URLSession: FoundationNetworking on Linux goes through libcurl, follows redirects unless a delegate
/// refuses them (a delegate class that Swift 6 strict concurrency makes awkward), and would be a second TLS stack
/// next to the OpenSSL one the daemon already verifies certificates with (docs/hooks.md).
///
/// Confined to one thread at a time (the delivery thread, or the pool thread of a HOOK TEST).
final class WebhookClient {
    /// What a POST came to.
    enum Outcome: Equatable, Sendable {
        /// The receiver answered with this status code.
        case status(Int)
        /// No answer: the text says why (refused, timed out, untrusted certificate…).
        case failed(String)

        /// Whether it counts as delivered: a 2xx status.
        var isDelivered: Bool {
            if case .status(let code) = self { return (200...299).contains(code) }
            return false
        }

        /// In words, for `hook list` and the log.
        var text: String {
            switch self {
            case .status(let code) where (300...399).contains(code): "HTTP \(code) (redirects are not followed)"
            case .status(let code): "HTTP \(code)"
            case .failed(let reason): reason
            }
        }
    }

    /// How long a delivery may take in all: connect, TLS handshake, sending, and the answer's status line.
    let timeout: Duration
    private var context: OpaquePointer?

    /// Creates a client; the TLS context (the system's CAs) is made at the first `https` URL.
    init(timeout: Duration) { self.timeout = timeout }

    deinit { if let context { barkeep_tls_context_free(context) } }

    /// POSTs `body` to `url` with `headers` (besides Host, Content-Length and Connection) and returns the status.
    func post(_ url: WebhookURL, body: [UInt8], headers: [(String, String)]) -> Outcome {
        let deadline = ContinuousClock.now + timeout
        let descriptor: Int32
        switch connect(url) {
        case .success(let connected): descriptor = connected
        case .failure(let failure): return .failed(failure.reason)
        }
        defer { close(descriptor) }
        var session: OpaquePointer?
        defer { if let session { barkeep_tls_free(session) } }
        if url.isTLS {
            switch startTLS(descriptor, host: url.host) {
            case .success(let started): session = started
            case .failure(let failure): return .failed(failure.reason)
            }
        }
        var head = "POST \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let request = Array(head.utf8) + body
        if let reason = send(request, descriptor: descriptor, session: session) { return .failed(reason) }
        return readStatus(descriptor: descriptor, session: session, deadline: deadline)
    }

    // MARK: - Connection

    /// Why a step failed, in words.
    private struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private func connect(_ url: WebhookURL) -> Result<Int32, Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(url.host, String(url.port), &hints, &results)
        guard status == 0 else {
            return .failure(Failure("cannot resolve \(url.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(results) }
        var reason = "no address for \(url.host)"
        var candidate = results
        while let info = candidate {
            candidate = info.pointee.ai_next
            let descriptor = socket(
                info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { continue }
            // Linux applies the send timeout to connect too.
            var interval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return .success(descriptor)
            }
            let error = errno
            reason =
                error == EINPROGRESS || error == EAGAIN
                ? "connecting to \(url.hostHeader) timed out"
                : "cannot connect to \(url.hostHeader): \(String(cString: strerror(error)))"
            close(descriptor)
        }
        return .failure(Failure(reason))
    }

    private func startTLS(_ descriptor: Int32, host: String) -> Result<OpaquePointer, Failure> {
        if context == nil {
            var error = [CChar](repeating: 0, count: 512)
            guard let made = barkeep_tls_client_context_create(nil, &error, error.count) else {
                return .failure(
                    Failure(
                        "cannot load the system's CAs: "
                            + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            }
            context = made
        }
        guard let context, let session = barkeep_tls_client_create(context, descriptor, host) else {
            return .failure(Failure("cannot start TLS for host '\(host)'"))
        }
        switch barkeep_tls_handshake(session) {
        case .BARKEEP_TLS_OK:
            return .success(session)
        case .BARKEEP_TLS_WANT_READ, .BARKEEP_TLS_WANT_WRITE:
            barkeep_tls_free(session)
            return .failure(Failure("the TLS handshake with \(host) timed out"))
        case .BARKEEP_TLS_CLOSED, .BARKEEP_TLS_FAILED:
            let reason = String(cString: barkeep_tls_error(session))
            let isUntrusted = barkeep_tls_is_untrusted(session) != 0
            barkeep_tls_free(session)
            return .failure(
                Failure(
                    isUntrusted
                        ? "untrusted certificate (checked against the system's CAs): \(reason)" : "TLS: \(reason)"))
        }
    }

    // MARK: - Bytes

    /// Sends every byte; returns why it could not, or nil.
    private func send(_ bytes: [UInt8], descriptor: Int32, session: OpaquePointer?) -> String? {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { buffer -> Int in
                if let session {
                    var written = 0
                    let status = barkeep_tls_write(session, buffer.baseAddress, buffer.count, &written)
                    return status == .BARKEEP_TLS_OK ? written : -1
                }
                return Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return "the receiver did not take the request (closed or timed out)" }
            sent += count
        }
        return nil
    }

    /// Reads up to the end of the status line (at most 8 KiB) and parses `HTTP/1.x NNN`.
    private func readStatus(descriptor: Int32, session: OpaquePointer?, deadline: ContinuousClock.Instant) -> Outcome {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(0x0A) {
            guard received.count < 8192, ContinuousClock.now < deadline else {
                return .failed(
                    received.count < 8192 ? "no answer in \(timeout)" : "the answer's status line is too long")
            }
            let count = buffer.withUnsafeMutableBytes { bytes -> Int in
                if let session {
                    var read = 0
                    let status = barkeep_tls_read(session, bytes.baseAddress, bytes.count, &read)
                    return status == .BARKEEP_TLS_OK ? read : status == .BARKEEP_TLS_CLOSED ? 0 : -1
                }
                return recv(descriptor, bytes.baseAddress, bytes.count, 0)
            }
            if count == 0 { return .failed("the receiver closed the connection without an answer") }
            if count < 0 { return .failed("no answer in \(timeout)") }
            received += buffer[..<count]
        }
        let line = String(decoding: received.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]),
            (100...599).contains(code)
        else { return .failed("not an HTTP answer") }
        return .status(code)
    }
}
