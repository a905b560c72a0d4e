import Testing

@testable import BarkeepReport

@Suite("Escaping")
struct EscapingTests {
    @Test(
        "XML text and attributes",
        arguments: [
            ("plain", "plain"), ("a & b", "a &amp; b"), ("<tag attr=\"x\">", "&lt;tag attr=&quot;x&quot;&gt;"),
            ("it's", "it&#39;s"), ("&amp;", "&amp;amp;"), ("tab\tline\nend", "tab\tline\nend"),
            ("bell\u{07}nul\u{00}", "bell\u{FFFD}nul\u{FFFD}"), ("é 日本 🍺", "é 日本 🍺"),
        ]
    )
    func xml(text: String, expected: String) {
        #expect(Escaping.xml(text) == expected)
    }

    @Test(
        "HTML text never spells a URL scheme out",
        arguments: [
            ("see https://example.com", "see &#104;ttps://example.com"), ("HTTP/1.1", "&#72;TTP/1.1"),
            ("hthttp", "ht&#104;ttp"), ("<http>", "&lt;&#104;ttp&gt;"), ("nothing", "nothing"),
        ]
    )
    func html(text: String, expected: String) {
        #expect(Escaping.html(text) == expected)
        #expect(!Escaping.html(text).lowercased().contains("http"))
    }

    @Test(
        "Markdown prose",
        arguments: [
            ("plain words", "plain words"), ("a | b", "a \\| b"), ("`code`", "\\`code\\`"), ("<b>", "\\<b\\>"),
            ("a & b", "a \\& b"), ("*em* _em_", "\\*em\\* \\_em\\_"), ("[link](x)", "\\[link\\](x)"),
            ("# title", "\\# title"), ("back\\slash", "back\\\\slash"), ("two\nlines", "two lines"),
            ("![img]", "\\!\\[img\\]"), ("~~strike~~", "\\~\\~strike\\~\\~"),
        ]
    )
    func markdown(text: String, expected: String) {
        #expect(Escaping.markdown(text) == expected)
    }

    @Test(
        "Markdown code spans",
        arguments: [
            ("x", false, "`x`"), ("a `b` c", false, "``a `b` c``"), ("`tick`", false, "`` `tick` ``"),
            ("a``b", false, "```a``b```"), ("a | b", false, "`a | b`"), ("a | b", true, "`a \\| b`"),
            ("a \\| b", true, "`a \\\\\\| b`"), ("a \\\\| b", true, "`a \\\\\\| b`"),
            (" padded ", false, "`  padded  `"),
            ("   ", false, "`   `"), ("", false, "` `"), ("line\nbreak", false, "`line break`"),
        ] as [(String, Bool, String)]
    )
    func codeSpan(text: String, inTable: Bool, expected: String) {
        #expect(Escaping.codeSpan(text, inTable: inTable) == expected)
    }
}
