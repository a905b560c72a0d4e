import BarkeepProtocol
import Testing

/// A record for tests, its values chosen so that some need quoting.
private func makeRecord(_ index: Int) -> Record {
    Record([
        "name": "app-\(index)",
        "title": index.isMultiple(of: 2) ? "even \(index)" : nil,
        "note": index.isMultiple(of: 3) ? "line\nbreak \"\(index)\"" : "plain",
        "reason": index.isMultiple(of: 5) ? "" : nil,
    ])
}

@Suite("Reply")
struct ReplyTests {
    // MARK: - Encoding

    @Test(
        "encodes as its lines, each ending in LF",
        arguments: [
            (Reply.ok(""), "OK\n"),
            (.ok("PONG"), "OK PONG\n"),
            (.ok("barkeepd 0.1.0 proto 1"), "OK barkeepd 0.1.0 proto 1\n"),
            (.error(.notFound, "no project 'x'"), "ERR NOTFOUND no project 'x'\n"),
            (.error(.badArgument, "usage: AUTH TOKEN"), "ERR BADARG usage: AUTH TOKEN\n"),
            (.error(.internal, "see the server log"), "ERR INTERNAL see the server log\n"),
            (.records([]), "OK count=0\n"),
            (.records([Record(["name": "app"])]), "* name=app\nOK count=1\n"),
            (
                .records([Record(["name": "app", "sdk": "27.0"]), Record(["name": "my app", "sdk": nil])]),
                "* name=app sdk=27.0\n* name=\"my app\"\nOK count=2\n"
            ),
            (.records([Record()]), "*\nOK count=1\n"),
            (.records([Record(["text": "a\nb"])]), "* text=\"a\\nb\"\nOK count=1\n"),
            (Reply.ok(["protocol": "1", "role": "admin"]), "OK protocol=1 role=admin\n"),
            (Reply.ok(["deleted": "my app"]), "OK deleted=\"my app\"\n"),
            (Reply.ok(["reason": "", "note": "say \"hi\""]), #"OK reason="" note="say \"hi\"""# + "\n"),
            (Reply.ok([:]), "OK\n"),
            (.bytes(Array("* name=app\nOK count=1\n".utf8)), "* name=app\nOK count=1\n"),
        ]
    )
    func encoded(reply: Reply, text: String) {
        #expect(reply.encoded == text)
    }

    @Test("ok with fields is the same as ok with their quoted text")
    func okFields() {
        #expect(
            Reply.ok(["project": "app", "since": "0", "title": "a b"]) == .ok(#"project=app since=0 title="a b""#))
    }

    @Test(
        "records encode as one '* ' line each, then OK count=N, and every line parses back",
        arguments: [0, 1, 2, 3, 7, 30, 100]
    )
    func recordsRoundTrip(count: Int) throws {
        let records = (0..<count).map(makeRecord)
        let text = Reply.records(records).encoded
        #expect(text.hasSuffix("\n"))
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == count + 1)
        for (line, record) in zip(lines, records) {
            #expect(line.hasPrefix("* "))
            #expect(try Record(parsing: line) == record)
            #expect(throws: ProtocolError.self) { try FinalLine(parsing: line) }
        }
        let last = try #require(lines.last)
        #expect(last == "OK count=\(count)")
        let final = try FinalLine(parsing: last)
        #expect(final == .ok("count=\(count)"))
        #expect(final.fields == ["count": "\(count)"])
    }

    @Test("a summary goes before the count on the OK line, quoted like a record's fields")
    func summarized() throws {
        let reply = Reply.summarizedRecords(
            [Record(["id": "1"])], summary: Record(["sdk": "27.1", "note": "two words"]))
        #expect(reply.encoded == "* id=1\nOK sdk=27.1 note=\"two words\" count=1\n")
        #expect(
            try FinalLine(parsing: "OK sdk=27.1 note=\"two words\" count=1").fields
                == ["sdk": "27.1", "note": "two words", "count": "1"])
    }

    @Test("zero records are just OK count=0")
    func noRecords() throws {
        #expect(Reply.records([]).encoded == "OK count=0\n")
        #expect(try FinalLine(parsing: "OK count=0").fields == ["count": "0"])
    }

    // MARK: - Error codes

