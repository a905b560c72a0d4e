// libFuzzer target `framer`: a connection's request path, from raw bytes to parsed requests (scripts/fuzz.sh
// compiles it together with the BarkeepProtocol files it uses and the server's ConnectionMachine).
//
// Input: byte 0 sets the line limit (8 + byte, so that short inputs reach it), byte 1 seeds the sizes of the
// chunks the rest arrives in. The rest goes twice through the server's own connection machine (lines; an
// `INGEST … SIZE` line's payload taken, or discarded when over `payloadLimit`; a `FINDINGS …` reply streamed a page
// per argument), once whole and once in chunks: both must lead to the same actions and the same replies, whatever
// the chunks. Every line is then parsed as a request, a
// record and a final line, and whatever parses must read back the same after re-encoding.
//
// The same bytes then script a TLS connection that watches (`ScriptedConnection`, with a scripted transport): each
// byte is an operation (its top 3 bits) and an argument (the low 5): a handshake step's outcome, a step of the clock,
// client bytes, a page of stored events, live events, the client reading, the stream's end. Its invariants: no request
// runs and nothing is written before the handshake completes; every deadline fires once, when due; a watcher's
// pending output stays within its backlog and one batch; its cursor never goes back; a page is asked for only when
// none is out.

/// The largest payload the simulated server accepts; larger ones are discarded, as over `--max-upload`.
let payloadLimit = 64

/// The command table the fuzzed connection sees: `INGEST … SIZE` takes a payload (up to `payloadLimit`, a SIZE that
/// is not a number closing the connection, as the server's table does), `PING` is answered from its bytes, every
/// other request runs.
struct FuzzCommands: ConnectionCommands {
    typealias Event = FuzzEvent

    func constantReply(for line: ArraySlice<UInt8>) -> [UInt8]? {
        line.elementsEqual("PING".utf8) ? Array("OK PONG\n".utf8) : nil
    }

    func resolve(_ request: Request) -> RequestResolution<Request> {
        guard request.verb == "INGEST", let size = request.arguments.last else {
            return .accepted(request, payloadSize: nil)
        }
        guard !size.isEmpty, size.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let count = Int(size)
        else { return .refused(.error(.badArgument, "no size"), payloadToDiscard: 0, closesConnection: true) }
        guard count <= payloadLimit else {
            return .refused(.error(.tooLong, "too large"), payloadToDiscard: count, closesConnection: false)
        }
        return .accepted(request, payloadSize: count)
    }
}

/// A WATCH event of the fuzzed connection: the filter is a mask of kinds passed over.
struct FuzzEvent: WatchEvent {
    var seq: Int64
    var kind: UInt8

    func matches(_ filter: UInt8) -> Bool { kind & filter == 0 }

    var watchLine: String { "seq=\(seq) kind=\(kind)" }
}

/// One connection's `ConnectionMachine`, the server's own, driven as the event loop drives it: each command
/// completes at once (a `FINDINGS` one streams a page per argument, each page when the machine asks for it), uploads
/// are always within the server's room, replies are read as soon as they are written.
struct ConnectionDriver {
    var machine: ConnectionMachine<FuzzCommands>
    /// What the machine asked for and answered, in order.
    var events: [String] = []
    var replies: [UInt8] = []
    let now = ContinuousClock.now
    /// The pages a streamed reply still has to send, and the records it sent.
    var pagesLeft: [String] = []
    var recordsSent = 0

    init(maximumLineLength: Int) {
        machine = ConnectionMachine(
            commands: FuzzCommands(),
            limits: ConnectionLimits(
                maximumLineLength: maximumLineLength, maximumPendingOutput: 256, uploadTimeout: .seconds(30)),
            now: now
        )
    }

