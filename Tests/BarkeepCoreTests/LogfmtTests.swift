import BarkeepCore
import Testing

@Suite("Logfmt")
struct LogfmtTests {
    @Test(
        "bare words are left as they are",
        arguments: ["ready", "127.0.0.1:7780", "/var/lib/barkeep/data", "a-b_c.d", "héllo", "日本", "🍺", "0", "-"]
    )
    func bareWords(value: String) {
        #expect(Logfmt.quote(value) == value)
    }

    @Test(
        "values that would break a logfmt line are quoted and escaped",
        arguments: [
            ("", #""""#),
            ("two words", #""two words""#),
            (" leading", #"" leading""#),
            ("trailing ", #""trailing ""#),
            ("a=b", #""a=b""#),
            ("say \"hi\"", #""say \"hi\"""#),
            ("\"", #""\"""#),
            (#"C:\dir"#, #""C:\\dir""#),
            ("line\nbreak", #""line\nbreak""#),
            ("crlf\r\n", #""crlf\r\n""#),
            ("tab\there", #""tab\there""#),
            ("nul\u{0}", #""nul\u0000""#),
            ("bell\u{7}", #""bell\u0007""#),
            ("\u{1B}[31mred", #""\u001b[31mred""#),
            ("unit\u{1F}sep", #""unit\u001fsep""#),
            ("del\u{7F}", #""del\u007f""#),
            ("héllo wörld", #""héllo wörld""#),
            ("key=\"v\" \\ \n", #""key=\"v\" \\ \n""#),
        ]
    )
    func quoted(value: String, expected: String) {
        #expect(Logfmt.quote(value) == expected)
    }

    @Test(
        "a quoted value never holds a raw control character, space outside quotes, or unescaped quote",
        arguments: ["a\nb", "\r", "\u{0}\u{1}\u{2}", "x\u{7F}y", "\"\"", "a \"b\" c", "\\\"", "\t\n\r\u{B}\u{C}"]
    )
    func quotedIsOneToken(value: String) {
        let quoted = Logfmt.quote(value)
        #expect(quoted.hasPrefix("\"") && quoted.hasSuffix("\"") && quoted.count >= 2)
        #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        // Between the outer quotes every `"` is escaped: walk the escapes and find no bare quote.
        var scalars = Array(quoted.unicodeScalars.dropFirst().dropLast())[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\\" {
                #expect(scalars.popFirst() != nil, "dangling backslash in \(quoted)")
            } else {
                #expect(scalar != "\"", "bare quote in \(quoted)")
            }
        }
    }
}
