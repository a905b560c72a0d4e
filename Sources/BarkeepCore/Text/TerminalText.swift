/// Text from elsewhere (scan content, names, reasons) made safe to show on a terminal or quote in a message:
/// control characters, bidirectional overrides and the Unicode line and paragraph separators become visible
/// `<U+XXXX>` marks, so a value can neither send escape sequences to the terminal, nor reorder what is around it, nor
/// break the line it is shown on. The one home of that rule: the CLI's text output, the dashboard, `watch`, the
/// readiness report (Markdown and HTML) and the CLI's JSON (as `\uXXXX` escapes) all take it from here.
public enum TerminalText {
    /// Whether `scalar` is neutralised: C0 controls (tab and line feed included: a value never breaks a cell or a
    /// line), DEL, C1 controls (U+0080–U+009F, an 8-bit CSI and NEL among them), the line and paragraph separators
    /// (U+2028, U+2029: some terminals and editors break a line there), and the bidirectional marks, embeddings,
    /// overrides and isolates (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069).
    public static func isNeutralized(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E...0x200F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069:
            true
        default: false
        }
    }

    /// `text` with every neutralised scalar written as `<U+XXXX>`; `text` itself when it holds none.
    public static func neutralized(_ text: String) -> String {
        neutralized(text, keeping: { _ in false })
    }

    /// `text` with every neutralised scalar but those `kept` says to keep written as `<U+XXXX>`: how a format that
    /// holds some controls itself (XML keeps tab, line feed and carriage return) applies the same rule.
    public static func neutralized(_ text: String, keeping kept: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: { isNeutralized($0) && !kept($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isNeutralized(scalar) && !kept(scalar) {
                result.append(contentsOf: mark(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The visible mark of `scalar`: `<U+202E>`.
    public static func mark(_ scalar: Unicode.Scalar) -> String {
        "<U+" + hex(scalar) + ">"
    }

    /// `scalar`'s code point as at least four upper-case hexadecimal digits: `202E`.
    public static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
