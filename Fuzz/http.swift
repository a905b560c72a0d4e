// libFuzzer target `http`: the HTTP connection machine (`HTTPMachine`, `HTTPRequestHead`, `HTTPResponse`), which
// scripts/fuzz.sh compiles alone with Core's `HTTPLimit`.
//
// Input: byte 0 sets small limits (request line, header bytes and count, body), so that short inputs reach them; byte
// 1 seeds the sizes of the chunks the rest arrives in. The rest goes through the machine twice, once whole and once in
// chunks, each request completed at once: both must run the same requests and write the same bytes. Invariants: no
// crash; the buffer never holds more than a head's limit, or one body, plus one chunk; nothing runs while a request
// runs; every response is whole (a status line, a `Content-Length` that matches); a refused connection runs nothing
// more; a head with a body is judged (`authorize`) before a byte of the body is read, and a refused or oversized one
// never runs. Then the clock: every deadline the machine names fires once, when due and not before. The rest is also parsed
// as a head directly, which must not crash and whose accepted heads are within the limits. Last, TLS: handshake steps
// scripted by the bytes; nothing is taken, run or written before it completes, a failed one closes silently, and a
// completed one serves the stream as plain text does. Last, an event stream (`State.eventStream`): the bytes script
// replay pages, live events, clock steps, partial writes and ends; its output must be the stream's head, `retry:`,
// then whole frames (events with ids that only rise, keep-alive comments), it runs no request, holds no input, and
// its unwritten output stays within the backlog bound plus one batch.

/// An event of the fuzzed stream: its kind one of Core's, framed by the default `streamFrame`.
struct StreamFuzzEvent: WatchEvent {
    var seq: Int64
    var kind: EventKind

    func matches(_ filter: EventFilter) -> Bool {
        filter.matches(kind: kind.rawValue, screen: nil, screens: [], finding: nil)
    }

    var watchLine: String { "seq=\(seq) kind=\(kind.rawValue)" }
}

/// One machine driven as the event loop drives it, each request answered at once with its method and target.
struct HTTPDriver {
    var machine: HTTPMachine<StreamFuzzEvent>
    let now = ContinuousClock.now
    /// The requests run, and the bytes written, in order.
    var log: [String] = []
    var written: [UInt8] = []
    /// The head whose body was admitted, and its limit, until it runs.
    var admitted: (head: HTTPRequestHead, limit: Int)?

    init(limits: HTTPLimits) {
        machine = HTTPMachine<StreamFuzzEvent>(limits: limits, now: now)
    }

