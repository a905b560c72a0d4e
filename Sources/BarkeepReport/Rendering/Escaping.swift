import BarkeepCore

/// Escaping of untrusted text (snippets, titles, reasons, keys) for the report's output formats. Each format also
/// neutralises what the terminal output does (Core's TerminalText: controls, bidirectional overrides, line and
/// paragraph separators become visible `<U+XXXX>` marks), keeping only the white space it holds itself: a report
/// read in a terminal, an editor or a browser shows a scan's text as it is, never reordered or with escape codes.
public enum Escaping {
    // MARK: - XML, XHTML, SVG

    /// Text safe inside an element or a double- or single-quoted attribute: tab, line feed and carriage return are
    /// kept, every other scalar TerminalText neutralises (the C0 controls XML 1.0 cannot hold among them) is its
    /// visible mark, and the two noncharacters XML cannot hold (U+FFFE, U+FFFF) become U+FFFD.
    public static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in TerminalText.neutralized(text, keeping: isXMLWhiteSpace).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case _ where scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The white space XML holds as it is, and Markdown as a space or itself: tab, line feed, carriage return.
    private static func isXMLWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// `xml(_:)`, and the `h` of any `http` written as a character reference, so the HTML report holds no string a
    /// checker could take for an external URL, while a reader (or a parser) still sees the same text.
    public static func html(_ text: String) -> String {
        let escaped = xml(text)
        guard escaped.range(of: "http", options: .caseInsensitive) != nil else { return escaped }
        var result = ""
        var rest = Substring(escaped)
        while let range = rest.range(of: "http", options: .caseInsensitive) {
            result += rest[..<range.lowerBound]
            let first = rest.unicodeScalars[range.lowerBound].value
            result += "&#\(first);" + rest[rest.index(after: range.lowerBound)..<range.upperBound]
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    // MARK: - Markdown (CommonMark, GFM tables)

    /// Text safe in Markdown prose and table cells: every ASCII punctuation character that could start markup is
    /// backslash-escaped (CommonMark allows a backslash before any ASCII punctuation), `|` included so tables hold,
    /// and line breaks become spaces so a value never ends a paragraph, list item or table row. Markdown reads code
    /// points, not characters: a `|` a combining mark follows is escaped too. Every character it escapes is ASCII, so
    /// the work is done on UTF-8 bytes (no byte of a longer scalar is ASCII).
    static func markdown(_ text: String) -> String {
        let line = singleLine(text)
        guard line.utf8.contains(where: isMarkdownPunctuation) else { return line }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count + 16)
        for byte in line.utf8 {
            if isMarkdownPunctuation(byte) { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ASCII punctuation `markdown(_:)` escapes: what could start markup in prose or end a table cell.
    private static func isMarkdownPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "&"),
            UInt8(ascii: "#"), UInt8(ascii: "~"), UInt8(ascii: "!"):
            true
        default: false
        }
    }

    /// A CommonMark code span showing `text` literally: the fence is one backtick longer than the longest run of
    /// backticks inside, padded with a space when the text starts or ends with a backtick (or a space). With
    /// `inTable`, `|` is written `\|`, which a GFM table turns back into `|` before reading the span.
    static func codeSpan(_ text: String, inTable: Bool) -> String {
        var content = singleLine(text)
        if inTable { content = escapingPipes(content) }
        // An empty span is not a code span in CommonMark: show a visible placeholder instead.
        guard let first = content.utf8.first, let last = content.utf8.last else { return "` `" }
        var longest = 0
        var run = 0
        for byte in content.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let tick = UInt8(ascii: "`")
        let space = UInt8(ascii: " ")
        let needsPadding =
            first == tick || last == tick
            || (first == space && last == space && content.utf8.contains { $0 != space })
        let padding = needsPadding ? " " : ""
        return fence + padding + content + padding + fence
    }

    /// `|` as `\|` for a GFM table cell. A table reads a backslash and the character after it as a pair, so a pipe
    /// after an odd run of backslashes gets one more backslash: the cell then always ends where the table expects,
    /// at the price of showing that one extra backslash (code spans have no other way to hold `\|` in a table).
    static func escapingPipes(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "|")) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 8)
        var backslashes = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "|") {
                if backslashes % 2 == 1 { result.append(UInt8(ascii: "\\")) }
                result.append(UInt8(ascii: "\\"))
                backslashes = 0
            } else {
                backslashes = byte == UInt8(ascii: "\\") ? backslashes + 1 : 0
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What TerminalText neutralises but tab, line feed and carriage return as its visible mark (U+2028, U+2029 and
    /// the other controls among them), then each line feed, carriage return, or the pair of them as a single space:
    /// the one line a Markdown value may take.
    static func singleLine(_ text: String) -> String {
        let kept = TerminalText.neutralized(text, keeping: isXMLWhiteSpace)
        let lineFeed = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        guard kept.utf8.contains(where: { $0 == lineFeed || $0 == carriageReturn }) else { return kept }
        var result: [UInt8] = []
        result.reserveCapacity(kept.utf8.count)
        var previous: UInt8 = 0
        for byte in kept.utf8 {
            switch byte {
            case lineFeed where previous == carriageReturn: break
            case lineFeed, carriageReturn: result.append(UInt8(ascii: " "))
            default: result.append(byte)
            }
            previous = byte
        }
        return String(decoding: result, as: UTF8.self)
    }
}
