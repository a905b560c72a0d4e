import CBarkeepTLS

/// One TCP connection's TLS session on its non-blocking socket. Confined to the event loop thread, like the
/// connection that holds it; freeing it leaves the socket open.
final class TLSSession {
    private let pointer: OpaquePointer
    /// The context the session was made from, kept alive for it.
    private let context: ServerTLSContext

    /// A server-side session on `descriptor`; nil when OpenSSL is out of memory.
    init?(context: ServerTLSContext, descriptor: Int32) {
        guard let pointer = barkeep_tls_server_create(context.pointer, descriptor) else { return nil }
        self.pointer = pointer
        self.context = context
    }

    deinit { barkeep_tls_free(pointer) }

    /// Runs the handshake as far as the socket allows: `.done(0)` when it completed.
    func handshake() -> TransportOutcome { outcome(barkeep_tls_handshake(pointer), count: 0) }

    /// Reads decrypted bytes into `buffer`.
    func read(into buffer: inout [UInt8]) -> TransportOutcome {
        var count = 0
        let status = buffer.withUnsafeMutableBytes { bytes in
            barkeep_tls_read(pointer, bytes.baseAddress, bytes.count, &count)
        }
        return outcome(status, count: count)
    }

    /// Writes up to `count` bytes from `bytes`; a retry after `wantWrite` must offer at least the same bytes (they
    /// may have moved).
    func write(_ bytes: UnsafeRawPointer?, count: Int) -> TransportOutcome {
        var written = 0
        return outcome(barkeep_tls_write(pointer, bytes, count, &written), count: written)
    }

    /// Whether OpenSSL holds bytes already taken from the socket, which a read returns though the socket will not
    /// signal them again.
    var hasPending: Bool { barkeep_tls_pending(pointer) != 0 }

    /// Sends close_notify if the socket takes it now; never waits.
    func shutdown() { _ = barkeep_tls_shutdown(pointer) }

    /// The negotiated protocol version, e.g. "TLSv1.3".
    var version: String { String(cString: barkeep_tls_version(pointer)) }

    private func outcome(_ status: barkeep_tls_status, count: Int) -> TransportOutcome {
        switch status {
        case .BARKEEP_TLS_OK: .done(count)
        case .BARKEEP_TLS_WANT_READ: .wantRead
        case .BARKEEP_TLS_WANT_WRITE: .wantWrite
        case .BARKEEP_TLS_CLOSED: .closed
        case .BARKEEP_TLS_FAILED: .failed(String(cString: barkeep_tls_error(pointer)))
        }
    }
}
