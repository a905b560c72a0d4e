import BarkeepCore
import Testing

@Suite("TerminalText")
struct TerminalTextTests {
    @Test(
        "controls and bidirectional overrides become visible marks; other text is untouched",
        arguments: [
            ("plain text · ✓", "plain text · ✓"),
            ("a\u{9B}31mb", "a<U+009B>31mb"),
            ("\u{1B}[2Jx", "<U+001B>[2Jx"),
            ("tab\there\nline\r", "tab<U+0009>here<U+000A>line<U+000D>"),
            ("abc\u{202E}fed", "abc<U+202E>fed"),
            ("\u{2066}\u{2067}\u{2068}\u{2069}", "<U+2066><U+2067><U+2068><U+2069>"),
            ("\u{202A}\u{202B}\u{202C}\u{202D}", "<U+202A><U+202B><U+202C><U+202D>"),
            ("\u{200E}\u{200F}\u{061C}\u{7F}\u{85}", "<U+200E><U+200F><U+061C><U+007F><U+0085>"),
            ("one\u{2028}two\u{2029}three", "one<U+2028>two<U+2029>three"),
            ("e\u{301}", "e\u{301}"),
        ]
    )
    func neutralized(input: String, expected: String) {
        #expect(TerminalText.neutralized(input) == expected)
    }

}
