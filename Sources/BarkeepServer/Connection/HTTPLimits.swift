// Core's defaults, when compiled in the package; the fuzz target `http` (scripts/fuzz.sh) compiles this file with
// Core's HTTPLimit in one module, where there is no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// The bounds one HTTP connection works within (`HTTPMachine`).
struct HTTPLimits: Sendable {
    /// The longest request line, in bytes, without its line end: longer is refused `414`.
    var requestLineBytes = HTTPLimit.requestLineBytes
    /// The most bytes of header fields after the request line, the blank line included: more is refused `431`.
    var headerSectionBytes = HTTPLimit.headerSectionBytes
    /// The most header fields: more is refused `431`.
    var headerFieldCount = HTTPLimit.headerFieldCount
    /// The largest JSON or form body (each route states its own limit when its head is admitted, `HTTPAdmission`):
    /// a body refused unread is skipped, keeping the connection, only when it is at most twice this.
    var bodyBytes = HTTPLimit.bodyBytes
    /// From a request's first byte to the end of its head: past it, `408`.
    var headTimeout = Duration.seconds(HTTPLimit.headSeconds)
    /// How long a body may send nothing: past it, `408`.
    var bodyStallTimeout = Duration.seconds(HTTPLimit.bodyStallSeconds)
    /// How long a connection may wait for its next request: past it, it closes without a word.
    var idleTimeout = Duration.seconds(HTTPLimit.idleSeconds)
    /// Requests one connection answers; the last is answered with `Connection: close`.
    var requestsPerConnection = HTTPLimit.requestsPerConnection
    /// Unwritten response bytes at which no further request is run until the client reads.
    var maximumPendingOutput = 1 << 20
    /// How long an event stream may send nothing before it sends a `: keep-alive` comment.
    var eventStreamKeepAlive = Duration.seconds(HTTPLimit.eventStreamKeepAliveSeconds)
    /// How long an event stream's client waits before reconnecting, in milliseconds (its `retry:` line).
    var eventStreamRetryMilliseconds = HTTPLimit.eventStreamRetryMilliseconds
    /// Unwritten bytes past which an event stream whose client does not read is ended (it resumes with
    /// `Last-Event-ID`); its replay pages are asked for below a quarter of it.
    var maximumStreamBacklog = 4 << 20

    /// The most bytes a head can take before it is surely refused: the request line, its line end and the fields.
    var headBytes: Int { requestLineBytes + 2 + headerSectionBytes }
}
