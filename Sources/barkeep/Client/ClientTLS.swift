import BarkeepProtocol
import CBarkeepTLS

#if canImport(Glibc)
    import Glibc
#endif

/// The CLI's TLS session with barkeepd, over the client's blocking socket (whose timeouts bound every read and
/// write). The server's certificate chain is verified against the CAs of `--ca FILE`, or the system's, and the
/// certificate must name the host the CLI connected to (its IP addresses for an address, its DNS names for a
/// name). Confined to the thread of its `Client`.
final class ClientTLS {
    /// What the user asked for: `--tls`, `--ca FILE`.
    struct Options: Equatable {
        /// The CAs to trust (PEM); nil: the system's.
        var caFile: String?
    }

    /// What a read or a write did.
    enum Outcome: Equatable {
        /// This many bytes were read or written.
        case done(Int)
        /// The socket's timeout ran out.
        case timedOut
        /// The server closed the connection.
        case closed
        /// The session failed; the text says why.
        case failed(String)
    }

    /// How long the server has to complete the handshake: a server without TLS may wait for a line forever.
    static let handshakeTimeout = 10

    private let context: OpaquePointer
    private let session: OpaquePointer

    private init(context: OpaquePointer, session: OpaquePointer) {
        self.context = context
        self.session = session
    }

    deinit {
        barkeep_tls_free(session)
        barkeep_tls_context_free(context)
    }

    /// Runs the TLS handshake on the connected socket `descriptor` to `address` and verifies the server's
    /// certificate; the socket's receive timeout is `timeout` again afterwards.
    static func connect(
        descriptor: Int32,
        address: ServerAddress,
        options: Options,
        timeout: Duration
    ) throws(CLIError) -> ClientTLS {
        guard case .tcp(let host, _) = address else { throw .cannotConnect(address, "TLS is only for TCP") }
        var error = [CChar](repeating: 0, count: 512)
        guard let context = barkeep_tls_client_context_create(options.caFile, &error, error.count) else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .badInput(options.caFile == nil ? reason : "--ca: \(reason)")
        }
        guard let session = barkeep_tls_client_create(context, descriptor, host) else {
            barkeep_tls_context_free(context)
            throw .cannotConnect(address, "cannot start TLS for host '\(host)'")
        }
        let tls = ClientTLS(context: context, session: session)
        setReceiveTimeout(descriptor, seconds: min(handshakeTimeout, Int(timeout.components.seconds)))
        defer { setReceiveTimeout(descriptor, seconds: Int(timeout.components.seconds)) }
        switch barkeep_tls_handshake(session) {
        case .BARKEEP_TLS_OK:
            return tls
        case .BARKEEP_TLS_WANT_READ, .BARKEEP_TLS_WANT_WRITE:
            throw .tlsHandshake(address, "no handshake from the server in \(handshakeTimeout) s")
        case .BARKEEP_TLS_CLOSED:
            throw .tlsHandshake(address, "the server closed the connection during the handshake")
        case .BARKEEP_TLS_FAILED:
            let reason = String(cString: barkeep_tls_error(session))
            if barkeep_tls_is_untrusted(session) != 0 {
                let checked =
                    options.caFile.map { "checked against the CAs in \($0)" }
                    ?? "checked against the system's CAs; pass --ca FILE with the CA that signed it"
                throw .untrustedCertificate("\(reason) (\(checked))")
            }
            throw .tlsHandshake(address, reason)
        }
    }

    /// Reads decrypted bytes into `buffer`.
    func read(into buffer: inout [UInt8]) -> Outcome {
        var count = 0
        let status = buffer.withUnsafeMutableBytes { bytes in
            barkeep_tls_read(session, bytes.baseAddress, bytes.count, &count)
        }
        return outcome(status, count: count)
    }

    /// Writes all of `bytes`, or fails.
    func write(_ bytes: ArraySlice<UInt8>) -> Outcome {
        var written = 0
        let status = bytes.withUnsafeBytes { buffer in
            barkeep_tls_write(session, buffer.baseAddress, buffer.count, &written)
        }
        return outcome(status, count: written)
    }

    /// Whether bytes already taken from the socket wait inside OpenSSL: a read returns them without the socket
    /// becoming readable.
    var hasPending: Bool { barkeep_tls_pending(session) != 0 }

    /// Tells the server the CLI is done (close_notify), best effort.
    func shutdown() { _ = barkeep_tls_shutdown(session) }

    private func outcome(_ status: barkeep_tls_status, count: Int) -> Outcome {
        switch status {
        case .BARKEEP_TLS_OK: .done(count)
        case .BARKEEP_TLS_WANT_READ, .BARKEEP_TLS_WANT_WRITE: .timedOut
        case .BARKEEP_TLS_CLOSED: .closed
        case .BARKEEP_TLS_FAILED: .failed(String(cString: barkeep_tls_error(session)))
        }
    }

    private static func setReceiveTimeout(_ descriptor: Int32, seconds: Int) {
        var interval = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }
}
