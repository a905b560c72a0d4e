import BarkeepStore
import CBarkeepSystem

#if canImport(Glibc)
    import Glibc
#endif

/// How a connection's bytes travel: straight through its socket, or through its TLS session on that socket.
///
/// One interface for both, so that reading, writing and closing have no TLS branches; an enum rather than a protocol
/// so that the plain-text path (PING is benchmarked) allocates nothing and makes no existential call. Confined to the
/// event loop thread, like the connection that holds it.
enum Transport {
    /// Plain text on the descriptor.
    case plain(Int32)
    /// TLS through the session (which wraps the same descriptor).
    case tls(TLSSession)

    /// Runs the handshake as far as the socket allows: `.done(0)` when it completed (at once for plain text).
    func handshake() -> TransportOutcome {
        switch self {
        case .plain: .done(0)
        case .tls(let session): session.handshake()
        }
    }

    /// Reads into `buffer`: `.done(n)` with n > 0, `.wantRead` when the socket holds nothing now (or a signal came),
    /// `.closed` at the end of the peer's stream.
    func read(into buffer: inout [UInt8]) -> TransportOutcome {
        switch self {
        case .plain(let descriptor): Self.read(descriptor, into: &buffer)
        case .tls(let session): session.read(into: &buffer)
        }
    }

    /// `read(into:)` of plain text on `descriptor`.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8]) -> TransportOutcome {
        let count = buffer.withUnsafeMutableBytes { bytes in
            barkeep_read(descriptor, bytes.baseAddress, bytes.count)
        }
        if count > 0 { return .done(count) }
        if count == 0 { return .closed }
        // The poller is level-triggered: a read cut short by a signal is signalled again.
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wantRead }
        return .failed(errorText())
    }

    /// Writes up to `count` bytes from `bytes`: `.done(n)`, or `.wantWrite` when the socket takes nothing now. A
    /// retry after `.wantWrite` must offer at least the same bytes (TLS: they may have moved).
    func write(_ bytes: UnsafeRawPointer?, count: Int) -> TransportOutcome {
        switch self {
        case .plain(let descriptor):
            while true {
                let written = barkeep_send(descriptor, bytes, count)
                if written >= 0 { return .done(written) }
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return .wantWrite }
                return .failed(errorText())
            }
        case .tls(let session):
            return session.write(bytes, count: count)
        }
    }

    /// Whether bytes already taken from the socket wait inside the transport (OpenSSL's buffers): a read returns
    /// them though the socket will not signal them again. Never for plain text.
    var hasPending: Bool {
        switch self {
        case .plain: false
        case .tls(let session): session.hasPending
        }
    }

    /// Ends the stream in order where the transport has a way to say so (TLS close_notify, if the socket takes it
    /// now); never waits, and leaves the descriptor open.
    func shutdown() {
        switch self {
        case .plain: break
        case .tls(let session): session.shutdown()
        }
    }
}
