/// What one step of a connection's transport did: a handshake step, a read or a write.
///
/// Pure (no imports): the connection machine takes a handshake's outcome, and the framer fuzz target compiles the
/// machine alone (scripts/fuzz.sh).
enum TransportOutcome: Equatable {
    /// This many bytes were read or written (a handshake step: it completed).
    case done(Int)
    /// Nothing until the socket is readable.
    case wantRead
    /// Nothing until the socket is writable.
    case wantWrite
    /// The peer closed the connection.
    case closed
    /// The transport failed (a protocol or socket error); it can only be dropped.
    case failed(String)
}
