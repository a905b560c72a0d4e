import Testing

@testable import BarkeepReport

@Suite("Escaping")
struct EscapingTests {
    @Test(
        "XML text and attributes",
        arguments: [
            ("plain", "plain"), ("a & b", "a &amp; b"), ("<tag attr=\"x\">", "&lt;tag attr=&quot;x&quot;&gt;"),
            ("it's", "it&#39;s"), ("&amp;", "&amp;amp;"), ("tab\tline\nend", "tab\tline\nend"),
            ("bell\u{07}nul\u{00}", "bell&lt;U+0007&gt;nul&lt;U+0000&gt;"), ("é 日本 🍺", "é 日本 🍺"),
            ("csi\u{9B}31m", "csi&lt;U+009B&gt;31m"), ("abc\u{202E}fed", "abc&lt;U+202E&gt;fed"),
            ("one\u{2028}two\u{2029}", "one&lt;U+2028&gt;two&lt;U+2029&gt;"), ("x\u{FFFE}", "x\u{FFFD}"),
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
            ("csi\u{9B}31m", "csi\\<U+009B\\>31m"), ("abc\u{202E}fed", "abc\\<U+202E\\>fed"),
            ("one\u{2028}two\u{2029}three", "one\\<U+2028\\>two\\<U+2029\\>three"),
            ("esc\u{1B}[2J", "esc\\<U+001B\\>\\[2J"),
            // Markdown reads code points: a pipe a combining mark follows still ends a table cell.
            ("a |\u{301} b", "a \\|\u{301} b"), ("café ☕ | 東京", "café ☕ \\| 東京"),
            ("crlf\r\nonce, lfcr\n\rtwice", "crlf once, lfcr  twice"),
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
            ("a\u{9B}b\u{202E}c", true, "`a<U+009B>b<U+202E>c`"), ("p\u{2029}q\r\nr", false, "`p<U+2029>q r`"),
            ("東京|`x`", true, "`` 東京\\|`x` ``"), ("é", false, "`é`"),
            // CommonMark counts backticks by code point: one a combining mark follows still lengthens the fence.
            ("a`\u{301}b", false, "``a`\u{301}b``"), ("`\u{301}", true, "`` `\u{301} ``"),
        ] as [(String, Bool, String)]
    )
    func codeSpan(text: String, inTable: Bool, expected: String) {
        #expect(Escaping.codeSpan(text, inTable: inTable) == expected)
    }
}
