// Core's event filter, when compiled in the package; the fuzz target `http` (scripts/fuzz.sh) compiles this file with
// it in one module, where there is no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// One HTTP/1.1 connection as a value: a request head read and checked within the limits, its body read by
/// `Content-Length`, then run; keep-alive and pipelining in order; every refusal answered once and closed
/// (docs/design/web-dashboard.md, section 1). Bytes in, actions out, like `ConnectionMachine`.
///
/// No system calls and no clock: the caller passes the time in, runs what `execute` asks and reports the response
/// (`complete`), writes `withPendingOutput` and reports `written`, reads the socket while `wantsInput`, keeps a timer
/// for `nextDeadline` and calls `expire(now:)` when it fires, and closes once `isFinished`. One request runs at a
/// time: while it runs the socket is not read, so pipelined requests wait in the buffer, which never holds more than
/// a head's limit (or one body) plus what one read brought.
///
/// A response that starts an event stream (`HTTPResponse.eventStream`) turns the connection into one
/// (`State.eventStream`, docs/design/web-dashboard.md, section 6): its `WatchMachine` replays the event log page by
/// page (`requestEvents`, `receivePage`), then takes live events (`receiveLive`), each written as a Server-Sent Event;
/// a comment keeps a quiet stream alive, and the stream ends only by closing (`abandon` when the client falls
/// behind, `endStream` for a revoked token or a drain). Generic over the events it carries, so that the fuzz target
/// brings its own.
struct HTTPMachine<Event: WatchEvent> where Event.Filter == EventFilter {
    /// What the connection is doing.
    enum State {
        /// Completing a TLS handshake: nothing is read as a request or written until it is done. Plain text starts
        /// `readingHead`.
        case handshaking(TLSHandshake)
        /// Reading a request head; `started` is when its first byte came (nil: idle, waiting for one).
        case readingHead(started: ContinuousClock.Instant?)
        /// The head of a request with a body is complete: the application judges it (`authorize`, then `admit`)
        /// before a byte of its body is read.
        case authorizing(HTTPRequestHead)
        /// Reading the body of a head that was admitted.
        case readingBody(HTTPRequestHead)
        /// Skipping the `remaining` bytes of a body refused unread (at most twice `limits.bodyBytes`), to read the next
        /// head.
        case discardingBody(remaining: Int)
        /// A request runs; the next is read after `complete`.
        case running(HTTPRequestHead)
        /// Sending Server-Sent Events: nothing more is read as a request; the stream ends by closing. `quietSince`:
        /// when the stream last sent something (a keep-alive comment is due `eventStreamKeepAlive` after it).
        indirect case eventStream(WatchMachine<Event>, quietSince: ContinuousClock.Instant)
        /// Nothing more is read or run: pending output is written, then the connection closes.
        case closing
    }

    /// What the caller does next.
    enum Action: Equatable {
        /// Judges the head of a request with a body — authenticated, and its route's body limit — before the body is
        /// read, and reports the judgement with `admit`.
        case authorize(HTTPRequestHead)
        /// Runs the request (its head and body) and reports its response with `complete`.
        case execute(HTTPRequestHead, body: [UInt8])
        /// Runs the transport's handshake as far as the socket allows, then reports it (`handshakeStepped`).
        case handshake
        /// The handshake completed: read the transport now (it may hold the client's first bytes already).
        case read
        /// Closes without a word: the handshake never completed (`SilentClose` says why).
        case closeSilently(TLSHandshake.SilentClose)
        /// The event stream's replay has room for its next page of stored events after `after` (`receivePage`).
        case requestEvents(projectID: Int64, after: Int64)
        /// The event stream fell behind its backlog: what the socket takes now is written, then the connection
        /// closes (the client resumes with `Last-Event-ID`).
        case abandon
        /// Nothing to do until bytes arrive, a request completes, output drains or a deadline passes.
        case wait
    }

