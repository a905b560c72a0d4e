import BarkeepProtocol
import Testing

/// Strings that must survive `Quoting.quote` then `Quoting.tokenize` unchanged, as a positional word and as a keyword
/// value. None of them looks like `key=value`, which `trickyKeyLikeStrings` covers.
private let trickyStrings: [String] = [
    "plain", "27.1", "token:ci", "P1,P2,P3", "", " ", "  ", "a b", " leading", "trailing ", "two  spaces",
    "\t", "tab\there", "\n", "line\nbreak", "trailing\n", "\n\t\n", "\"", "\"quoted\"", "say \"hi\"", "\\", "\\\\",
    "C:\\dir\\file", "\\n", "\\t", "\\\"", "a\"b\\c\nd\te", "mixed \" \\ \n \t end", "é", "héllo wörld",
    "日本語 テスト", "🍺", "🍺 bar", "a\u{301}", "𝄞", "non\u{A0}breaking", "line\u{2028}separator", "=", "==", "=x",
    "= x", "A=b", "SDK=27.1", "1a=b", "a.b=c", "é=x", "a b=c", "\"a=b\"", "key=\"quoted\"", "key=a b",
]

/// Bare-looking strings whose text before the first `=` is a valid key, so sent bare they read as a keyword. In the
/// last two the `=` and a combining mark after it form one Character (found by fuzzing).
private let trickyKeyLikeStrings: [String] = [
    "a=b", "key=", "key=value", "sdk=27.1", "a==b", "x-1_y=z", "k=é", "a=\u{301}b", "k=\u{301}",
]

@Suite("Quoting")
struct QuotingTests {
    // MARK: - Bare words

    @Test(
        "a value is bare unless it is empty or holds a space, tab, double quote, backslash or control character",
        arguments: [
            ("app", true), ("27.1", true), ("token:ci", true), ("P1,P2", true), ("é", true), ("日本", true),
            ("🍺", true), ("-", true), ("x\u{A0}y", true), ("", false), (" ", false), ("a b", false),
            ("\t", false), ("a\tb", false), ("\"", false), ("a\"b", false), ("\\", false), ("a\\b", false),
            ("\n", false), ("\r", false), ("\u{0}", false), ("\u{1B}", false), ("\u{1F}", false), ("\u{7F}", false),
        ]
    )
    func isBare(value: String, isBare: Bool) {
        #expect(Quoting.isBare(value) == isBare)
    }

    @Test(
        "a key is a lower-case letter, then lower-case letters, digits, '-' or '_'",
        arguments: [
            ("a", true), ("sdk", true), ("deployment-target", true), ("pool_size", true), ("a1", true),
            ("x-1_y", true), ("z-", true), ("", false), ("A", false), ("Sdk", false), ("sdK", false), ("1a", false),
            ("-a", false), ("_a", false), ("a.b", false), ("a b", false), ("é", false), ("a=", false), ("a\t", false),
        ]
    )
    func isKey(key: String, isKey: Bool) {
        #expect(Quoting.isKey(key) == isKey)
        #expect(Quoting.isKey(key[...]) == isKey)
    }

    // MARK: - Quoting

