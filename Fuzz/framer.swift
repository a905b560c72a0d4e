// libFuzzer target `framer`: a connection's request path, from raw bytes to parsed requests (scripts/fuzz.sh
// compiles it together with the BarkeepProtocol files it uses and the server's ConnectionMachine).
//
// Input: byte 0 sets the line limit (8 + byte, so that short inputs reach it), byte 1 seeds the sizes of the
// chunks the rest arrives in. The rest goes twice through the server's own connection machine (lines; an
// `INGEST … SIZE` line's payload taken, or discarded when over `payloadLimit`; a `FINDINGS …` reply streamed a page
// per argument), once whole and once in chunks: both must lead to the same actions and the same replies, whatever
// the chunks. Every line is then parsed as a request, a
// record and a final line, and whatever parses must read back the same after re-encoding.

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
    return 0
}

/// Stops the fuzzer when `condition` is false. Unlike `precondition`, which an optimized build stops without a word,
/// it says what failed.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