    /// The bounds the connection works within.
    let limits: HTTPLimits
    /// What the connection is doing.
    private(set) var state: State = .readingHead(started: nil)
    /// Request bytes not consumed yet, from `inputStart`.
    private var input: [UInt8] = []
    private var inputStart = 0
    /// Where the search for the head's end resumes (an offset from `inputStart`), and the request line's end.
    private var scanned = 0
    private var lineEnd: Int?
    /// Encoded responses, written up to `outputStart`.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// When the connection last received bytes, or last became idle.
    private(set) var lastActivity: ContinuousClock.Instant
    /// The peer sent everything it will: what it sent is answered, then the connection closes.
    private(set) var isInputClosed = false
    /// Requests answered so far.
    private(set) var requestsAnswered = 0
    /// The handshake just completed: the transport is read once before the machine waits.
    private var readsTransport = false
    /// The event stream the connection became, kept once it ends (the loop unregisters it by its project).
    private(set) var startedStream: HTTPEventStream?
    /// When the event stream closes because its session expires (`HTTPEventStream.lifetime`); nil: never.
    private var streamEnd: ContinuousClock.Instant?
    /// Events were queued to the event stream since the machine last judged its backlog.
    private var hasNewEvents = false

    /// A connection that has sent nothing yet, at `now`; `handshakeDeadline`: it first completes a TLS handshake by
    /// then (nil: plain text).
    init(
        limits: HTTPLimits = HTTPLimits(), now: ContinuousClock.Instant,
        handshakeDeadline: ContinuousClock.Instant? = nil
    ) {
        self.limits = limits
        lastActivity = now
        if let handshakeDeadline { state = .handshaking(TLSHandshake(deadline: handshakeDeadline)) }
    }

    // MARK: - Observing

    /// Request bytes held, not consumed yet.
    var bufferedInputCount: Int { input.count - inputStart }

    /// Response bytes not written yet.
    var pendingOutputCount: Int { output.count - outputStart }

    /// Whether a request runs, or its head is being authorized: the caller has work out for it.
    var isRunning: Bool {
        switch state {
        case .running, .authorizing: true
        default: false
        }
    }

    /// Whether the TLS handshake is not complete.
    var isHandshaking: Bool {
        if case .handshaking = state { return true }
        return false
    }

