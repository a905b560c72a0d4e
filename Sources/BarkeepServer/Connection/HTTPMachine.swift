/// One HTTP/1.1 connection as a value: a request head read and checked within the limits, its body read by
/// `Content-Length`, then run; keep-alive and pipelining in order; every refusal answered once and closed
/// (docs/design/web-dashboard.md, section 1). Bytes in, actions out, like `ConnectionMachine`.
///
/// No system calls and no clock: the caller passes the time in, runs what `execute` asks and reports the response
/// (`complete`), writes `withPendingOutput` and reports `written`, reads the socket while `wantsInput`, keeps a timer
/// for `nextDeadline` and calls `expire(now:)` when it fires, and closes once `isFinished`. One request runs at a
/// time: while it runs the socket is not read, so pipelined requests wait in the buffer, which never holds more than
/// a head's limit (or one body) plus what one read brought.
struct HTTPMachine {
    /// What the connection is doing.
    enum State: Equatable {
        /// Completing a TLS handshake: nothing is read as a request or written until it is done. Plain text starts
        /// `readingHead`.
        case handshaking(TLSHandshake)
        /// Reading a request head; `started` is when its first byte came (nil: idle, waiting for one).
        case readingHead(started: ContinuousClock.Instant?)
        /// Reading the body of a head that was accepted.
        case readingBody(HTTPRequestHead)
        /// Skipping the `remaining` bytes of a body refused `413` (at most twice the limit), to read the next head.
        case discardingBody(remaining: Int)
        /// A request runs; the next is read after `complete`.
        case running(HTTPRequestHead)
        /// Nothing more is read or run: pending output is written, then the connection closes.
        case closing
    }

    /// What the caller does next.
    enum Action: Equatable {
        /// Runs the request (its head and body) and reports its response with `complete`.
        case execute(HTTPRequestHead, body: [UInt8])
        /// Runs the transport's handshake as far as the socket allows, then reports it (`handshakeStepped`).
        case handshake
        /// The handshake completed: read the transport now (it may hold the client's first bytes already).
        case read
        /// Closes without a word: the handshake never completed (`SilentClose` says why).
        case closeSilently(TLSHandshake.SilentClose)
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

    /// Whether a request runs.
    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// Whether the TLS handshake is not complete.
    var isHandshaking: Bool {
        if case .handshaking = state { return true }
        return false
    }

    /// Whether the connection is ending: it reads and runs nothing more.
    var isClosing: Bool { state == .closing }

    /// Whether the socket should be read: not while a request runs (pipelined requests wait), nor once the buffer
    /// holds as much as the current head or body can take, nor once the connection is ending.
    var wantsInput: Bool {
        guard !isInputClosed else { return false }
        switch state {
        case .readingHead: return bufferedInputCount < limits.headBytes
        case .readingBody(let head): return bufferedInputCount < head.contentLength
        case .discardingBody: return true
        case .running, .closing, .handshaking: return false
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
    /// the idle connection's end. Nil while a request runs or the connection closes.
    var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .handshaking(let handshake): handshake.nextDeadline
        case .readingHead(let started?): started + limits.headTimeout
        case .readingHead(nil): lastActivity + limits.idleTimeout
        case .readingBody, .discardingBody: lastActivity + limits.bodyStallTimeout
        case .running, .closing: nil
        }
    }

    // MARK: - Input

    /// Bytes arrived at `now`.
    mutating func receive(_ bytes: ArraySlice<UInt8>, now: ContinuousClock.Instant) {
        guard !bytes.isEmpty, !isClosing, !isHandshaking else { return }
        input.append(contentsOf: bytes)
        lastActivity = now
        if case .readingHead(nil) = state { state = .readingHead(started: now) }
    }

    /// The peer's stream ended: what it sent whole is answered, then the connection closes.
    mutating func endInput() {
        isInputClosed = true
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
            case .running, .closing:
                return .wait
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
                    if let length = refusal.discardedBody, requestsAnswered + 1 < limits.requestsPerConnection {
                        // Answered at once, the connection kept: the body is skipped, then the next head is read.
                        requestsAnswered += 1
                        HTTPResponse.refusal(refusal.status, refusal.reason)
                            .encode(closesConnection: false, omitsBody: false, into: &output)
                        state = .discardingBody(remaining: length)
                    } else {
                        refuse(refusal.status, refusal.reason)
                    }
                case .success(let head):
                    if head.expectsContinue && head.contentLength > 0 && head.minorVersion == 1 {
                        // The head is accepted (its length within the limit): the client may send its body now.
                        output.append(contentsOf: Self.continueBytes)
                    }
                    state = .readingBody(head)
                }
            }
        }
    }

    /// The interim response that lets a client waiting on `Expect: 100-continue` send its body.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

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
                            try HTTPRequestHead.parse(
                                head, maximumFields: limits.headerFieldCount, maximumBody: limits.bodyBytes))
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
        let closes =
            closesConnection || !head.keepsAlive || requestsAnswered >= limits.requestsPerConnection
        response.encode(closesConnection: closes, omitsBody: head.method == "HEAD", into: &output)
        lastActivity = now
        if closes {
            closeInput()
        } else {
            state = .readingHead(started: bufferedInputCount > 0 ? now : nil)
        }
    }

    /// Acts on the deadline that passed by `now`, if one did: a head not complete in time or a body that stalled is
    /// answered `408` and closes; an idle connection closes without a word. Returns false when none is due (the
    /// timer fired early, as `nextDeadline` moved on).
    mutating func expire(now: ContinuousClock.Instant) -> Bool {
        if case .handshaking(var handshake) = state {
            guard handshake.expire(now: now) else { return false }
            state = .handshaking(handshake)
            return true
        }
        guard let deadline = nextDeadline, now >= deadline else { return false }
        switch state {
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
