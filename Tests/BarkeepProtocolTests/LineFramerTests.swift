import BarkeepProtocol
import Testing

/// What one `nextLine()` call gave: a line, or an error.
private enum Outcome: Equatable, CustomStringConvertible {
    case line(String)
    case error(ProtocolError)

    var description: String {
        switch self {
        case .line(let line): "line(\(line.debugDescription))"
        case .error(let error): "error(\(error))"
        }
    }

    var isBadLine: Bool {
        if case .error(.badLine) = self { return true }
        return false
    }
}

extension LineFramer {
    /// Calls `nextLine()` until it returns nil, recording every line and error (the framer carries on after one).
    fileprivate mutating func drain() -> [Outcome] {
        var outcomes: [Outcome] = []
        while true {
            do {
                guard let line = try nextLine() else { return outcomes }
                outcomes.append(.line(line))
            } catch {
                outcomes.append(.error(error))
            }
        }
    }

    /// Appends `text`'s UTF-8 bytes and drains.
    fileprivate mutating func feed(_ text: String) -> [Outcome] {
        append(Array(text.utf8))
        return drain()
    }
}

/// The line limit most tests use: small, so over-long lines are cheap to build.
private let smallLimit = 16

@Suite("LineFramer")
struct LineFramerTests {
    // MARK: - Framing

    @Test(
        "splits on LF or CRLF, dropping the terminator and keeping what is incomplete",
        arguments: [
            ("PING\n", ["PING"], 0),
            ("PING\r\n", ["PING"], 0),
            ("PING", [], 4),
            ("PING\r", [], 5),
            ("a\nb\r\nc\n", ["a", "b", "c"], 0),
            ("a\nb\r\nrest", ["a", "b"], 4),
            ("\n", [""], 0),
            ("\r\n", [""], 0),
            ("\n\n\r\n", ["", "", ""], 0),
            ("a\n\nb\n", ["a", "", "b"], 0),
            ("", [], 0),
            ("HELLO  two  spaces \n", ["HELLO  two  spaces "], 0),
        ]
    )
    func framing(input: String, lines: [String], buffered: Int) {
        var framer = LineFramer()
        #expect(framer.feed(input) == lines.map(Outcome.line))
        #expect(framer.bufferedByteCount == buffered)
        #expect(framer.drain() == [])
    }