    @Test("every error code encodes as ERR CODE message on one line", arguments: ErrorCode.allCases)
    func errorCode(code: ErrorCode) {
        let line = Reply.error(code, "something about \(code)").encoded
        #expect(line == "ERR \(code.rawValue) something about \(code)\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test(
        "the wire codes are the documented words",
        arguments: [
            (ErrorCode.badLine, "BADLINE"), (.tooLong, "TOOLONG"), (.unknown, "UNKNOWN"), (.badArgument, "BADARG"),
            (.noAuth, "NOAUTH"), (.forbidden, "FORBIDDEN"), (.notFound, "NOTFOUND"), (.conflict, "CONFLICT"),
            (.busy, "BUSY"), (.unavailable, "UNAVAILABLE"), (.internal, "INTERNAL"),
        ]
    )
    func codeWords(code: ErrorCode, word: String) {
        #expect(code.rawValue == word)
        #expect(ErrorCode(rawValue: word) == code)
    }

    @Test("the table of wire codes covers every case")
    func allCodes() {
        #expect(ErrorCode.allCases.count == 11)
        #expect(Set(ErrorCode.allCases.map(\.rawValue)).count == ErrorCode.allCases.count)
    }

    // MARK: - Line breaks

    @Test(
        "CR and LF in a message become spaces so the final line stays one line",
        arguments: [
            ("a\nb", "a b"),
            ("a\rb", "a b"),
            ("trailing\n", "trailing "),
            ("a\n\nb", "a  b"),
            ("a\r\rb", "a  b"),
        ]
    )
    func flattened(message: String, flat: String) throws {
        let cases = [(Reply.ok(message), FinalLine.ok(flat)), (.error(.conflict, message), .error(.conflict, flat))]
        for (reply, expected) in cases {
            let line = reply.encoded
            #expect(line.hasSuffix("\n"))
            #expect(!line.dropLast().utf8.contains { $0 == 0x0A || $0 == 0x0D }, "\(line.debugDescription)")
            #expect(try FinalLine(parsing: String(line.dropLast())) == expected)
        }
    }

    @Test("a CRLF in a message becomes spaces between the words it separated")
    func flattenedCRLF() throws {
        for reply in [Reply.ok("a\r\nb"), .error(.busy, "a\r\nb")] {
            let line = reply.encoded
            #expect(!line.dropLast().utf8.contains { $0 == 0x0A || $0 == 0x0D }, "\(line.debugDescription)")
            let text: String
            switch try FinalLine(parsing: String(line.dropLast())) {
            case .ok(let okText): text = okText
            case .error(_, let message): text = message
            }
            #expect(text.split(separator: " ") == ["a", "b"])
        }
    }

    @Test(
        "other line breaks in a message are flattened to spaces too",
        arguments: [
            ("line\u{2028}sep", "line sep"),
            ("para\u{2029}sep", "para sep"),
            ("next\u{85}line", "next line"),
            ("vt\u{B}ff\u{C}", "vt ff "),
        ]
    )
    func flattenedUnicodeLineBreaks(message: String, flat: String) throws {
        let cases = [(Reply.ok(message), FinalLine.ok(flat)), (.error(.conflict, message), .error(.conflict, flat))]
        for (reply, expected) in cases {
            let line = reply.encoded
            #expect(!line.dropLast().contains { $0.isNewline }, "\(line.debugDescription)")
            #expect(try FinalLine(parsing: String(line.dropLast())) == expected)
        }
    }

    // MARK: - Encoding into a buffer

    @Test(
        "encode(into:) appends exactly the encoded bytes to what the buffer holds",
        arguments: [
            Reply.ok(""), .ok("PONG"), .ok("a\nb"), .error(.busy, "try later"), .records([]),
            .records((0..<5).map(makeRecord)), Reply.ok(["count": "1", "title": "a b"]),
        ]
    )
    func encodeIntoBuffer(reply: Reply) {
        var buffer: [UInt8] = Array("* earlier\n".utf8)
        reply.encode(into: &buffer)
        #expect(buffer == Array("* earlier\n".utf8) + Array(reply.encoded.utf8))
        var empty: [UInt8] = []
        reply.encode(into: &empty)
        #expect(String(decoding: empty, as: UTF8.self) == reply.encoded)
    }
}
