import CBarkeepSystem

#if canImport(Glibc)
    import Glibc
#endif

/// TLS on the event loop: a connection accepted on a TCP listener of a server with a certificate gets a TLS
/// `Transport` and a machine that starts `handshaking` (with its deadline); the loop steps the handshake when the
/// machine asks and closes silently when it says so. Reading and writing then go through the transport like plain text.
extension EventLoop {
    /// The transport of a TCP connection just accepted from `peer`: TLS, with its handshake's deadline, when the
    /// server has a certificate, else plain text. Nil when a TLS session cannot start: the connection is closed.
    func tcpTransport(_ descriptor: Int32, peer: String) -> (Transport, ContinuousClock.Instant?)? {
        // A reply goes out as it is written: with Nagle's algorithm on, a small write after one not yet acknowledged
        // (a page of a streamed reply, pipelined replies flushed apart) waits for the client's delayed acknowledgement.
        _ = barkeep_set_no_delay(descriptor)
        guard let tlsContext else { return (.plain(descriptor), nil) }
        guard let tls = TLSSession(context: tlsContext, descriptor: descriptor) else {
            server.logger.warning("cannot start a TLS session", ["peer": peer])
            _ = Glibc.close(descriptor)
            return nil
        }
        return (.tls(tls), .now + (configuration.tls?.handshakeTimeout ?? .seconds(10)))
    }

    /// Runs the handshake as far as the socket allows and tells the machine how it went.
    func stepHandshake(_ connection: Connection) {
        let outcome = connection.transport.handshake()
        if case .done = outcome, case .tls(let session) = connection.transport {
            server.logger.debug(
                "TLS handshake done", ["peer": connection.session.peerName, "version": session.version])
        }
        connection.machine.handshakeStepped(outcome)
    }

    /// Closes a connection whose handshake did not complete, without a reply: a client speaking plain text to this
    /// port gets nothing back.
    func closeSilently(_ connection: Connection, _ reason: TLSHandshake.SilentClose) {
        logSilentClose(reason, peer: connection.session.peerName, descriptor: connection.descriptor)
        close(connection)
    }

    /// Logs why a handshake ended without completing, and drops what a failed one left unread.
    func logSilentClose(_ reason: TLSHandshake.SilentClose, peer: String, descriptor: Int32) {
        switch reason {
        case .peerLeft:
            server.logger.debug("TLS client left during the handshake", ["peer": peer])
        case .failed(let reason):
            // OpenSSL's reason ("wrong version number" for plain text), never the bytes the client sent.
            server.logger.info("TLS handshake failed", ["peer": peer, "error": reason])
            discardInput(descriptor)
        case .timedOut:
            server.logger.info("TLS handshake timed out", ["peer": peer])
        }
    }

    /// Reads and drops what the client sent that OpenSSL left in the socket, so that closing ends the stream in
    /// order (FIN) rather than with a reset: a plain-text client reads the end of the stream, not an error.
    private func discardInput(_ descriptor: Int32) {
        for _ in 0..<4 {
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count <= 0 { return }
        }
    }
}
