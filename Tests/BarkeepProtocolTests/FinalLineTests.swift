import BarkeepProtocol
import Testing

@Suite("FinalLine")
struct FinalLineTests {
    // MARK: - Parsing

    @Test(
        "parses OK and ERR lines",
        arguments: [
            ("OK", FinalLine.ok("")),
            ("OK PONG", .ok("PONG")),
            ("OK BYE", .ok("BYE")),
            ("OK ", .ok("")),
            ("OK  lead", .ok(" lead")),
            ("OK count=3", .ok("count=3")),
            ("OK watching project=app since=0", .ok("watching project=app since=0")),
            ("ERR BUSY try later", .error(.busy, "try later")),
            ("ERR BUSY", .error(.busy, "")),
            ("ERR BUSY ", .error(.busy, "")),
            ("ERR NOAUTH   spaced", .error(.noAuth, "spaced")),
            ("ERR TOOLONG line longer than 65536 bytes", .error(.tooLong, "line longer than 65536 bytes")),
            ("ERR NOTFOUND no project named 'my app'", .error(.notFound, "no project named 'my app'")),
            ("ERR BADARG key=value \"quoted\" \\", .error(.badArgument, "key=value \"quoted\" \\")),
            ("ERR CONFLICT héllo 🍺", .error(.conflict, "héllo 🍺")),
            // A combining mark fuses with the space before it into one Character; the line is read as bytes.
            ("OK \u{301}x", .ok("\u{301}x")),
            ("ERR BUSY \u{301}x", .error(.busy, "\u{301}x")),
            ("ERR BUSY  \u{301}", .error(.busy, "\u{301}")),
        ]
    )
    func parses(line: String, final: FinalLine) throws {
        #expect(try FinalLine(parsing: line) == final)
    }

    @Test("every error code parses from ERR CODE message", arguments: ErrorCode.allCases)
    func everyCode(code: ErrorCode) throws {
        #expect(
            try FinalLine(parsing: "ERR \(code.rawValue) something went wrong") == .error(code, "something went wrong"))
        #expect(try FinalLine(parsing: "ERR \(code.rawValue)") == .error(code, ""))
        #expect(try FinalLine(parsing: "ERR \(code.rawValue) x").fields == [:])
    }

    @Test("every error reply parses back to its code and message", arguments: ErrorCode.allCases)
    func errorRoundTrip(code: ErrorCode) throws {
        for message in ["something about \(code)", "", "a  double  space", "héllo 🍺", "quoted \"x\" a=b"] {
            let line = Reply.error(code, message).encoded
            #expect(
                try FinalLine(parsing: String(line.dropLast())) == .error(code, message), "\(line.debugDescription)")
        }
    }

    @Test(
        "OK replies parse back to their text",
        arguments: [
            "", "PONG", "two words", "a  double  space", "key=value json={\"a\":1}", "héllo 🍺", "\u{301}combining",
        ]
    )
    func okRoundTrip(text: String) throws {
        #expect(try FinalLine(parsing: String(Reply.ok(text).encoded.dropLast())) == .ok(text))
    }

    @Test(
        "unknown codes, record lines and lines that are not final lines are refused as a bad reply",
        arguments: [
            "", "ok", "Ok", "OKAY", "OK\tPONG", "ERR", "ERR ", "ERR  BUSY x", "ERR NOPE message", "ERR busy message",
            "ERR BUSYX", "ERROR BUSY x", "ERR\tBUSY x", "PONG", " OK", "* name=app", "*", "* OK", "* ERR BUSY x",
            "ok count=1", "O\u{212A}", "O\u{212A} PONG", "ERR UN\u{212A}NOWN x", "ERR\u{301} BUSY x",
        ]
    )
    func refusesInvalid(line: String) {
        let error = #expect(throws: ProtocolError.self) { try FinalLine(parsing: line) }
        guard case .badReply = error else {
            Issue.record("expected badReply, got \(String(describing: error))")
            return
        }
    }

    @Test("an unknown code is named in the error")
    func unknownCodeNamed() {
        let error = #expect(throws: ProtocolError.self) { try FinalLine(parsing: "ERR NOPE whatever") }
        #expect(error == .badReply("unknown error code 'NOPE'"))
    }

    // MARK: - Fields

    @Test(
        "fields are the key=value words of an OK text",
        arguments: [
            ("OK", [:]),
            ("OK PONG", [:]),
            ("OK BYE", [:]),
            ("OK count=0", ["count": "0"]),
            ("OK count=42", ["count": "42"]),
            ("OK deleted=app", ["deleted": "app"]),
            (#"OK revoked="ci bot""#, ["revoked": "ci bot"]),
            ("OK watching project=app since=0", ["project": "app", "since": "0"]),
            (
                "OK protocol=1 server=7f3a9c21@build-01 version=0.1.0 role=admin",
                ["protocol": "1", "server": "7f3a9c21@build-01", "version": "0.1.0", "role": "admin"]
            ),
            (#"OK reason= note="" text="a\nb""#, ["reason": "", "note": "", "text": "a\nb"]),
            ("OK Key=1 \"k=v\" k=v", ["k": "v"]),
            (#"OK broken="unclosed"#, [:]),
            (#"OK a=1 b\c"#, [:]),
            ("ERR BUSY count=1", [:]),
            ("ERR BADARG unknown key sdk=1", [:]),
        ] as [(String, [String: String])]
    )
    func fields(line: String, fields: [String: String]) throws {
        #expect(try FinalLine(parsing: line).fields == fields)
    }

    @Test(
        "the fields of an OK reply built from fields are those fields",
        arguments: [
            (Reply.ok(["count": "1"]), ["count": "1"]),
            (
                Reply.ok(["protocol": "1", "server": "a b", "version": "0.1.0", "role": "none"]),
                ["protocol": "1", "server": "a b", "version": "0.1.0", "role": "none"]
            ),
            (
                Reply.ok(["reason": "", "note": "say \"hi\"\n\tC:\\", "expression": "a=b"]),
                ["reason": "", "note": "say \"hi\"\n\tC:\\", "expression": "a=b"]
            ),
            (Reply.ok(["subject": "héllo 🍺"]), ["subject": "héllo 🍺"]),
        ] as [(Reply, [String: String])]
    )
    func fieldsRoundTrip(reply: Reply, fields: [String: String]) throws {
        let line = String(reply.encoded.dropLast())
        #expect(try FinalLine(parsing: line).fields == fields)
    }
}