    /// Appends bytes as they arrive, then performs every action they lead to.
    mutating func receive(_ bytes: ArraySlice<UInt8>) {
        machine.receive(bytes, now: now)
        while true {
            switch machine.nextAction(now: now, uploadRoom: Int.max) {
            case .execute(let request, let payload):
                require(machine.isRunning && !machine.wantsInput, "a command runs while the machine reads")
                events.append("execute \(request.line) \(payload.map { "\($0)" } ?? "-")")
                guard request.verb == "FINDINGS", !request.arguments.isEmpty else {
                    machine.complete(.ok(String(request.arguments.count)))
                    require(machine.releaseUpload() == (payload?.count ?? 0), "the upload's reservation differs")
                    continue
                }
                // A page per argument, the first sent with the command's start, the others when asked for.
                pagesLeft = request.arguments
                recordsSent = 0
                sendPage()
            case .fetchPage:
                require(machine.isStreaming && !machine.isOutputFull, "a page asked for with the output full")
                events.append("page")
                sendPage()
            case .beginUpload(let reserved):
                events.append("begin \(reserved)")
            case .endUpload:
                events.append("end")
            case .write:
                read()
            case .handshake, .read, .closeSilently:
                fatalError("a plain-text connection handshakes")
            case .requestEvents, .abandon:
                fatalError("a connection that never watched streams events")
            case .wait:
                // The framer must not hoard an unfinished line past the limit (protocol.md, section 2). Bytes that
                // arrive once the connection is closing are not read by the server.
                require(
                    machine.isUploading || machine.isClosing
                        || machine.framer.bufferedByteCount <= machine.framer.maximumLineLength + 1,
                    "\(machine.framer.bufferedByteCount) bytes buffered, limit \(machine.framer.maximumLineLength)"
                )
                read()
                return
            }
        }
    }

    /// The streamed reply's next page, or its final line when none is left.
    mutating func sendPage() {
        guard !pagesLeft.isEmpty else {
            var final: [UInt8] = []
            Reply.encodeEnd(count: recordsSent, summary: nil, into: &final)
            machine.complete(.bytes(final))
            return
        }
        var bytes: [UInt8] = []
        let page = [Record(["page": pagesLeft.removeFirst()])]
        Reply.encode(records: page, into: &bytes)
        recordsSent += page.count
        machine.receivePage(bytes)
        require(machine.isStreaming && machine.isRunning && !machine.wantsInput, "a streaming machine reads requests")
    }

    /// The client reads its replies.
    mutating func read() {
        let bytes = machine.withPendingOutput { Array($0) }
        machine.written(bytes.count)
        machine.compactOutput()
        replies += bytes
    }
}

/// A TLS connection driven by a script, as the event loop drives it over a transport whose every outcome the script
/// chooses: `WATCH` streams events (since its argument count, passing over the kinds its first argument's length
/// masks); every other request completes at once; `INGEST … SIZE` uploads as in `FuzzCommands`.
struct ScriptedConnection {
    static let backlog = 512
    var machine: ConnectionMachine<FuzzCommands>
    var now: ContinuousClock.Instant
    /// The outcome the transport's next handshake step gives.
    var outcome = TransportOutcome.wantRead
    var isHandshakeDone = false
    var isClosed = false
    /// The cursor a page request is out for.
    var pageAfter: Int64?
    /// The newest event committed.
    var head: Int64 = 0
    var lastSent: Int64 = 0
    /// The most bytes a batch of events queued.
    var largestBatch = 0

    init() {
        now = ContinuousClock.now
        machine = ConnectionMachine(
            commands: FuzzCommands(),
            limits: ConnectionLimits(
                maximumLineLength: 32, maximumPendingOutput: 256, uploadTimeout: .seconds(30),
                maximumWatcherBacklog: Self.backlog),
            now: now,
            handshakeDeadline: now + .seconds(10))
    }

    /// Plays `script`.
    mutating func play(_ script: [UInt8]) {
        var index = 0
        while index < script.count && !isClosed {
            let (operation, argument) = (script[index] >> 5, Int(script[index] & 31))
            index += 1
            switch operation {
            case 0:
                let outcomes: [TransportOutcome] = [.done(0), .wantRead, .wantWrite, .closed, .failed("fuzz")]
                outcome = outcomes[argument % outcomes.count]
                machine.transportReady()
            case 1:
                tick(by: .milliseconds(500 * argument))
            case 2:
                let bytes = script[index..<min(script.count, index + argument)]
                index += bytes.count
                // The loop reads only once the handshake is done and while the machine takes requests.
                if isHandshakeDone && machine.wantsInput { machine.receive(bytes, now: now) }
            case 3, 4:
                guard let after = pageAfter else { break }
                pageAfter = nil
                // Some events at or before the cursor, as a page that overlaps live delivery would hold.
                let first = after + 1 - Int64(argument & 3)
                let events = (0..<Int64(argument >> 2)).map {
                    FuzzEvent(seq: first + $0, kind: UInt8(($0 + after) % 3))
                }
                head = max(head, events.last?.seq ?? after)
                queue { $0.receiveEvents(events, isComplete: operation == 4) }
            case 5:
                let events = (1...Int64(1 + argument % 4)).map { FuzzEvent(seq: head + $0, kind: UInt8($0 % 3)) }
                head += Int64(events.count)
                queue { machine in
                    for event in events { _ = machine.receiveLiveEvent(event) }
                }
            case 6:
                let count = min(machine.pendingOutputCount, argument * 16)
                machine.written(count)
                machine.compactOutput()
            default:
                if argument & 1 == 0 {
                    machine.endStream(.error(.notFound, "project 'p' was deleted"))
                } else if !machine.endInput() {
                    isClosed = true
                }
            }
            run()
            check()
        }
    }