    /// Whether the connection is ending: it reads and runs nothing more.
    var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }

    /// The event stream's progress, while the connection is one.
    var eventStream: WatchMachine<Event>? {
        if case .eventStream(let watch, _) = state { return watch }
        return nil
    }

    /// Whether the connection is an event stream.
    var isStreaming: Bool { eventStream != nil }

    /// Whether the socket should be read: not while a request runs (pipelined requests wait), nor once the buffer
    /// holds as much as the current head or body can take, nor once the connection is ending.
    var wantsInput: Bool {
        guard !isInputClosed else { return false }
        switch state {
        case .readingHead: return bufferedInputCount < limits.headBytes
        case .readingBody(let head): return bufferedInputCount < head.contentLength
        // An event stream reads only to learn that its client left: what it sends is dropped.
        case .discardingBody, .eventStream: return true
        case .authorizing, .running, .closing, .handshaking: return false
        }
    }

    /// Whether the socket's readability matters: the handshake waits for it, or requests are read.
    var wantsReadable: Bool {
        if case .handshaking(let handshake) = state { return !handshake.wantsWrite }
        return wantsInput
    }

    /// Whether the socket's writability matters: the handshake waits for it, or responses are pending.
    var wantsWritable: Bool {
        if case .handshaking(let handshake) = state { return handshake.wantsWrite }
        return pendingOutputCount > 0
    }

    /// Whether everything is said: the caller closes the connection.
    var isFinished: Bool { isClosing && pendingOutputCount == 0 }

    /// The earliest moment `expire(now:)` acts: the head's deadline once its first byte came, the body's stall, or
    /// the idle connection's end, or an event stream's keep-alive or its session's end. Nil while a request runs or
    /// the connection closes.
    var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .handshaking(let handshake): handshake.nextDeadline
        case .readingHead(let started?): started + limits.headTimeout
        case .readingHead(nil): lastActivity + limits.idleTimeout
        case .readingBody, .discardingBody: lastActivity + limits.bodyStallTimeout
        case .eventStream(_, let quietSince):
            streamEnd.map { min($0, quietSince + limits.eventStreamKeepAlive) }
                ?? quietSince + limits.eventStreamKeepAlive
        case .authorizing, .running, .closing: nil
        }
    }

    // MARK: - Input

    /// Bytes arrived at `now`.
    mutating func receive(_ bytes: ArraySlice<UInt8>, now: ContinuousClock.Instant) {
        guard !bytes.isEmpty, !isClosing, !isHandshaking, !isStreaming else { return }
        input.append(contentsOf: bytes)
        lastActivity = now
        if case .readingHead(nil) = state { state = .readingHead(started: now) }
    }

    /// The peer's stream ended: what it sent whole is answered, then the connection closes.
    mutating func endInput() {
        isInputClosed = true
        // An event stream's client left: nobody reads what it would send.
        if isStreaming { closeInput() }
    }

    /// The next thing to do. Call again after every action but `wait`.
    mutating func nextAction(now: ContinuousClock.Instant) -> Action {
        if readsTransport {
            readsTransport = false
            return .read
        }
        while true {
            switch state {
            case .handshaking(let handshake):
                switch handshake.step {
                case .handshake: return .handshake
                case .wait: return .wait
                case .closeSilently(let reason): return .closeSilently(reason)
                }
            case .authorizing, .running, .closing:
                return .wait
            case .eventStream(var watch, let quietSince):
                if hasNewEvents {
                    // The backlog is judged once the events that arrived together are queued.
                    hasNewEvents = false
                    if pendingOutputCount > limits.maximumStreamBacklog {
                        closeInput()
                        return .abandon
                    }
                }
                guard
                    let after = watch.requestPage(
                        pendingOutput: pendingOutputCount, lowWater: limits.maximumStreamBacklog / 4)
                else { return .wait }
                state = .eventStream(watch, quietSince: quietSince)
                return .requestEvents(projectID: watch.projectID, after: after)
            case .discardingBody(let remaining):
                let count = min(remaining, bufferedInputCount)
                consume(count)
                guard count == remaining else {
                    state = isInputClosed ? .closing : .discardingBody(remaining: remaining - count)
                    return .wait
                }
                state = .readingHead(started: bufferedInputCount > 0 ? now : nil)
                lastActivity = now
            case .readingBody(let head):
                guard bufferedInputCount >= head.contentLength else {
                    if isInputClosed { state = .closing }
                    return .wait
                }
                let body = Array(input[inputStart..<(inputStart + head.contentLength)])
                consume(head.contentLength)
                state = .running(head)
                return .execute(head, body: body)
            case .readingHead:
                guard pendingOutputCount < limits.maximumPendingOutput else { return .wait }
                switch takeHead() {
                case nil:
                    if isInputClosed { state = .closing }
                    return .wait
                case .failure(let refusal):
                    refuse(refusal.status, refusal.reason)
                case .success(let head) where head.contentLength > 0:
                    // Nothing of the body is read, and no `100 Continue` sent, until the application admits it.
                    state = .authorizing(head)
                    return .authorize(head)
                case .success(let head):
                    state = .readingBody(head)
                }
            }
        }
    }

    /// The interim response that lets a client waiting on `Expect: 100-continue` send its body.
    static var continueBytes: [UInt8] { Array("HTTP/1.1 100 Continue\r\n\r\n".utf8) }

    /// Finds, checks and consumes the next head: nil while it is incomplete and within the limits.
    private mutating func takeHead() -> Result<HTTPRequestHead, HTTPRequestHead.Refusal>? {
        let start = inputStart
        if lineEnd == nil {
            let window = min(input.count, start + limits.requestLineBytes + 2)
            guard let found = input[(start + scanned)..<window].firstIndex(of: 0x0A) else {
                scanned = window - start
                guard window - start >= limits.requestLineBytes + 2 else { return nil }
                return .failure(.init(status: 414, reason: "the request line is over \(limits.requestLineBytes) bytes"))
            }
            let length = found - start - (found > start && input[found - 1] == 0x0D ? 1 : 0)
            guard length <= limits.requestLineBytes else {
                return .failure(.init(status: 414, reason: "the request line is over \(limits.requestLineBytes) bytes"))
            }
            lineEnd = found
            scanned = found + 1 - start
        }
        guard let lineEnd else { return nil }
        // The head ends at an LF that ends an empty line (LF LF, or LF CR LF); the field section is what follows the
        // request line up to and including it.
        let window = min(input.count, lineEnd + 1 + limits.headerSectionBytes)
        var index = start + scanned
        while index < window {
            if input[index] == 0x0A {
                let previous = input[index - 1]
                if previous == 0x0A || (previous == 0x0D && index - 2 >= lineEnd && input[index - 2] == 0x0A) {
                    let headEnd = index + 1
                    let lineBreak = previous == 0x0A ? 1 : 2
                    let head = input[start..<(headEnd - lineBreak)]
                    consume(headEnd - start)
                    do throws(HTTPRequestHead.Refusal) {
                        return .success(
                            // A body's length is judged by its route's limit (`admit`), not here.
                            try HTTPRequestHead.parse(head, maximumFields: limits.headerFieldCount, maximumBody: .max))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            index += 1
        }
        scanned = window - start
        guard window - (lineEnd + 1) >= limits.headerSectionBytes else { return nil }
        return .failure(.init(status: 431, reason: "the header fields are over \(limits.headerSectionBytes) bytes"))
    }

    /// Drops `count` request bytes from the buffer's front, and the head search state with them.
    private mutating func consume(_ count: Int) {
        inputStart += count
        scanned = 0
        lineEnd = nil
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 1 << 16)
            inputStart = 0
        } else if inputStart >= 1 << 16 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// The application judged the head that is `authorizing` (`Action.authorize`), at `now`: an admitted body within
    /// its route's limit is read (after `100 Continue` when the client waits for it); a refusal, or a body over the
    /// limit, is answered without reading the body. The connection is kept only when the client sends its body
    /// anyway (no `Expect`), keeps the connection alive, and the body is small enough to skip (at most twice
    /// `limits.bodyBytes`); otherwise the answer closes it.
    mutating func admit(_ admission: HTTPAdmission, now: ContinuousClock.Instant) {
        guard case .authorizing(let head) = state else { return }
        lastActivity = now
        let refusal: HTTPResponse
        switch admission {
        case .body(let limit, _) where head.contentLength <= limit:
            if head.expectsContinue && head.minorVersion == 1 { output.append(contentsOf: Self.continueBytes) }
            state = .readingBody(head)
            return
        case .body(_, let tooLarge): refusal = tooLarge
        case .refused(let response): refusal = response
        }
        requestsAnswered += 1
        let skips =
            head.keepsAlive && !head.expectsContinue && head.contentLength <= 2 * limits.bodyBytes
            && requestsAnswered < limits.requestsPerConnection
        refusal.encode(closesConnection: !skips, omitsBody: head.method == "HEAD", into: &output)
        if skips {
            state = .discardingBody(remaining: head.contentLength)
        } else {
            closeInput()
        }
    }

    /// Answers `status` and closes: after a bad head the stream's framing is unknown, so nothing more is read.
    private mutating func refuse(_ status: Int, _ reason: String) {
        HTTPResponse.refusal(status, reason).encode(closesConnection: true, omitsBody: false, into: &output)
        closeInput()
    }

    private mutating func closeInput() {
        state = .closing
        input = []
        inputStart = 0
        scanned = 0
        lineEnd = nil
    }

    // MARK: - Events

    /// The socket became ready while the handshake waited for it: the next action steps it on.
    mutating func transportReady() {
        guard case .handshaking(var handshake) = state else { return }
        handshake.transportReady()
        state = .handshaking(handshake)
    }

    /// A handshake step ended with `outcome` at `now`: complete (requests are read from now, the idle timeout
    /// counting from it), waiting for the socket, or over without success (the connection closes silently).
    mutating func handshakeStepped(_ outcome: TransportOutcome, now: ContinuousClock.Instant) {
        guard case .handshaking(var handshake) = state else { return }
        if handshake.stepped(outcome) {
            state = .readingHead(started: nil)
            lastActivity = now
            readsTransport = true
            return
        }
        state = .handshaking(handshake)
    }

    /// The running request finished at `now`: its response goes out, then the next request is read (from what was
    /// pipelined), or the connection closes (`Connection: close`, HTTP/1.0, the last request it answers, or
    /// `closesConnection`).
    mutating func complete(_ response: HTTPResponse, now: ContinuousClock.Instant, closesConnection: Bool = false) {
        guard case .running(let head) = state else { return }
        requestsAnswered += 1
        if let stream = response.eventStream, head.method == "GET", !closesConnection {
            startStream(stream, response: response, now: now)
            return
        }
        // A stream not started (a HEAD, or the server drains) has no length to end it by: it closes.
        let closes =
            closesConnection || !head.keepsAlive || requestsAnswered >= limits.requestsPerConnection
            || response.eventStream != nil
        response.encode(closesConnection: closes, omitsBody: head.method == "HEAD", into: &output)
        lastActivity = now
        if closes {
            closeInput()
        } else {
            state = .readingHead(started: bufferedInputCount > 0 ? now : nil)
        }
    }

    /// Turns the connection into the event stream `stream`: the head of `response` (no length: it ends by closing),
    /// the reconnection delay, then the events as they come. Requests pipelined after it are dropped unread.
    private mutating func startStream(_ stream: HTTPEventStream, response: HTTPResponse, now: ContinuousClock.Instant) {
        response.encode(closesConnection: true, omitsBody: true, into: &output)
        output.append(contentsOf: retryBytes)
        closeInput()
        lastActivity = now
        startedStream = stream
        streamEnd = stream.lifetime.map { now + $0 }
        state = .eventStream(
            WatchMachine(
                projectID: stream.projectID, project: stream.project, since: stream.since, filter: stream.filter,
                isEventStream: true),
            quietSince: now)
    }

    /// An event stream's first line: how long its client waits before reconnecting.
    var retryBytes: [UInt8] { Array("retry: \(limits.eventStreamRetryMilliseconds)\n\n".utf8) }

    /// The comment that keeps a quiet event stream open through proxies that close idle connections.
    static var keepAliveBytes: [UInt8] { Array(": keep-alive\n\n".utf8) }

    /// A page of stored events for the event stream (`requestEvents`), in order, at `now`; `isComplete` when it
    /// reached the newest.
    mutating func receivePage(_ events: [Event], isComplete: Bool, now: ContinuousClock.Instant) {
        guard case .eventStream(var watch, var quietSince) = state else { return }
        let before = output.count
        watch.receivePage(events, isComplete: isComplete, into: &output)
        if output.count > before {
            quietSince = now
            hasNewEvents = true
        }
        state = .eventStream(watch, quietSince: quietSince)
    }

    /// A live event of the streamed project, at `now`: true when the stream took it (its replay caught up, and it is
    /// new).
    mutating func receiveLive(_ event: Event, now: ContinuousClock.Instant) -> Bool {
        guard case .eventStream(var watch, var quietSince) = state else { return false }
        let before = output.count
        let isTaken = watch.receiveLive(event, into: &output)
        if output.count > before {
            quietSince = now
            hasNewEvents = true
        }
        state = .eventStream(watch, quietSince: quietSince)
        return isTaken
    }

    /// Ends the event stream (its token was revoked, its project deleted, or the server drains): what is queued is
    /// written, then the connection closes.
    mutating func endStream() {
        guard isStreaming else { return }
        closeInput()
    }

    /// Acts on the deadline that passed by `now`, if one did: a head not complete in time or a body that stalled is
    /// answered `408` and closes; an idle connection closes without a word; a quiet event stream sends a keep-alive
    /// comment (unless output is still pending), and one whose session expired closes. Returns false when none is due (the
    /// timer fired early, as `nextDeadline` moved on).
    mutating func expire(now: ContinuousClock.Instant) -> Bool {
        if case .handshaking(var handshake) = state {
            guard handshake.expire(now: now) else { return false }
            state = .handshaking(handshake)
            return true
        }
        guard let deadline = nextDeadline, now >= deadline else { return false }
        switch state {
        case .eventStream where streamEnd.map { now >= $0 } == true:
            // The session that opened it expired: the page's reconnection is refused and it signs in again.
            closeInput()
        case .eventStream(let watch, _):
            // A client that has not read what is pending gains nothing from more: the backlog stays as it is.
            if pendingOutputCount == 0 { output.append(contentsOf: Self.keepAliveBytes) }
            state = .eventStream(watch, quietSince: now)
        case .readingHead(started: _?):
            refuse(408, "the request head took over \(limits.headTimeout.components.seconds) s")
        case .readingBody:
            refuse(408, "the body sent nothing for \(limits.bodyStallTimeout.components.seconds) s")
        case .discardingBody:
            // Its refusal is answered already: nothing more to say.
            closeInput()
        default:
            closeInput()
        }
        return true
    }

    // MARK: - Output

    /// Calls `body` with the bytes not written yet.
    func withPendingOutput<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try output.withUnsafeBytes { buffer in
            try body(UnsafeRawBufferPointer(rebasing: buffer[outputStart...]))
        }
    }

    /// `count` bytes of the pending output were written; those written are dropped once all are.
    mutating func written(_ count: Int) {
        outputStart += count
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
            outputStart = 0
        }
    }
}
