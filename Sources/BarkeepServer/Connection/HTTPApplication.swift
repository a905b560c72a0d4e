import BarkeepStore

/// What answers HTTP requests: the event loop reads and checks each request (`HTTPMachine`), then calls `respond` on a
/// database pool thread — never on the loop thread — as it runs a line command's database work, and writes what it
/// returns. The loop adds `Content-Length`, `Connection` and the security fields (`HTTPResponse.securityFields`).
///
/// An implementation authenticates every request itself, in the same job (a revoked token fails its very next
/// request), and is `Sendable`: one instance serves every pool thread at once.
protocol HTTPApplication: Sendable {
    /// Judges the head of a request that has a body, before a byte of the body is read (docs/design/web-dashboard.md,
    /// section 1): refused when it is not authenticated (or has no route), else the route's body limit and the answer
    /// to a body over it. Runs on a pool thread with `database`, as `respond` does; `respond` still authenticates
    /// the request itself when it runs.
    func admit(_ head: HTTPRequestHead, context: HTTPRequestContext, database: PostgresConnection) throws
        -> HTTPAdmission

    /// The response to the request `head` with `body` (empty without one), from the peer `context` describes, with
    /// `database` (one of the pool's connections, held for the call). A thrown error becomes a JSON error response
    /// (`HTTPResponse.failure`): busy or unavailable `503`, anything else `500`, with no detail.
    func respond(
        to head: HTTPRequestHead, body: [UInt8], context: HTTPRequestContext, database: PostgresConnection
    ) throws -> HTTPResponse
}

/// Who sent an HTTP request, as the application sees it.
struct HTTPRequestContext: Sendable {
    /// The peer's address, for the log.
    var peerName: String
    /// Whether the connection is TLS (cookies are then `Secure`).
    var isTLS: Bool
}