    /// Events arrive (`deliver`), judged against the backlog and one batch.
    mutating func queue(_ deliver: (inout ConnectionMachine<FuzzCommands>) -> Void) {
        let before = machine.pendingOutputCount
        deliver(&machine)
        largestBatch = max(largestBatch, machine.pendingOutputCount - before)
    }

    /// The clock moves on: a deadline that passed fires, once.
    mutating func tick(by step: Duration) {
        let deadline = machine.nextDeadline
        now += step
        guard let deadline, now >= deadline else {
            require(!machine.expire(now: now), "a deadline fired early")
            return
        }
        require(machine.expire(now: now), "a deadline did not fire")
        require(!machine.expire(now: now), "a deadline fired twice")
        require(machine.nextDeadline.map { $0 > now } ?? true, "a deadline that fired is still due")
        _ = machine.releaseUpload()
    }

    /// Performs the machine's actions until it waits.
    mutating func run() {
        while !isClosed {
            switch machine.nextAction(now: now, uploadRoom: Int.max) {
            case .handshake:
                require(!isHandshakeDone, "a handshake after it completed")
                machine.handshakeStepped(outcome)
                if case .done = outcome { isHandshakeDone = true }
                outcome = .wantRead
            case .read:
                require(isHandshakeDone && !machine.isHandshaking, "a read before the handshake completed")
            case .closeSilently:
                require(!isHandshakeDone && machine.pendingOutputCount == 0, "a silent close said something")
                isClosed = true
            case .execute(let request, _):
                require(isHandshakeDone, "a request ran before the handshake completed")
                let watch =
                    request.verb == "WATCH"
                    ? WatchMachine<FuzzEvent>(
                        projectID: 1, project: "p", since: Int64(request.arguments.count),
                        filter: UInt8(request.arguments.first?.utf8.count ?? 0) & 3) : nil
                if let watch { lastSent = watch.lastSent }
                machine.complete(.ok("done"), watch: watch)
                _ = machine.releaseUpload()
            case .requestEvents(_, let after):
                require(pageAfter == nil, "a page asked for while one is out")
                require(after == machine.watch?.lastSent, "a page asked for from elsewhere than the cursor")
                pageAfter = after
            case .abandon:
                require(
                    machine.withPendingOutput { String(decoding: $0, as: UTF8.self) }
                        .hasSuffix("resume with since=\(machine.watch?.lastSent ?? -1)\n"),
                    "a watcher dropped without where to resume")
                isClosed = true
            case .beginUpload, .endUpload:
                break
            case .fetchPage:
                fatalError("no reply streams here")
            case .write:
                // The socket takes what the script says (operation 6).
                if machine.isOutputFull { return }
            case .wait:
                if machine.isFinished { isClosed = true }
                return
            }
        }
    }

    /// The invariants after every operation.
    mutating func check() {
        if machine.isHandshaking { require(machine.pendingOutputCount == 0, "output before the handshake completed") }
        guard let watch = machine.watch else { return }
        require(watch.lastSent >= lastSent, "the cursor went back")
        lastSent = watch.lastSent
        if !machine.isClosing {
            require(
                machine.pendingOutputCount <= Self.backlog + largestBatch + 64,
                "a watcher holds \(machine.pendingOutputCount) bytes, backlog \(Self.backlog)")
        }
    }
}

/// The lines a stream holds, as the framer splits them, for the parser checks (payload bytes included: they are
/// lines too as far as the parsers care).
func lines(of stream: [UInt8], maximumLineLength: Int) -> [[UInt8]] {
    var framer = LineFramer(maximumLineLength: maximumLineLength)
    framer.append(stream[...])
    var lines: [[UInt8]] = []
    while true {
        do {
            guard let line = try framer.nextLineBytes() else { return lines }
            require(line.count <= maximumLineLength, "a line of \(line.count) bytes passed the limit")
            require(!line.contains(UInt8(ascii: "\n")), "a line holds a line feed")
            lines.append(Array(line))
        } catch {
            require(error == .lineTooLong(limit: maximumLineLength), "framer threw \(error)")
        }
    }
}

