import BarkeepCore
import Testing

@Suite("ValueExcerpt")
struct ValueExcerptTests {
    @Test("a value of up to 40 scalars is quoted whole; a longer one is cut, with its length in bytes")
    func quoted() {
        #expect(ValueExcerpt.quoted("short") == "'short'")
        let forty = String(repeating: "x", count: 40)
        #expect(ValueExcerpt.quoted(forty) == "'\(forty)'")
        #expect(
            ValueExcerpt.quoted(String(repeating: "a", count: 8 << 20))
                == "'\(forty.replacing("x", with: "a"))…' (8388608 bytes)")
        #expect(ValueExcerpt.quoted(forty + "é") == "'\(forty)…' (42 bytes)")
        #expect(ValueExcerpt.quoted(Substring("")) == "''")
    }

    @Test("what it shows is neutralised, and one character of many combining marks is still cut short")
    func neutralisedAndScalars() {
        #expect(ValueExcerpt.quoted("\u{9B}" + String(repeating: "y", count: 50)).hasPrefix("'<U+009B>yyy"))
        #expect(ValueExcerpt.quoted("a\u{202E}b") == "'a<U+202E>b'")
        let marks = "e" + String(repeating: "\u{301}", count: 100_000)
        let quoted = ValueExcerpt.quoted(marks)
        #expect(quoted.utf8.count < 120)
        #expect(quoted.hasSuffix("…' (200001 bytes)"))
    }
}