    @Test(
        "quote leaves bare words alone and quotes the rest with the four escapes",
        arguments: [
            ("app", "app"),
            ("🍺", "🍺"),
            ("", #""""#),
            ("a b", #""a b""#),
            ("a\tb", #""a\tb""#),
            ("line\nbreak", #""line\nbreak""#),
            ("say \"hi\"", #""say \"hi\"""#),
            ("\"", #""\"""#),
            ("\\", #""\\""#),
            ("C:\\dir", #""C:\\dir""#),
            ("\\n", #""\\n""#),
            ("héllo wörld", #""héllo wörld""#),
            ("a\"b\\c\nd\te", #""a\"b\\c\nd\te""#),
        ]
    )
    func quote(value: String, word: String) {
        #expect(Quoting.quote(value) == word)
    }

    @Test(
        "control characters other than LF and TAB cannot be carried and become spaces",
        arguments: [
            ("a\rb", #""a b""#, "a b"),
            ("\r\n", #"" \n""#, " \n"),
            ("\u{0}", #"" ""#, " "),
            ("x\u{1B}y", #""x y""#, "x y"),
            ("bell\u{7}", #""bell ""#, "bell "),
            ("del\u{7F}", #""del ""#, "del "),
        ]
    )
    func controlCharacters(value: String, word: String, readBack: String) throws {
        #expect(Quoting.quote(value) == word)
        #expect(try Quoting.tokenize(word) == [.word(readBack)])
    }

    @Test(
        "a value is quoted by protocol.md's rule read by scalar, appended as bytes or made a string, controls included",
        arguments: trickyStrings + trickyKeyLikeStrings + ["\r", "\u{0}", "\u{1B}[31m", "a\u{7F}b", "\u{1F}é\u{1}"])
    func appendValue(value: String) {
        // The rule by scalar, as protocol.md states it: the oracle for the byte-level writer.
        var expected = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": expected += "\\\""
            case "\\": expected += "\\\\"
            case "\n": expected += "\\n"
            case "\t": expected += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: expected += " "
            default: expected.unicodeScalars.append(scalar)
            }
        }
        expected += "\""
        if Quoting.isBareValue(value) { expected = value }
        var buffer: [UInt8] = Array("k=".utf8)
        Quoting.appendValue(value, to: &buffer)
        #expect(buffer == Array(("k=" + expected).utf8))
        #expect(Quoting.quoteValue(value) == expected)
    }

    @Test("a quoted word never holds a raw control character, so it passes line validation", arguments: trickyStrings)
    func quotedHasNoControlCharacters(value: String) {
        let word = Quoting.quote(value)
        #expect(!word.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(word.debugDescription)")
    }

    // MARK: - Tokenizing

    private static let validLines: [(String, [Quoting.Token])] = [
        ("", []),
        ("   \t ", []),
        ("PING", [.word("PING")]),
        ("PROJECT CREATE app", [.word("PROJECT"), .word("CREATE"), .word("app")]),
        ("  a \t b\t\tc  ", [.word("a"), .word("b"), .word("c")]),
        ("a\tb", [.word("a"), .word("b")]),
        ("héllo wörld 🍺", [.word("héllo"), .word("wörld"), .word("🍺")]),
        ("a\u{A0}b", [.word("a\u{A0}b")]),
        ("sdk=27.0", [.keyword("sdk", "27.0")]),
        (
            "PROJECT CREATE app sdk=27.0 deployment-target=26.0",
            [
                .word("PROJECT"), .word("CREATE"), .word("app"), .keyword("sdk", "27.0"),
                .keyword("deployment-target", "26.0"),
            ]
        ),
        ("pool_size=4 x-1=y", [.keyword("pool_size", "4"), .keyword("x-1", "y")]),
        (#"title="Inbox list""#, [.keyword("title", "Inbox list")]),
        (#"x title="Inbox list" y"#, [.word("x"), .keyword("title", "Inbox list"), .word("y")]),
        ("x\ttitle=\"a b\"\ty", [.word("x"), .keyword("title", "a b"), .word("y")]),
        ("reason=", [.keyword("reason", "")]),
        ("reason= next", [.keyword("reason", ""), .word("next")]),
        (#"reason="""#, [.keyword("reason", "")]),
        (#"k="a=b""#, [.keyword("k", "a=b")]),
        ("a==b", [.keyword("a", "=b")]),
        ("a=b=c", [.keyword("a", "b=c")]),
        ("k=\"tab\there\"", [.keyword("k", "tab\there")]),
        (#""a=b""#, [.word("a=b")]),
        (#""key=value" key=value"#, [.word("key=value"), .keyword("key", "value")]),
        ("Key=value", [.word("Key=value")]),
        ("SDK=27.1", [.word("SDK=27.1")]),
        ("sdK=1", [.word("sdK=1")]),
        ("1a=b", [.word("1a=b")]),
        ("-a=b", [.word("-a=b")]),
        ("a.b=c", [.word("a.b=c")]),
        ("é=x", [.word("é=x")]),
        ("=", [.word("=")]),
        ("=x", [.word("=x")]),
        (#""a b""#, [.word("a b")]),
        (#""""#, [.word("")]),
        (#""" """#, [.word(""), .word("")]),
        (#""a" "b""#, [.word("a"), .word("b")]),
        ("\"a\"\t\"b\"", [.word("a"), .word("b")]),
        ("\"tab\there\"", [.word("tab\there")]),
        (#""\"" "\\" "\n" "\t""#, [.word("\""), .word("\\"), .word("\n"), .word("\t")]),
        (#""a\"b\\c\nd\te""#, [.word("a\"b\\c\nd\te")]),
        (#""\\n""#, [.word("\\n")]),
        (#"k="\"quoted\"""#, [.keyword("k", "\"quoted\"")]),
        (#"PROJECT SHOW "my app""#, [.word("PROJECT"), .word("SHOW"), .word("my app")]),
        (#""é 日本 🍺""#, [.word("é 日本 🍺")]),
    ]

    @Test("splits a line into positional words and keywords", arguments: validLines)
    func tokenize(line: String, tokens: [Quoting.Token]) throws {
        #expect(try Quoting.tokenize(line) == tokens)
    }

    @Test(
        "malformed quoting is a bad line that says what is wrong",
        arguments: [
            (#"""#, "not closed"),
            (#""abc"#, "not closed"),
            (#"PING "unterminated"#, "not closed"),
            (#"k="abc"#, "not closed"),
            (#""a\""#, "not closed"),
            (#""\x""#, "unknown escape"),
            (#""\ ""#, "unknown escape"),
            (#""\r""#, "unknown escape"),
            (#""\0""#, "unknown escape"),
            (#""\'""#, "unknown escape"),
            (#""\N""#, "unknown escape"),
            (#""\u0041""#, "unknown escape"),
            // A backslash that ends the line inside quotes leaves the quote open.
            (#""abc\"#, "not closed"),
            (#"k="\x""#, "unknown escape"),
            (#"a\b"#, "backslash"),
            (#"\"#, "backslash"),
            (#"\n"#, "backslash"),
            (#"k=a\b"#, "backslash"),
            (#"PING \"x\""#, "backslash"),
            (#"a"b"#, "double quote inside a bare word"),
            (#"a""#, "double quote inside a bare word"),
            (#"a"b""#, "double quote inside a bare word"),
            (#"Key="x""#, "double quote inside a bare word"),
            (#"1a="x""#, "double quote inside a bare word"),
            (#"k=a"b""#, "double quote inside a bare word"),
            (#"="x""#, "double quote inside a bare word"),
            (#""a"b"#, "must end its word"),
            (#""a""b""#, "must end its word"),
            (#"""x"#, "must end its word"),
            (#"k="a"b"#, "must end its word"),
            (#"k="a"="b""#, "must end its word"),
            (#""a"\"#, "must end its word"),
            (#"PING ok "bad"#, "not closed"),
        ]
    )
    func malformed(line: String, fragment: String) {
        let error = #expect(throws: ProtocolError.self) { try Quoting.tokenize(line) }
        guard case .badLine(let reason) = error else {
            Issue.record("expected badLine, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(fragment), "\(reason)")
        #expect(error?.code == .badLine)
    }

    // MARK: - Round trips

    @Test("quote then tokenize gives a positional word back", arguments: trickyStrings)
    func positionalRoundTrip(value: String) throws {
        #expect(try Quoting.tokenize(Quoting.quote(value)) == [.word(value)])
    }

    @Test("quote then tokenize gives a keyword value back", arguments: trickyStrings + trickyKeyLikeStrings)
    func keywordRoundTrip(value: String) throws {
        #expect(try Quoting.tokenize("k=" + Quoting.quote(value)) == [.keyword("k", value)])
    }

    @Test("many quoted words on one line come back in order")
    func manyWordsRoundTrip() throws {
        let line = trickyStrings.map(Quoting.quote).joined(separator: " ")
        #expect(try Quoting.tokenize(line) == trickyStrings.map(Quoting.Token.word))
        let tabbed = trickyStrings.map { "k=" + Quoting.quote($0) }.joined(separator: "\t")
        #expect(try Quoting.tokenize(tabbed) == trickyStrings.map { .keyword("k", $0) })
    }

    @Test(
        "quote then tokenize gives a key-like positional word back",
        arguments: trickyKeyLikeStrings
    )
    func keyLikePositionalRoundTrip(value: String) throws {
        #expect(try Quoting.tokenize(Quoting.quote(value)) == [.word(value)])
    }
}
