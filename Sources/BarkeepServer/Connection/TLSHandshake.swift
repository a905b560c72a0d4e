/// A TLS handshake in progress, as a value: both connection machines (`ConnectionMachine` for the line protocol,
/// `HTTPMachine` for HTTP) start in it on a TLS transport and read or write nothing else until it completes. The
/// caller steps the transport's handshake when the socket is ready and reports each outcome; a failure, the peer
/// leaving or the deadline passing ends it silently (nothing can be said before TLS is up).
struct TLSHandshake: Equatable {
    /// Why a connection closes without a reply (its handshake never completed, so nothing can be said).
    enum SilentClose: Equatable {
        /// The handshake failed (OpenSSL's reason: "wrong version number" for plain text). What the client sent is
        /// read and dropped first, so that the close ends its stream in order rather than with a reset.
        case failed(String)
        /// The client left during the handshake.
        case peerLeft
        /// The handshake did not complete within its deadline.
        case timedOut
    }

    /// What the machine holding it asks for next.
    enum Step: Equatable {
        /// Run the transport's handshake as far as the socket allows, then report it (`stepped`).
        case handshake
        /// Wait for the socket.
        case wait
        /// Close without a word.
        case closeSilently(SilentClose)
    }

    /// When it is given up (kept in a fixed layout: `StoredInstant`).
    private let storedDeadline: StoredInstant
    /// The transport waits for the socket to become writable (otherwise readable).
    var wantsWrite = false
    /// The last step stopped for the socket: the next waits until it is ready (`transportReady`).
    var isBlocked = true
    /// Why it ended without completing, once it did: the connection closes without a word.
    var failure: SilentClose?

    /// A handshake to complete by `deadline`.
    init(deadline: ContinuousClock.Instant) {
        storedDeadline = StoredInstant(deadline)
    }

    /// What to do next.
    var step: Step {
        if let failure { return .closeSilently(failure) }
        return isBlocked ? .wait : .handshake
    }

    /// When `expire(now:)` acts: the deadline while the handshake can still complete.
    var nextDeadline: ContinuousClock.Instant? { failure == nil ? storedDeadline.instant : nil }

    /// The socket became ready while the handshake waited for it: the next step runs.
    mutating func transportReady() {
        guard failure == nil else { return }
        isBlocked = false
    }

    /// A step ended with `outcome`. Returns true when the handshake completed: the connection takes requests.
    mutating func stepped(_ outcome: TransportOutcome) -> Bool {
        guard failure == nil else { return false }
        switch outcome {
        case .done:
            return true
        case .wantRead, .wantWrite:
            isBlocked = true
            wantsWrite = outcome == .wantWrite
        case .closed:
            failure = .peerLeft
        case .failed(let reason):
            failure = .failed(reason)
        }
        return false
    }

    /// The deadline passed by `now`, if it did: the handshake fails. Returns false when it is not due yet.
    mutating func expire(now: ContinuousClock.Instant) -> Bool {
        guard failure == nil, StoredInstant(now) >= storedDeadline else { return false }
        failure = .timedOut
        return true
    }
}
