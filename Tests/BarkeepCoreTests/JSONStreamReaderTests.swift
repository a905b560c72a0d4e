import BarkeepCore
import Testing

/// The streaming reader behind the duo_scan and SDK check parsers, driven through `DuoScanParser`: grammar, nesting,
/// duplicate keys, numbers, strings with escapes and surrogates, truncated input.
struct JSONStreamReaderTests {
    /// `value` as a member the parser skips.
    static func skipped(_ value: String) -> [UInt8] {
        Array(#"{"tool":"x","findings":[],"extra":\#(value)}"#.utf8)
    }

    /// Twenty members `"k0":0` … `"k19":0`.
    static let manyKeys = (0..<20).map { #""k\#($0)":0"# }.joined(separator: ",")

    /// `value` as the tool name, which the parser reads.
    static func tool(_ value: String) -> [UInt8] {
        Array(#"{"tool":\#(value),"findings":[]}"#.utf8)
    }

    static func problem(_ bytes: [UInt8]) -> (path: String, problem: String)? {
        do {
            _ = try DuoScanParser.parse(bytes)
            return nil
        } catch {
            guard case .invalidDocument(let path, let problem) = error else { return ("?", "\(error)") }
            return (path, problem)
        }
    }

    @Test(
        "values that are JSON are read past",
        arguments: [
            "0", "-0", "12.5e-3", "1E+9", "true", "false", "null", "[]", "{}", "[1,[2,{\"a\":[null]}]]",
            #""\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#, " \t\r\n [ 1 , 2 ] ", "\"\u{10FFFF}\"",
        ])
    func accepted(_ value: String) throws {
        let report = try DuoScanParser.parse(Self.skipped(value))
        #expect(report.tool == "x")
    }

    @Test(
        "garbage and truncations are not valid JSON, with an empty path",
        arguments: [
            "", "01", "1.", "1e", "-", "+1", ".5", "tru", "nul", "NaN", "Infinity", "'a'", "[1,]", "[1 2]", "{\"a\"}",
            "{\"a\":1,}", "{a:1}", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"",
            "\"\u{01}\"", "[", "{\"a\":", "1 2",
        ])
    func garbage(_ value: String) {
        let result = Self.problem(Self.skipped(value))
        #expect(result?.path == "", "\(value)")
        #expect(result?.problem.hasPrefix("not valid JSON (") == true, "\(value): \(String(describing: result))")
    }

    @Test("bytes that are not UTF-8 in a string are not valid JSON")
    func invalidUTF8() {
        var bytes = Array(#"{"tool":"x","findings":[],"extra":""#.utf8)
        bytes += [0xC3, 0x28, UInt8(ascii: "\""), UInt8(ascii: "}")]
        #expect(Self.problem(bytes)?.problem.hasPrefix("not valid JSON (a string that is not valid UTF-8") == true)
    }

    @Test("strings decode escapes and surrogate pairs")
    func strings() throws {
        let report = try DuoScanParser.parse(Self.tool(#""a\"b\\c\/d\u00e9\ud83d\ude00\n""#))
        #expect(report.tool == "a\"b\\c/dé😀\n")
    }

    @Test("nesting up to 64 levels is read; deeper is refused")
    func nesting() {
        let deep = { (levels: Int) in String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        // The document's own object is one level.
        #expect(Self.problem(Self.skipped(deep(63))) == nil)
        let refused = Self.problem(Self.skipped(deep(64)))
        #expect(refused?.problem == "not valid JSON (nesting deeper than 64 levels at byte 97)")
        #expect(Self.problem(Self.skipped(deep(100_000)))?.path == "")
    }

    @Test(
        "a key twice in any object is refused, naming the key and its place",
        arguments: [
            (#"{"tool":"x","findings":[],"findings":[]}"#, "findings"),
            (#"{"tool":"x","tool":"y","findings":[]}"#, "tool"),
            (#"{"tool":"x","findings":[],"extra":{"a":1,"b":{"c":1,"c":2}}}"#, "extra.b.c"),
            (
                #"{"tool":"x","findings":[{"rule":"R","severity":"low","file":"f","line":1,"line":2,"snippet":""}]}"#,
                "findings[0].line"
            ),
            (#"{"tool":"x","findings":[],"project":{"lifecycle":"a","lifecycle":"b"}}"#, "project.lifecycle"),
            // Past 16 keys the reader keeps them in a set: a duplicate of the first or of a late key is still found.
            (#"{"tool":"x","findings":[],"extra":{\#(JSONStreamReaderTests.manyKeys),"k0":0}}"#, "extra.k0"),
            (#"{"tool":"x","findings":[],"extra":{\#(JSONStreamReaderTests.manyKeys),"k19":0}}"#, "extra.k19"),
        ])
    func duplicateKeys(document: String, path: String) {
        let result = Self.problem(Array(document.utf8))
        #expect(result?.path == path)
        #expect(result?.problem == "duplicate key")
    }

    @Test(
        "integers: the old rules of the limit and of integral numbers",
        arguments: [
            ("1", nil), ("2147483647", nil), ("2147483648", "expected an integer of at most 2147483647"),
            ("12.0", nil), ("1e3", nil), ("12.5", "expected an integer"), ("0", "expected a positive integer"),
            ("true", "expected an integer"), ("\"1\"", "expected an integer"),
            (String(repeating: "9", count: 100_000), "expected an integer"),
        ] as [(String, String?)])
    func integers(value: String, problem: String?) {
        let document =
            #"{"tool":"x","findings":[{"rule":"R","severity":"low","file":"f","line":\#(value),"snippet":""}]}"#
        let result = Self.problem(Array(document.utf8))
        #expect(result?.problem == problem, "\(value.prefix(20))")
        if problem != nil { #expect(result?.path == "findings[0].line") }
    }

    @Test("a message quotes at most a short prefix of the document, however long the offending value")
    func shortMessages() {
        let long = String(repeating: "x", count: 1 << 20)
        for document in [long, "{\"tool\":" + long, "{\"tool\":\"x\",\"findings\":[]} " + long] {
            let result = Self.problem(Array(document.utf8))
            #expect(result?.problem.hasPrefix("not valid JSON (") == true)
            #expect((result?.problem.count ?? 0) < 120)
        }
    }

    @Test("a refused document is checked whole before any finding is kept: the last finding's problem wins")
    func lastFinding() {
        let good = #"{"rule":"R","severity":"low","file":"f","line":1,"snippet":""}"#
        let findings = Array(repeating: good, count: 1000) + [#"{"rule":"R","severity":"low","file":"f","line":-1}"#]
        let document = #"{"tool":"x","findings":[\#(findings.joined(separator: ","))]}"#
        let result = Self.problem(Array(document.utf8))
        #expect(result?.path == "findings[1000].line")
        #expect(result?.problem == "expected a positive integer")
    }
}
