import Testing

@testable import BarkeepProtocol

@Suite("Request")
struct RequestTests {
    // MARK: - Parsing

    @Test(
        "splits a line into an upper-cased verb and arguments on spaces and tabs",
        arguments: [
            ("PING", "PING", []),
            ("ping", "PING", []),
            ("PiNg", "PING", []),
            ("auth s3cret", "AUTH", ["s3cret"]),
            ("AUTH MixedCase", "AUTH", ["MixedCase"]),
            ("project add MyApp", "PROJECT", ["add", "MyApp"]),
            ("  ping  ", "PING", []),
            ("a  b   c", "A", ["b", "c"]),
            ("a\tb\t\tc", "A", ["b", "c"]),
            (" \t tag \t x \t", "TAG", ["x"]),
            ("note héllo 日本", "NOTE", ["héllo", "日本"]),
            ("straße", "STRASSE", []),
            (#"PROJECT SHOW "my app""#, "PROJECT", ["SHOW", "my app"]),
            (#"NOTE "" "a=b" "say \"hi\"""#, "NOTE", ["", "a=b", "say \"hi\""]),
            (#"NOTE "line\nbreak" "tab\there" "back\\slash""#, "NOTE", ["line\nbreak", "tab\there", "back\\slash"]),
            ("NOTE Key=value SDK=1", "NOTE", ["Key=value", "SDK=1"]),
        ]
    )
    func splits(line: String, verb: String, arguments: [String]) throws {
        let request = try #require(try Request(line: line))
        #expect(request.verb == verb)
        #expect(request.arguments == arguments)
        #expect(request.keywordList.isEmpty)
    }

    @Test(
        "keywords are kept apart from positionals, in order, wherever they stand after the verb",
        arguments: [
            (
                "PROJECT CREATE app sdk=27.0 deployment-target=26.0",
                Request(
                    verb: "PROJECT", arguments: ["CREATE", "app"],
                    keywords: ["sdk": "27.0", "deployment-target": "26.0"])
            ),
            (
                "project sdk=27.1 set deployment-target=26.0 app",
                Request(
                    verb: "PROJECT", arguments: ["set", "app"], keywords: ["sdk": "27.1", "deployment-target": "26.0"])
            ),
            ("HELLO protocol=1", Request(verb: "HELLO", keywords: ["protocol": "1"])),
            (
                "HELLO\tprotocol=1\ttoken=bk_Hn0Y0kE2gWc1cJm0Xk2m6wYwQ0bqzJrSx1rX0nT9WbQ",
                Request(
                    verb: "HELLO",
                    keywords: ["protocol": "1", "token": "bk_Hn0Y0kE2gWc1cJm0Xk2m6wYwQ0bqzJrSx1rX0nT9WbQ"])
            ),
            ("WATCH app since=0", Request(verb: "WATCH", arguments: ["app"], keywords: ["since": "0"])),
            (#"NOTE title="Inbox list""#, Request(verb: "NOTE", keywords: ["title": "Inbox list"])),
            ("TRIAGE x reason=", Request(verb: "TRIAGE", arguments: ["x"], keywords: ["reason": ""])),
            (#"TRIAGE x reason="""#, Request(verb: "TRIAGE", arguments: ["x"], keywords: ["reason": ""])),
            (#"NOTE "a=b" a=b"#, Request(verb: "NOTE", arguments: ["a=b"], keywords: ["a": "b"])),
            ("NOTE k=a=b", Request(verb: "NOTE", keywords: ["k": "a=b"])),
            ("NOTE k=1 k=2", Request(verb: "NOTE", keywords: ["k": "1", "k": "2"])),
            (#"NOTE text="say \"hi\"\n\tC:\\""#, Request(verb: "NOTE", keywords: ["text": "say \"hi\"\n\tC:\\"])),
        ]
    )
    func keywords(line: String, request: Request) throws {
        #expect(try Request(line: line) == request)
    }

    @Test(
        "a line's bytes, as framed, parse as the line decoded does: verbs upper-cased, escapes resolved, blank is nil",
        arguments: [
            "PING", "ping", #""PING""#, #""pIng""#, #""pi\"ng""#, "straße x", "NOTE héllo 日本", "k=v", #"k="a b" x"#,
            #"NOTE "" "a=b" "say \"hi\"" k=1 k="x\ty" tail"#, "  \t  ", "", "HELLO protocol=3 token=bk_x",
        ]
    )
    func bytesParseAsTheDecodedLine(line: String) throws {
        let fromBytes = try Request(line: ArraySlice(line.utf8))
        #expect(fromBytes == (try Request(line: line)))
    }

    @Test(
        "a line's bytes are checked as LineFramer.decode checks them, then as the tokenizer does",
        arguments: [
            [UInt8]("PING\u{1}".utf8), [0x4E, 0x4F, 0x54, 0x45, 0x20, 0xFF], [0x50, 0x7F], Array(#"NOTE "open"#.utf8),
            Array(#"NOTE a"b"#.utf8), Array(#"NOTE "\q""#.utf8),
        ]
    )
    func bytesAreChecked(bytes: [UInt8]) {
        let expected: ProtocolError
        do {
            guard let request = try Request(line: LineFramer.decode(ArraySlice(bytes))) else {
                Issue.record("blank")
                return
            }
            Issue.record("parsed \(request)")
            return
        } catch {
            expected = error
        }
        #expect(throws: expected) { try Request(line: ArraySlice(bytes)) }
    }

    @Test("keyword(_:) gives the last value given for a key, nil for a key not given")
    func keywordLookup() throws {
        let request = try #require(try Request(line: "X a=1 b= a=2 c=\"x y\""))
        #expect(request.keyword("a") == "2")
        #expect(request.keyword("b") == "")
        #expect(request.keyword("c") == "x y")
        #expect(request.keyword("d") == nil)
        #expect(request.keyword("A") == nil)
        #expect(request.keywordList.map(\.key) == ["a", "b", "a", "c"])
        #expect(request.keywordList.map(\.value) == ["1", "", "2", "x y"])
    }

    @Test("a blank line is no request", arguments: ["", " ", "\t", "  \t  \t"])
    func blank(line: String) throws {
        #expect(try Request(line: line) == nil)
    }

    @Test(
        "malformed quoting is a bad line",
        arguments: [
            #"PING ""#, #"NOTE "unclosed"#, #"NOTE "\x""#, #"NOTE a\b"#, #"NOTE a"b"#, #"NOTE "a"b"#,
            #"NOTE k="a"b"#, #"NOTE Key="x""#, #"""#, #"\"#, #"PI"NG"#,
        ]
    )
    func malformed(line: String) {
        let error = #expect(throws: ProtocolError.self) { try Request(line: line) }
        guard case .badLine = error else {
            Issue.record("expected badLine, got \(String(describing: error))")
            return
        }
    }

    @Test(
        "a first word of the form key=value is the (unknown) verb, not a bad line",
        arguments: [("sdk=1 PROJECT", "SDK=1", ["PROJECT"]), ("a=b", "A=B", [])]
    )
    func keywordFirst(line: String, verb: String, arguments: [String]) throws {
        let request = try #require(try Request(line: line))
        #expect(request.verb == verb)
        #expect(request.arguments == arguments)
    }

    // MARK: - Building and encoding

    @Test("the memberwise initializer upper-cases the verb too")
    func memberwise() {
        let request = Request(verb: "hello", arguments: ["v1"])
        #expect(request.verb == "HELLO")
        #expect(request == Request(verb: "HELLO", arguments: ["v1"]))
        #expect(Request(verb: "ping").arguments == [])
        #expect(Request(verb: "ping").keywordList.isEmpty)
    }

    @Test(
        "requests differ when a keyword's key, value or order differs",
        arguments: [
            (Request(verb: "X", keywords: ["a": "1"]), Request(verb: "X", keywords: ["a": "2"])),
            (Request(verb: "X", keywords: ["a": "1"]), Request(verb: "X", keywords: ["b": "1"])),
            (Request(verb: "X", keywords: ["a": "1", "b": "2"]), Request(verb: "X", keywords: ["b": "2", "a": "1"])),
            (Request(verb: "X", keywords: ["a": "1"]), Request(verb: "X", arguments: ["a=1"])),
            (Request(verb: "X", arguments: ["a", "b"]), Request(verb: "X", arguments: ["b", "a"])),
            (Request(verb: "X"), Request(verb: "Y")),
        ]
    )
    func inequality(lhs: Request, rhs: Request) {
        #expect(lhs != rhs)
    }

    @Test(
        "line joins verb, quoted arguments and keywords with single spaces and parses back",
        arguments: [
            (Request(verb: "ping"), "PING"),
            (Request(verb: "auth", arguments: ["tok"]), "AUTH tok"),
            (Request(verb: "PROJECT", arguments: ["add", "My", "App"]), "PROJECT add My App"),
            (
                Request(
                    verb: "project", arguments: ["CREATE", "app"],
                    keywords: ["sdk": "27.0", "deployment-target": "26.0"]),
                "PROJECT CREATE app sdk=27.0 deployment-target=26.0"
            ),
            (Request(verb: "PROJECT", arguments: ["SHOW", "my app"]), #"PROJECT SHOW "my app""#),
            (Request(verb: "NOTE", arguments: [""]), #"NOTE """#),
            (Request(verb: "NOTE", arguments: ["say \"hi\"", "C:\\dir"]), #"NOTE "say \"hi\"" "C:\\dir""#),
            (Request(verb: "NOTE", arguments: ["line\nbreak", "tab\there"]), #"NOTE "line\nbreak" "tab\there""#),
            (Request(verb: "NOTE", arguments: ["héllo wörld", "🍺"]), #"NOTE "héllo wörld" 🍺"#),
            (Request(verb: "NOTE", arguments: ["=", "A=b", "SDK=1"]), "NOTE = A=b SDK=1"),
            (Request(verb: "NOTE", keywords: ["title": "Inbox list"]), #"NOTE title="Inbox list""#),
            (Request(verb: "TRIAGE", arguments: ["x"], keywords: ["reason": ""]), #"TRIAGE x reason="""#),
            (Request(verb: "NOTE", keywords: ["k": "a=b"]), "NOTE k=a=b"),
            (Request(verb: "NOTE", keywords: ["k": "1", "k": "2"]), "NOTE k=1 k=2"),
            (
                Request(verb: "NOTE", keywords: ["text": "two\nlines\tand\\ \"q\""]),
                #"NOTE text="two\nlines\tand\\ \"q\"""#
            ),
            (Request(verb: "HELLO", keywords: ["protocol": "1", "token": "bk_abc"]), "HELLO protocol=1 token=bk_abc"),
        ]
    )
    func line(request: Request, line: String) throws {
        #expect(request.line == line)
        #expect(try Request(line: request.line) == request)
    }

    @Test(
        "a positional argument that looks like key=value survives line and parsing",
        arguments: ["a=b", "key=", "sdk=27.1", "x-1_y=z"]
    )
    func keyLikePositionalRoundTrip(argument: String) throws {
        let request = Request(verb: "PROJECT", arguments: ["SHOW", argument])
        #expect(try Request(line: request.line) == request)
    }

    @Test("a messy line normalizes to single spaces and canonical quoting")
    func normalizes() throws {
        let request = try #require(try Request(line: "\tproject   add\tMyApp  "))
        #expect(request.line == "PROJECT add MyApp")
        let quoted = try #require(try Request(line: "note\t\"plain\"  title=\"x\"\treason=\"\" \"a b\""))
        #expect(quoted.line == #"NOTE plain "a b" title=x reason="""#)
    }
}