    @Test("a line split across many appends, one byte at a time, comes out whole once its LF arrives")
    func byteByByte() {
        var framer = LineFramer()
        let input = Array("HELLO world\r\nAUTH tok\n\nPING".utf8)
        var outcomes: [Outcome] = []
        for (index, byte) in input.enumerated() {
            framer.append([byte])
            let got = framer.drain()
            if byte != UInt8(ascii: "\n") { #expect(got == [], "byte \(index)") }
            outcomes += got
        }
        #expect(outcomes == [.line("HELLO world"), .line("AUTH tok"), .line("")])
        #expect(framer.bufferedByteCount == 4)
        #expect(framer.feed("\r\n") == [.line("PING")])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("CR and LF of a CRLF may arrive in different appends")
    func splitCRLF() {
        var framer = LineFramer()
        #expect(framer.feed("QUIT\r") == [])
        #expect(framer.feed("\n") == [.line("QUIT")])
    }

    @Test("several lines in one append come out one per call, in order")
    func severalLinesInOneAppend() throws {
        var framer = LineFramer()
        framer.append(Array("ONE\nTWO\r\nTHREE\nFOUR".utf8))
        #expect(try framer.nextLine() == "ONE")
        #expect(try framer.nextLine() == "TWO")
        #expect(try framer.nextLine() == "THREE")
        #expect(try framer.nextLine() == nil)
        #expect(try framer.nextLine() == nil)
        #expect(framer.bufferedByteCount == 4)
    }

    @Test("appending between reads keeps earlier unread lines")
    func appendBetweenReads() throws {
        var framer = LineFramer()
        framer.append(Array("A\nB\n".utf8))
        #expect(try framer.nextLine() == "A")
        framer.append(Array("C\n".utf8))
        #expect(framer.drain() == [.line("B"), .line("C")])
    }

    @Test("many lines through one framer keep the buffer small")
    func manyLines() {
        var framer = LineFramer()
        for index in 0..<2000 {
            #expect(framer.feed("LINE \(index)\r\n") == [.line("LINE \(index)")])
            #expect(framer.bufferedByteCount == 0)
        }
    }

    // MARK: - Length limit

    @Test("the default limit is 64 KiB")
    func defaultLimit() {
        #expect(LineFramer.defaultMaximumLineLength == 65_536)
        #expect(LineFramer().maximumLineLength == 65_536)
        var framer = LineFramer()
        #expect(
            framer.feed(String(repeating: "x", count: 65_536) + "\n") == [.line(String(repeating: "x", count: 65_536))])
        #expect(framer.feed(String(repeating: "x", count: 65_537) + "\n") == [.error(.lineTooLong(limit: 65_536))])
    }

    @Test(
        "a line of exactly the limit is accepted, terminator excluded; one byte more is refused",
        arguments: ["\n", "\r\n"]
    )
    func atLimit(terminator: String) {
        var framer = LineFramer(maximumLineLength: smallLimit)
        let atLimit = String(repeating: "a", count: smallLimit)
        #expect(framer.feed(atLimit + terminator) == [.line(atLimit)])
        #expect(framer.feed(atLimit + "b" + terminator) == [.error(.lineTooLong(limit: smallLimit))])
        #expect(framer.feed("next" + terminator) == [.line("next")])
    }

    @Test("a line at the limit fed byte by byte is accepted, CRLF included", arguments: ["\n", "\r\n"])
    func limitByteByByte(terminator: String) {
        var framer = LineFramer(maximumLineLength: smallLimit)
        let atLimit = String(repeating: "z", count: smallLimit)
        var outcomes: [Outcome] = []
        for byte in (atLimit + terminator).utf8 {
            framer.append([byte])
            outcomes += framer.drain()
        }
        #expect(outcomes == [.line(atLimit)])
    }

    @Test("smallLimit + 1 bytes fed byte by byte are refused once the line cannot fit, and framing resumes")
    func overLimitByteByByte() {
        var framer = LineFramer(maximumLineLength: smallLimit)
        var outcomes: [Outcome] = []
        for byte in (String(repeating: "z", count: smallLimit + 1) + "\nok\n").utf8 {
            framer.append([byte])
            outcomes += framer.drain()
        }
        #expect(outcomes == [.error(.lineTooLong(limit: smallLimit)), .line("ok")])
    }

    @Test(
        "a too-long line arriving in one chunk is refused once and the next line is read",
        arguments: [smallLimit + 1, smallLimit + 2, 100, 10_000]
    )
    func tooLongInOneChunk(length: Int) {
        var framer = LineFramer(maximumLineLength: smallLimit)
        let long = String(repeating: "x", count: length)
        #expect(
            framer.feed("before\n" + long + "\nafter\r\n")
                == [.line("before"), .error(.lineTooLong(limit: smallLimit)), .line("after")]
        )
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("a too-long line with no LF yet is refused at once, not buffered, and its tail is discarded")
    func tooLongWithoutNewline() {
        var framer = LineFramer(maximumLineLength: smallLimit)
        #expect(framer.feed(String(repeating: "x", count: 100)) == [.error(.lineTooLong(limit: smallLimit))])
        #expect(framer.bufferedByteCount <= smallLimit + 1)
        #expect(framer.feed(String(repeating: "y", count: 50)) == [])
        #expect(framer.bufferedByteCount <= smallLimit + 1)
        #expect(framer.feed("tail\nPING\n") == [.line("PING")])
        #expect(framer.feed("PONG\n") == [.line("PONG")])
    }

    @Test(
        "a long line trickling in without an LF keeps the buffer bounded and is refused exactly once",
        arguments: [1, 7, 16, 17, 1000]
    )
    func tooLongTrickle(chunkSize: Int) {
        var framer = LineFramer(maximumLineLength: smallLimit)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: chunkSize)
        var errors = 0
        for _ in 0..<(200_000 / chunkSize) {
            framer.append(chunk)
            #expect(framer.bufferedByteCount <= smallLimit + 1 + chunkSize)
            for outcome in framer.drain() {
                #expect(outcome == .error(.lineTooLong(limit: smallLimit)))
                errors += 1
            }
            #expect(framer.bufferedByteCount <= smallLimit + 1)
        }
        #expect(errors == 1)
        #expect(framer.feed("end of the long line\nNEXT\r\n") == [.line("NEXT")])
        #expect(framer.feed("x\n") == [.line("x")])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("two too-long lines in a row are each refused, and framing resumes after both")
    func twoTooLongLines() {
        var framer = LineFramer(maximumLineLength: smallLimit)
        let long = String(repeating: "q", count: 40)
        #expect(framer.feed(long) == [.error(.lineTooLong(limit: smallLimit))])
        #expect(framer.feed("\n" + long) == [.error(.lineTooLong(limit: smallLimit))])
        #expect(framer.feed("\n" + long + "\nshort\n") == [.error(.lineTooLong(limit: smallLimit)), .line("short")])
    }

    @Test("a limit of zero accepts only empty lines")
    func zeroLimit() {
        var framer = LineFramer(maximumLineLength: 0)
        #expect(framer.feed("\n\r\na\n\n") == [.line(""), .line(""), .error(.lineTooLong(limit: 0)), .line("")])
    }

    // MARK: - Validation

    @Test(
        "invalid UTF-8 is refused as a bad line, and the next line is read",
        arguments: [
            [0xFF],
            [0xFE],
            [0x80],
            [0x41, 0xC3],
            [0xC3, 0x28],
            [0xC0, 0xAF],
            [0xE0, 0x80, 0xAF],
            [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x8D],
            [0x50, 0x49, 0x4E, 0x47, 0x20, 0xE9],
        ] as [[UInt8]]
    )
    func invalidUTF8(bytes: [UInt8]) {
        var framer = LineFramer()
        framer.append(bytes + Array("\nok\n".utf8))
        let outcomes = framer.drain()
        #expect(outcomes.count == 2)
        #expect(outcomes.first?.isBadLine == true, "\(outcomes)")
        #expect(outcomes.last == .line("ok"))
    }

    @Test(
        "control characters are refused as a bad line",
        arguments: [0x00, 0x01, 0x07, 0x08, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F] as [UInt8]
    )
    func controlCharacters(byte: UInt8) {
        var framer = LineFramer()
        framer.append(Array("AUTH ".utf8) + [byte] + Array("x\nok\n".utf8))
        let outcomes = framer.drain()
        #expect(outcomes.count == 2)
        #expect(outcomes.first?.isBadLine == true, "\(outcomes)")
        #expect(outcomes.last == .line("ok"))
    }

    @Test("a CR before CRLF is a control character inside the line")
    func doubleCR() {
        var framer = LineFramer()
        let outcomes = framer.feed("PING\r\r\nok\n")
        #expect(outcomes.first?.isBadLine == true, "\(outcomes)")
        #expect(outcomes.dropFirst() == [.line("ok")])
    }

    @Test("tab is accepted", arguments: ["\t", "A\tB", "\tlead", "trail\t"])
    func tabAccepted(line: String) {
        var framer = LineFramer()
        #expect(framer.feed(line + "\r\n") == [.line(line)])
    }

    @Test(
        "multi-byte UTF-8 is accepted, also when split across appends at every byte",
        arguments: ["héllo", "日本語 テスト", "🍺 bar", "é", "Ω≈ç√∫", "a\u{301}", "𝄞"]
    )
    func multiByteUTF8(text: String) {
        let bytes = Array((text + "\n").utf8)
        for split in 0...bytes.count {
            var framer = LineFramer()
            framer.append(bytes[..<split])
            let first = framer.drain()
            framer.append(bytes[split...])
            #expect(first + framer.drain() == [.line(text)], "split at \(split)")
        }
        var framer = LineFramer()
        var outcomes: [Outcome] = []
        for byte in bytes {
            framer.append([byte])
            outcomes += framer.drain()
        }
        #expect(outcomes == [.line(text)])
    }

    @Test("the limit counts bytes, not characters")
    func limitCountsBytes() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.feed("éé\n") == [.line("éé")])
        #expect(framer.feed("ééé\n") == [.error(.lineTooLong(limit: 4))])
        #expect(framer.feed("🍺\n") == [.line("🍺")])
    }

    // MARK: - Payloads

    /// Payloads for the upload tests: any bytes, LF, CR and invalid UTF-8 included, some longer than `smallLimit`.
    private static let payloads: [[UInt8]] = [
        Array("abc".utf8),
        [0x0A],
        [0x0D],
        [0x0D, 0x0A],
        Array("line one\nline two\r\n".utf8),
        Array("PING\n".utf8),
        [0xFF, 0xFE, 0x00, 0x0A, 0xC3],
        [0xC3, 0x28, 0x0A, 0x0A, 0x80, 0x7F],
        Array("héllo 🍺\n".utf8),
        (0..<256).map { UInt8($0) },
        [UInt8](repeating: 0x0A, count: 40),
        [UInt8](repeating: UInt8(ascii: "x"), count: 100),
    ]

    @Test(
        "takePayload returns nil until the whole payload is buffered, then the next line is read", arguments: payloads)
    func payloadSplitAnywhere(payload: [UInt8]) throws {
        let header = Array("INGEST \(payload.count)\n".utf8)
        for split in 0..<payload.count {
            var framer = LineFramer(maximumLineLength: smallLimit)
            framer.append(header + payload[..<split])
            #expect(try framer.nextLine() == "INGEST \(payload.count)")
            #expect(framer.takePayload(count: payload.count) == nil, "split at \(split)")
            #expect(framer.takePayload(count: payload.count) == nil, "split at \(split)")
            #expect(framer.bufferedByteCount == split)
            framer.append(payload[split...] + Array("PING\r\n".utf8))
            #expect(framer.takePayload(count: payload.count) == payload, "split at \(split)")
            #expect(framer.drain() == [.line("PING")])
            #expect(framer.bufferedByteCount == 0)
        }
    }

    @Test("a payload arriving byte by byte comes out whole with its last byte", arguments: payloads)
    func payloadByteByByte(payload: [UInt8]) throws {
        var framer = LineFramer(maximumLineLength: smallLimit)
        framer.append(Array("UP \(payload.count)\r\n".utf8))
        #expect(try framer.nextLine() == "UP \(payload.count)")
        var taken: [UInt8]?
        for (index, byte) in payload.enumerated() {
            #expect(framer.takePayload(count: payload.count) == nil, "before byte \(index)")
            framer.append([byte])
            taken = framer.takePayload(count: payload.count)
            if index < payload.count - 1 { #expect(taken == nil, "after byte \(index)") }
        }
        #expect(taken == payload)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.feed("after\n") == [.line("after")])
    }

    @Test("a payload and the lines after it may arrive in one append", arguments: payloads)
    func payloadInOneAppend(payload: [UInt8]) throws {
        var framer = LineFramer(maximumLineLength: smallLimit)
        framer.append(Array("UP \(payload.count)\n".utf8) + payload + Array("PING\nQUIT\r\nrest".utf8))
        #expect(try framer.nextLine() == "UP \(payload.count)")
        #expect(framer.takePayload(count: payload.count) == payload)
        #expect(try framer.nextLine() == "PING")
        #expect(try framer.nextLine() == "QUIT")
        #expect(try framer.nextLine() == nil)
        #expect(framer.bufferedByteCount == 4)
    }

    @Test(
        "a payload announced with reservePayload and taken whole leaves the framer empty and usable",
        arguments: payloads)
    func reservedPayload(payload: [UInt8]) throws {
        var framer = LineFramer(maximumLineLength: smallLimit)
        framer.append(Array("UP \(payload.count)\n".utf8) + payload.prefix(1))
        #expect(try framer.nextLine() == "UP \(payload.count)")
        framer.reservePayload(count: payload.count)
        framer.append(payload.dropFirst())
        #expect(framer.takePayload(count: payload.count) == payload)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.feed("after\n") == [.line("after")])
    }

    @Test("an empty payload is taken at once and the next line follows")
    func emptyPayload() throws {
        var framer = LineFramer()
        framer.append(Array("UP 0\nPING\n".utf8))
        #expect(try framer.nextLine() == "UP 0")
        #expect(framer.takePayload(count: 0) == [])
        #expect(try framer.nextLine() == "PING")
        #expect(framer.takePayload(count: 0) == [])
    }

    @Test(
        "many uploads streamed in chunks of any size come out in step with their lines",
        arguments: [1, 2, 3, 7, 16, 64, 1000, 100_000]
    )
    func uploadStream(chunkSize: Int) throws {
        let sizes = (0..<300).map { ($0 * 7) % 23 }
        var stream: [UInt8] = []
        var expected: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 31 + index) }
            stream += Array("UP \(size)\n".utf8) + payload
            expected.append(payload)
        }
        stream += Array("QUIT\n".utf8)

        var framer = LineFramer(maximumLineLength: smallLimit)
        var pendingSize: Int?
        var payloads: [[UInt8]] = []
        var lines: [String] = []
        var offset = 0
        while offset < stream.count {
            framer.append(stream[offset..<min(offset + chunkSize, stream.count)])
            offset += chunkSize
            while true {
                if let size = pendingSize {
                    guard let payload = framer.takePayload(count: size) else { break }
                    payloads.append(payload)
                    pendingSize = nil
                } else {
                    guard let line = try framer.nextLine() else { break }
                    lines.append(line)
                    if line.hasPrefix("UP ") { pendingSize = Int(line.dropFirst(3)) }
                }
            }
            #expect(framer.bufferedByteCount <= chunkSize + 23 + smallLimit)
        }
        #expect(payloads == expected)
        #expect(lines == sizes.map { "UP \($0)" } + ["QUIT"])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test(
        "discardPayload drops a payload across appends, returns what is still to come, and keeps the next line intact",
        arguments: [
            [15], [10, 5], [3, 4, 8], [9, 1, 5], [12, 3], [0, 3, 0, 7, 5],
            [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            [2, 2, 2, 2, 2, 2, 2, 1],
        ] as [[Int]]
    )
    func discardAcrossAppends(chunkSizes: [Int]) throws {
        // Ten payload bytes (LF, CR and invalid UTF-8 among them), then the next request.
        let payload: [UInt8] = [0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, 0xFF, 0x0D, 0x0A, 0xC3]
        let stream = payload + Array("PING\n".utf8)
        #expect(chunkSizes.reduce(0, +) == stream.count)
        var framer = LineFramer(maximumLineLength: smallLimit)
        framer.append(Array("UP 10\n".utf8))
        #expect(try framer.nextLine() == "UP 10")
        var remaining = payload.count
        var offset = 0
        for size in chunkSizes {
            framer.append(stream[offset..<offset + size])
            offset += size
            remaining = framer.discardPayload(count: remaining)
            #expect(remaining == max(0, payload.count - offset), "after \(offset) bytes")
        }
        #expect(framer.drain() == [.line("PING")])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("discardPayload with nothing buffered returns the whole count and drops nothing")
    func discardNothingBuffered() throws {
        var framer = LineFramer()
        #expect(framer.discardPayload(count: 10) == 10)
        #expect(framer.discardPayload(count: 0) == 0)
        framer.append(Array("PING\n".utf8))
        #expect(framer.discardPayload(count: 0) == 0)
        #expect(try framer.nextLine() == "PING")
    }

    @Test("discardPayload drops only the payload when more is buffered")
    func discardLeavesTheRest() throws {
        var framer = LineFramer()
        framer.append(Array("UP 4\nab\ncPING\nQUIT\n".utf8))
        #expect(try framer.nextLine() == "UP 4")
        #expect(framer.discardPayload(count: 4) == 0)
        #expect(framer.drain() == [.line("PING"), .line("QUIT")])
    }

    @Test("a large refused payload trickling in is never buffered, and the line after it is read")
    func discardLargePayload() throws {
        var framer = LineFramer(maximumLineLength: smallLimit)
        framer.append(Array("UP 100000\n".utf8))
        #expect(try framer.nextLine() == "UP 100000")
        var remaining = 100_000
        let chunk = [UInt8](repeating: 0x0A, count: 999)
        while remaining > 0 {
            framer.append(chunk.prefix(remaining))
            remaining = framer.discardPayload(count: remaining)
            #expect(framer.bufferedByteCount == 0)
        }
        #expect(framer.feed("PING\n") == [.line("PING")])
    }
}
