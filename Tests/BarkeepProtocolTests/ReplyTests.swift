import BarkeepProtocol
import Testing

@Suite("Reply")
struct ReplyTests {
    @Test(
        "encodes as one line ending in LF",
        arguments: [
            (Reply.ok(""), "OK\n"),
            (.ok("PONG"), "OK PONG\n"),
            (.ok("barkeepd 0.1.0 proto 1"), "OK barkeepd 0.1.0 proto 1\n"),
            (.error(.notFound, "no project 'x'"), "ERR NOTFOUND no project 'x'\n"),
            (.error(.badArgument, "usage: AUTH TOKEN"), "ERR BADARG usage: AUTH TOKEN\n"),
            (.error(.internal, "see the server log"), "ERR INTERNAL see the server log\n"),
        ]
    )
    func encoded(reply: Reply, line: String) {
        #expect(reply.encoded == line)
    }

    @Test("every error code encodes as ERR CODE message and parses back", arguments: ErrorCode.allCases)
    func errorCodeRoundTrip(code: ErrorCode) throws {
        let reply = Reply.error(code, "something about \(code)")
        let line = reply.encoded
        #expect(line == "ERR \(code.rawValue) something about \(code)\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(try Reply(parsing: String(line.dropLast())) == reply)
    }

    @Test("an error with an empty message round-trips", arguments: ErrorCode.allCases)
    func emptyMessage(code: ErrorCode) throws {
        let reply = Reply.error(code, "")
        #expect(try Reply(parsing: String(reply.encoded.dropLast())) == reply)
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

    @Test(
        "OK replies round-trip",
        arguments: ["", "PONG", "two words", "a  double  space", "key=value json={\"a\":1}", "héllo 🍺"]
    )
    func okRoundTrip(text: String) throws {
        let reply = Reply.ok(text)
        #expect(try Reply(parsing: String(reply.encoded.dropLast())) == reply)
    }

    @Test(
        "parses reply lines",
        arguments: [
            ("OK", Reply.ok("")),
            ("OK PONG", .ok("PONG")),
            ("OK ", .ok("")),
            ("OK  lead", .ok(" lead")),
            ("ERR BUSY try later", .error(.busy, "try later")),
            ("ERR BUSY", .error(.busy, "")),
            ("ERR BUSY ", .error(.busy, "")),
            ("ERR NOAUTH   spaced", .error(.noAuth, "spaced")),
            ("ERR TOOLONG line longer than 65536 bytes", .error(.tooLong, "line longer than 65536 bytes")),
        ]
    )
    func parses(line: String, reply: Reply) throws {
        #expect(try Reply(parsing: line) == reply)
    }

    @Test(
        "unknown codes and lines that are not replies are refused",
        arguments: [
            "", "ok", "OKAY", "OK\tPONG", "ERR", "ERR ", "ERR  BUSY x", "ERR NOPE message", "ERR busy message",
            "ERR BUSYX", "ERROR BUSY x", "PONG", " OK",
        ]
    )
    func refusesInvalid(line: String) {
        let error = #expect(throws: ProtocolError.self) { try Reply(parsing: line) }
        guard case .badReply = error else {
            Issue.record("expected badReply, got \(String(describing: error))")
            return
        }
    }

    @Test("an unknown code is named in the error")
    func unknownCodeNamed() {
        let error = #expect(throws: ProtocolError.self) { try Reply(parsing: "ERR NOPE whatever") }
        #expect(error == .badReply("unknown error code 'NOPE'"))
    }

    @Test(
        "line breaks in a message are flattened to spaces so the reply stays one line",
        arguments: [
            ("a\nb", "a b"),
            ("a\r\nb", "a b"),
            ("a\rb", "a b"),
            ("trailing\n", "trailing "),
            ("a\n\nb", "a  b"),
            ("line\u{2028}sep", "line sep"),
            ("next\u{85}line", "next line"),
            ("vt\u{B}ff\u{C}", "vt ff "),
        ]
    )
    func flattened(message: String, flat: String) throws {
        for reply in [Reply.ok(message), .error(.conflict, message)] {
            let line = reply.encoded
            #expect(line.hasSuffix("\n"))
            #expect(!line.dropLast().contains { $0.isNewline }, "\(line.debugDescription)")
            let parsed = try Reply(parsing: String(line.dropLast()))
            switch parsed {
            case .ok(let text): #expect(text == flat)
            case .error(let code, let text):
                #expect(code == .conflict)
                #expect(text == flat)
            }
        }
    }
}
