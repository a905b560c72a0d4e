// libFuzzer target `framer`: a connection's request path, from raw bytes to parsed requests (scripts/fuzz.sh
// compiles it together with the BarkeepProtocol files it uses).
//
// Input: byte 0 sets the line limit (8 + byte, so that short inputs reach it), byte 1 seeds the sizes of the
// chunks the rest arrives in. The rest is read twice as the server reads a connection (lines; an `INGEST … SIZE`
// line's payload taken, or discarded when over `payloadLimit`), once appended whole and once in chunks: both reads
// must deliver the same events, whatever the chunks. Every line is then parsed as a request, a record and a final
// line, and whatever parses must read back the same after re-encoding.

/// What the framer delivers to a connection, in order.
enum Event: Equatable {
    /// A complete line, without its terminator.
    case line([UInt8])
    /// `ERR TOOLONG`: one for each over-long line.
    case tooLong
    /// An upload's payload, taken whole.
    case payload([UInt8])
    /// An upload refused for its size, read and dropped.
    case discarded(Int)
}

/// The largest payload the simulated server accepts; larger ones are discarded, as over `--max-upload`.
let payloadLimit = 64

/// Reads one connection's bytes the way the server's event loop does.
struct ConnectionReader {
    /// Where the reader is in the stream.
    enum State {
        case lines
        case payload(size: Int)
        case discarding(size: Int, remaining: Int)
        /// The size of an upload was not a number: the server answers and closes.
        case closed
    }

    var framer: LineFramer
    var state = State.lines
    var events: [Event] = []

    init(maximumLineLength: Int) {
        framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    /// Appends bytes as they arrive, then handles everything complete.
    mutating func receive(_ bytes: ArraySlice<UInt8>) {
        framer.append(bytes)
        while step() {}
    }

    /// Handles one line or payload; false when the buffered bytes hold nothing complete.
    private mutating func step() -> Bool {
        switch state {
        case .closed:
            return false
        case .discarding(let size, let remaining):
            let left = framer.discardPayload(count: remaining)
            require(left >= 0 && left <= remaining, "discardPayload returned \(left) of \(remaining)")
            guard left == 0 else {
                state = .discarding(size: size, remaining: left)
                return false
            }
            events.append(.discarded(size))
            state = .lines
            return true
        case .payload(let size):
            guard let payload = framer.takePayload(count: size) else { return false }
            require(payload.count == size, "takePayload returned \(payload.count) bytes of \(size)")
            events.append(.payload(payload))
            state = .lines
            return true
        case .lines:
            let line: ArraySlice<UInt8>
            do {
                guard let next = try framer.nextLineBytes() else {
                    // The framer must not hoard an unfinished line past the limit (protocol.md, section 2).
                    require(
                        framer.bufferedByteCount <= framer.maximumLineLength + 1,
                        "\(framer.bufferedByteCount) bytes buffered, limit \(framer.maximumLineLength)"
                    )
                    return false
                }
                line = next
            } catch {
                require(error == .lineTooLong(limit: framer.maximumLineLength), "framer threw \(error)")
                events.append(.tooLong)
                return true
            }
            require(line.count <= framer.maximumLineLength, "a line of \(line.count) bytes passed the limit")
            require(!line.contains(UInt8(ascii: "\n")), "a line holds a line feed")
            events.append(.line(Array(line)))
            state = Self.state(after: line)
            return true
        }
    }

    /// An `INGEST … SIZE` request announces a payload; a SIZE that is not a number closes the connection.
    private static func state(after line: ArraySlice<UInt8>) -> State {
        guard let text = try? LineFramer.decode(line), let request = try? Request(line: text),
            request.verb == "INGEST", let size = request.arguments.last
        else { return .lines }
        guard !size.isEmpty, size.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let count = Int(size)
        else { return .closed }
        return count <= payloadLimit ? .payload(size: count) : .discarding(size: count, remaining: count)
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

    var whole = ConnectionReader(maximumLineLength: 8 + Int(input[0]))
    whole.receive(stream[...])
    var chunked = ConnectionReader(maximumLineLength: 8 + Int(input[0]))
    var offset = 0
    for chunk in chunkSizes(seed: input[1], total: stream.count) {
        chunked.receive(stream[offset..<offset + chunk])
        offset += chunk
    }
    require(whole.events == chunked.events, "the events depend on how the bytes arrive")
    require(whole.framer.bufferedByteCount == chunked.framer.bufferedByteCount, "the leftovers differ")

    for case .line(let line) in whole.events {
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