    /// Appends bytes as they arrive (when the machine reads), then performs every action they lead to. A head with a
    /// body is judged by its target's length: refused, admitted up to the JSON limit, or up to a larger route limit.
    mutating func receive(_ bytes: ArraySlice<UInt8>) {
        guard machine.wantsInput else { return }
        machine.receive(bytes, now: now)
        let limits = machine.limits
        let routeLimit = 2 * limits.bodyBytes + 1
        require(
            machine.bufferedInputCount <= max(limits.headBytes, routeLimit) + bytes.count,
            "\(machine.bufferedInputCount) bytes buffered after a read of \(bytes.count)")
        actions: while true {
            switch machine.nextAction(now: now) {
            case .authorize(let head):
                require(head.contentLength > 0 && admitted == nil, "a head judged twice, or one without a body")
                require(machine.isRunning && !machine.wantsInput, "a head is judged while the machine reads")
                let before = machine.pendingOutputCount
                switch head.target.utf8.count % 3 {
                case 0:
                    log.append("refused \(head.target)")
                    machine.admit(.refused(HTTPResponse(status: 401)), now: now)
                    require(machine.pendingOutputCount > before, "a refusal not answered")
                case let kind:
                    let limit = kind == 1 ? limits.bodyBytes : routeLimit
                    admitted = (head, limit)
                    machine.admit(.body(limit: limit, tooLarge: HTTPResponse(status: 413)), now: now)
                    if head.contentLength > limit { admitted = nil }
                }
            case .execute(let head, let body):
                require(machine.isRunning && !machine.wantsInput, "a request runs while the machine reads")
                require(body.count == head.contentLength, "a body of the wrong size")
                if !body.isEmpty {
                    require(admitted?.head == head && body.count <= admitted?.limit ?? 0, "a body read unadmitted")
                }
                admitted = nil
                require(machine.nextDeadline == nil, "a deadline while a request runs")
                log.append("\(head.method) \(head.target) \(body.count)")
                machine.complete(HTTPResponse(status: 200, body: body), now: now)
            default:
                break actions
            }
        }
        let count = machine.withPendingOutput { buffer in
            written.append(contentsOf: buffer)
            return buffer.count
        }
        machine.written(count)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 2 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let stream = Array(input[2...])
    let seed = Int(input[0])
    var limits = HTTPLimits()
    limits.requestLineBytes = 12 + seed % 32
    limits.headerSectionBytes = 8 + (seed / 4) % 64
    limits.headerFieldCount = 1 + seed % 5
    limits.bodyBytes = seed % 17
    limits.requestsPerConnection = 1 + seed % 7

    var whole = HTTPDriver(limits: limits)
    whole.receive(stream[...])
    var chunked = HTTPDriver(limits: limits)
    var offset = 0
    var chunkSeed = UInt32(input[1]) | 1
    while offset < stream.count && chunked.machine.wantsInput {
        chunkSeed = chunkSeed &* 1_103_515_245 &+ 12_345
        let count = 1 + Int(chunkSeed >> 16) % 64
        chunked.receive(stream[offset..<min(stream.count, offset + count)])
        offset += count
    }
    require(chunked.log == whole.log, "chunked ran \(chunked.log), whole \(whole.log)")
    require(chunked.written == whole.written, "chunked and whole input wrote different bytes")
    checkResponses(whole.written)

    // The clock: each deadline fires once, when due and not before.
    var timed = HTTPDriver(limits: limits)
    timed.receive(stream.prefix(Int(input[1]))[...])
    if let deadline = timed.machine.nextDeadline {
        require(!timed.machine.expire(now: deadline - .nanoseconds(1)), "a deadline fired early")
        require(timed.machine.expire(now: deadline), "a deadline did not fire when due")
        require(timed.machine.isClosing && timed.machine.nextDeadline == nil, "a deadline fired and left one")
        require(!timed.machine.expire(now: deadline + .seconds(3600)), "a deadline fired twice")
        let before = timed.log.count
        timed.receive(stream[...])
        require(timed.log.count == before, "a request ran after the connection expired")
    }

    // TLS: the handshake first, its steps scripted by the input's bytes. Nothing is read, run or written before it
    // completes; a handshake that fails, is left or times out closes without a word; one that completes reads the
    // transport once, then serves the stream as plain text does.
    let start = ContinuousClock.now
    var tls = HTTPMachine<StreamFuzzEvent>(limits: limits, now: start, handshakeDeadline: start + .seconds(10))
    var step = 0
    handshaking: while tls.isHandshaking {
        tls.receive(stream.prefix(8)[...], now: start)
        require(tls.bufferedInputCount == 0 && tls.pendingOutputCount == 0, "bytes taken during the handshake")
        tls.transportReady()
        switch tls.nextAction(now: start) {
        case .handshake:
            let byte = step < stream.count ? stream[step] : 0
            step += 1
            let outcomes: [TransportOutcome] = [.wantRead, .wantWrite, .done(0), .closed, .failed("x")]
            tls.handshakeStepped(step > 16 ? .done(0) : outcomes[Int(byte) % outcomes.count], now: start)
        case .closeSilently:
            require(tls.pendingOutputCount == 0, "a silent close with output")
            break handshaking
        default:
            require(false, "an action other than a handshake step during the handshake")
        }
    }
    if !tls.isHandshaking {
        require(tls.nextAction(now: start) == .read, "a completed handshake did not read the transport")
        var served = HTTPDriver(limits: limits)
        served.machine = tls
        served.receive(stream[...])
        require(served.log == whole.log && served.written == whole.written, "TLS served the stream differently")
    }

    if let head = try? HTTPRequestHead.parse(stream[...], maximumFields: limits.headerFieldCount, maximumBody: 16) {
        require(head.fields.count <= limits.headerFieldCount && head.contentLength <= 16, "a head past its limits")
        require(head.target.hasPrefix("/") && HTTPRequestHead.methods.contains(head.method), "a bad head accepted")
    }
    fuzzEventStream(stream, seed: seed)
    return 0
}

/// Drives one event stream by the bytes: each byte's low 3 bits choose an action, the rest its argument.
func fuzzEventStream(_ script: [UInt8], seed: Int) {
    let start = ContinuousClock.now
    var limits = HTTPLimits()
    limits.maximumStreamBacklog = 64 + seed * 4
    var machine = HTTPMachine<StreamFuzzEvent>(limits: limits, now: start)
    let request = "GET /api/v1/projects/p/events/stream HTTP/1.1\r\nHost: x\r\n\r\n"
    machine.receive(Array(request.utf8)[...], now: start)
    guard case .execute = machine.nextAction(now: start) else {
        return require(false, "the stream request did not run")
    }
    let kinds = EventKind.allCases
    let filter = EventFilter(kinds: seed % 3 == 0 ? [kinds[seed % kinds.count]] : [])
    let since = Int64(seed % 5)
    machine.complete(
        .eventStream(HTTPEventStream(projectID: 1, project: "p", since: since, filter: filter, tokenName: "t")),
        now: start)
    require(machine.isStreaming, "the stream did not start")
    var now = start
    var next = since - 2
    var written: [UInt8] = []
    var pageOut = false
    var batch = 0
    for byte in script {
        batch = 0
        let argument = Int(byte >> 3)
        switch byte & 7 {
        case 0, 1:
            // A page, if one is out: events from around the cursor, complete or not.
            guard pageOut else { break }
            pageOut = false
            let events = (0..<(argument % 4)).map { offset in
                StreamFuzzEvent(seq: next + Int64(offset), kind: kinds[(argument + offset) % kinds.count])
            }
            next += Int64(argument % 4)
            batch = events.count * 64
            machine.receivePage(events, isComplete: byte & 1 == 1, now: now)
        case 2, 3:
            // Live events, some old.
            let count = 1 + argument % 3
            for offset in 0..<count {
                _ = machine.receiveLive(
                    StreamFuzzEvent(seq: next - 1 + Int64(offset), kind: kinds[argument % kinds.count]), now: now)
            }
            next += Int64(count)
            batch = count * 64
        case 4:
            now += .seconds(argument)
            if let deadline = machine.nextDeadline, now >= deadline {
                require(machine.expire(now: now), "a due deadline did not act")
            }
        case 5:
            // The client reads part of what is pending.
            let count = min(machine.pendingOutputCount, argument * 16)
            machine.withPendingOutput { written.append(contentsOf: $0.prefix(count)) }
            machine.written(count)
        case 6:
            machine.receive(Array(request.utf8)[...], now: now)
            require(machine.bufferedInputCount == 0, "an event stream kept input")
        default:
            if argument % 8 == 0 { machine.endStream() }
            if argument % 8 == 1 { machine.endInput() }
        }
        loop: while true {
            switch machine.nextAction(now: now) {
            case .requestEvents(let projectID, _):
                require(projectID == 1 && !pageOut, "a second page asked for, or another project's")
                pageOut = true
            case .abandon:
                require(machine.isClosing, "abandoned but not closing")
            case .wait:
                break loop
            default:
                require(false, "an event stream ran something")
            }
        }
        require(
            machine.pendingOutputCount <= limits.maximumStreamBacklog + batch + 512 || !machine.isStreaming,
            "an event stream past its backlog")
        if machine.isFinished { break }
    }
    machine.withPendingOutput { written.append(contentsOf: $0) }
    checkStream(written)
}

/// An event stream's output: its head (no length, `Connection: close`), `retry:`, then whole frames whose ids rise.
func checkStream(_ bytes: [UInt8]) {
    let separator = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
        return require(false, "a stream without its head")
    }
    let head = String(decoding: bytes[..<end], as: UTF8.self)
    require(head.hasPrefix("HTTP/1.1 200 OK") && !head.contains("Content-Length"), "a stream head with a length")
    require(head.contains("Content-Type: text/event-stream") && head.contains("Connection: close"), "a bad stream head")
    let body = String(decoding: bytes[(end + 4)...], as: UTF8.self)
    require(body.hasSuffix("\n\n") || body.isEmpty, "a stream that ends inside a frame")
    var lastID: Int64 = -1
    for (index, frame) in body.split(separator: "\n\n", omittingEmptySubsequences: false).dropLast().enumerated() {
        if index == 0 {
            require(frame == "retry: 1000", "the stream does not start with retry")
            continue
        }
        if frame == ": keep-alive" { continue }
        let lines = frame.split(separator: "\n")
        guard let first = lines.first, first.hasPrefix("id: "), let id = Int64(first.dropFirst(4)) else {
            return require(false, "a frame that is not an event: \(frame)")
        }
        require(id > lastID, "event ids that do not rise")
        require(lines.count == 2 && lines[1].hasPrefix("data: seq=\(id) "), "an event's data is not its own")
        lastID = id
    }
}

