import CBarkeepSystem

#if canImport(Glibc)
    import Glibc
#endif

/// TLS on the event loop: a connection accepted on a TCP listener of a server with a certificate first completes
/// its handshake (within the configured timeout), then reads and writes through its session. The rest of the loop
/// (framing, commands, output bounds, watching) is the same as for plain text.
extension EventLoop {
    // MARK: Handshake

    /// Gives a connection accepted on a TCP listener its TLS session and its handshake deadline; false when
    /// OpenSSL cannot make a session (out of memory), and the connection should be dropped.
    func startHandshake(_ connection: Connection, context: ServerTLSContext) -> Bool {
        guard let session = TLSSession(context: context, descriptor: connection.descriptor) else {
            server.logger.warning("cannot start a TLS session", ["peer": connection.session.peerName])
            return false
        }
        connection.transport = .tls(session)
        connection.isHandshaking = true
        let timeout = configuration.tls?.handshakeTimeout ?? .seconds(10)
        handshakeDeadlines.append((connection.id, .now + timeout))
        return true
    }

    /// Runs the handshake as far as the socket allows; true once it is complete. A failure closes the connection
    /// without a reply: a client speaking plain text to this port gets nothing back.
    func continueHandshake(_ connection: Connection) -> Bool {
        switch connection.transport.handshake() {
        case .done:
            connection.isHandshaking = false
            if case .tls(let session) = connection.transport {
                server.logger.debug(
                    "TLS handshake done", ["peer": connection.session.peerName, "version": session.version])
            }
            setInterest(connection, BARKEEP_EVENT_READ)
            return true
        case .wantRead:
            setInterest(connection, BARKEEP_EVENT_READ)
        case .wantWrite:
            setInterest(connection, BARKEEP_EVENT_WRITE)
        case .closed:
            server.logger.debug("TLS client left during the handshake", ["peer": connection.session.peerName])
            close(connection)
        case .failed(let reason):
            // OpenSSL's reason ("wrong version number" for plain text), never the bytes the client sent.
            server.logger.info("TLS handshake failed", ["peer": connection.session.peerName, "error": reason])
            discardInput(connection)
            close(connection)
        }
        return false
    }

    /// Reads and drops what the client sent that OpenSSL left in the socket, so that closing ends the stream in
    /// order (FIN) rather than with a reset: a plain-text client reads the end of the stream, not an error.
    private func discardInput(_ connection: Connection) {
        for _ in 0..<4 {
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                Glibc.read(connection.descriptor, buffer.baseAddress, buffer.count)
            }
            if count <= 0 { return }
        }
    }

    /// Milliseconds until the oldest handshake in progress runs out of time; nil when none is in progress.
    func millisecondsToNextHandshakeDeadline() -> Int32? {
        // Nothing to do on the plain-text hot path.
        guard !handshakeDeadlines.isEmpty else { return nil }
        dropFinishedHandshakes()
        guard handshakeHead < handshakeDeadlines.count else { return nil }
        let left = handshakeDeadlines[handshakeHead].deadline - .now
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(min(milliseconds, Int64(Int32.max)))
    }

    /// Closes the connections whose handshake is past its deadline.
    func expireHandshakes() {
        let now = ContinuousClock.now
        while handshakeHead < handshakeDeadlines.count, handshakeDeadlines[handshakeHead].deadline <= now {
            let id = handshakeDeadlines[handshakeHead].connection
            handshakeHead += 1
            guard let connection = connections[id], connection.isHandshaking else { continue }
            server.logger.info("TLS handshake timed out", ["peer": connection.session.peerName])
            close(connection)
        }
        dropFinishedHandshakes()
    }

    /// Skips the entries whose handshake completed or whose connection closed, and keeps the queue's storage
    /// bounded by the handshakes in progress.
    private func dropFinishedHandshakes() {
        while handshakeHead < handshakeDeadlines.count,
            connections[handshakeDeadlines[handshakeHead].connection]?.isHandshaking != true
        {
            handshakeHead += 1
        }
        if handshakeHead == handshakeDeadlines.count {
            handshakeDeadlines.removeAll(keepingCapacity: handshakeDeadlines.capacity <= 4096)
            handshakeHead = 0
        } else if handshakeHead >= 1024 && handshakeHead * 2 >= handshakeDeadlines.count {
            handshakeDeadlines.removeFirst(handshakeHead)
            handshakeHead = 0
        }
    }

    /// Sets the readiness events a handshaking connection waits for (it has no output, so `updateInterest`, which
    /// decides from the output, does not apply yet).
    private func setInterest(_ connection: Connection, _ interest: UInt32) {
        guard interest != connection.interest else { return }
        connection.interest = interest
        _ = barkeep_poller_modify(server.poller, connection.descriptor, interest, connection.id.rawValue)
    }
}