/// Chunk sizes from 1 to 64 bytes, from a linear congruential generator seeded by one input byte.
func chunkSizes(seed: UInt8, total: Int) -> [Int] {
    var state = UInt32(seed)
    var sizes: [Int] = []
    var covered = 0
    while covered < total {
        state = state &* 1_103_515_245 &+ 12_345
        let size = min(1 + Int((state >> 16) % 64), total - covered)
        sizes.append(size)
        covered += size
    }
    return sizes
}

/// Checks one framed line against the parsers that read lines: requests, records and final lines.
func checkParsers(line bytes: [UInt8]) {
    // Undecoded bytes, as if a caller skipped validation: the parsers may refuse them, never crash.
    let raw = String(decoding: bytes, as: UTF8.self)
    _ = try? Request(line: raw)
    _ = try? Record(parsing: raw)
    _ = (try? FinalLine(parsing: raw))?.fields

    guard let line = try? LineFramer.decode(bytes[...]) else { return }
    require(Array(line.utf8) == bytes, "decode changed the line")

    if let request = try? Request(line: line) {
        // A verb that came quoted or as `key=value` is not a word a client sends bare; every other request must
        // survive `Request.line`.
        if Quoting.isBare(request.verb) {
            let encoded = request.line
            require((try? LineFramer.decode(Array(encoded.utf8)[...])) != nil, "Request.line is no valid line")
            guard let reparsed = try? Request(line: encoded) else {
                fatalError("Request.line does not parse: \(encoded)")
            }
            require(reparsed == request, "\(line) → \(encoded) → \(reparsed.line)")
        }
        // Its keywords, sent back as a record's fields (keys and quoting are the same).
        var record = Record()
        for (key, value) in request.keywordList { record.append(key, value) }
        checkRecord(record)
    }
    if let record = try? Record(parsing: line) {
        checkRecord(record)
    }
    if let final = try? FinalLine(parsing: line) {
        _ = final.fields
    }
}

/// A record must read back the same, alone and inside a reply.
func checkRecord(_ record: Record) {
    guard let reparsed = try? Record(parsing: record.encoded) else { fatalError("record does not parse: \(record)") }
    require(reparsed == record, "\(record) read back as \(reparsed)")
    let lines = Reply.records([record]).encoded.split(separator: "\n", omittingEmptySubsequences: false)
    require(lines.count == 3 && lines[2].isEmpty, "a one-record reply is not two lines: \(lines)")
    require((try? Record(parsing: String(lines[0]))) == record, "the reply's record line differs")
    require((try? FinalLine(parsing: String(lines[1]))) == .ok("count=1"), "the reply's final line differs")
}

/// A final line is always one line, whatever its text holds (protocol.md, section 4).
func checkFinalLine(text: String) {
    for reply in [Reply.ok(text), Reply.error(.badLine, text)] {
        let encoded = reply.encoded
        require(encoded.last == "\n", "a reply does not end in LF")
        let body = encoded.dropLast()
        require(!body.utf8.contains(UInt8(ascii: "\n")), "a final line holds a line feed")
        guard let final = try? FinalLine(parsing: String(body)) else { fatalError("a final line does not parse") }
        switch (reply, final) {
        case (.ok, .ok), (.error, .error(.badLine, _)): break
        default: fatalError("\(reply) read back as \(final)")
        }
    }
}

/// The fuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 2 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let stream = Array(input[2...])

    let limit = 8 + Int(input[0])
    var whole = ConnectionDriver(maximumLineLength: limit)
    whole.receive(stream[...])
    var chunked = ConnectionDriver(maximumLineLength: limit)
    var offset = 0
    for chunk in chunkSizes(seed: input[1], total: stream.count) {
        chunked.receive(stream[offset..<offset + chunk])
        offset += chunk
    }
    require(whole.events == chunked.events, "the actions depend on how the bytes arrive")
    require(whole.replies == chunked.replies, "the replies depend on how the bytes arrive")
    require(
        whole.machine.framer.bufferedByteCount == chunked.machine.framer.bufferedByteCount, "the leftovers differ")

    for line in lines(of: stream, maximumLineLength: limit) {
        checkParsers(line: line)
    }
    checkFinalLine(text: String(decoding: stream, as: UTF8.self))

    var scripted = ScriptedConnection()
    scripted.play(stream)
    return 0
}

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