/// Every response written is whole: `HTTP/1.1 NNN`, fields, a blank line, then exactly `Content-Length` bytes (none
/// after a `Connection: close`); an interim `100 Continue` is a status line and a blank line.
func checkResponses(_ bytes: [UInt8]) {
    var rest = bytes[...]
    let separator = Array("\r\n\r\n".utf8)
    while !rest.isEmpty {
        if rest.starts(with: HTTPMachine<StreamFuzzEvent>.continueBytes) {
            rest = rest.dropFirst(HTTPMachine<StreamFuzzEvent>.continueBytes.count)
            continue
        }
        require(rest.starts(with: "HTTP/1.1 ".utf8), "a response does not start with its status line")
        guard let end = rest.indices.first(where: { rest[$0...].starts(with: separator) }) else {
            return require(false, "a response head without its end")
        }
        let head = String(decoding: rest[..<end], as: UTF8.self)
        let lengthLine = head.split(separator: "\r\n").first { $0.hasPrefix("Content-Length: ") }
        guard let lengthLine, let length = Int(lengthLine.dropFirst(16)) else {
            return require(false, "a response without Content-Length")
        }
        let bodyStart = end + 4
        require(rest.endIndex - bodyStart >= length, "a response shorter than its length")
        rest = rest[(bodyStart + length)...]
        if head.contains("\r\nConnection: close") { require(rest.isEmpty, "bytes after Connection: close") }
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
