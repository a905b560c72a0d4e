/// The HTTP listener's default bounds (docs/design/web-dashboard.md, section 1): their one home. The server's
/// `HTTPLimits` starts from these; the docs and tests take them from here.
public enum HTTPLimit {
    /// The longest request line (method, target, version), in bytes, without its line end: longer is `414`.
    public static let requestLineBytes = 8 << 10
    /// The most bytes of header fields (the head after the request line, its blank line included): more is `431`.
    public static let headerSectionBytes = 32 << 10
    /// The most header fields in one request: more is `431`.
    public static let headerFieldCount = 100
    /// The largest request body (a JSON form or document): larger is `413`.
    public static let bodyBytes = 1 << 20
    /// Seconds from a request's first byte to the end of its head: past it, `408` (a slow sender).
    public static let headSeconds = 10
    /// Seconds a request body may send nothing: past it, `408`.
    public static let bodyStallSeconds = 60
    /// Seconds a kept-alive connection may wait for its next request: past it, it closes without a word.
    public static let idleSeconds = 30
    /// Requests one connection answers: the last is answered with `Connection: close`.
    public static let requestsPerConnection = 1000
    /// Records one JSON API answer may hold (a streamed reply, `FINDINGS`, gathered whole for its body): past it,
    /// `413 TOOLONG`, so memory stays bounded.
    public static let answerRecords = 100_000
    /// Rendered pages kept for reuse while their project's status is unchanged (the overview's `<main>`, which every
    /// open page refetches on an event): at 1,000 screens one is about 0.4 MB, so this bounds them near 13 MB.
    public static let renderedPagesKept = 32
    /// Seconds a request waits for another request's rendering of the same page before it renders for itself.
    public static let renderWaitSeconds = 5
    /// The smallest text answer sent gzip-compressed to a client that accepts it: below it, compressing saves less
    /// than it costs.
    public static let compressedFromBytes = 1024
    /// Seconds an event stream (Server-Sent Events) may send nothing before it sends a `: keep-alive` comment, so
    /// that proxies and load balancers do not close it as idle.
    public static let eventStreamKeepAliveSeconds = 15
    /// Milliseconds an event stream's client waits before reconnecting (its first line, `retry:`).
    public static let eventStreamRetryMilliseconds = 1000
}
