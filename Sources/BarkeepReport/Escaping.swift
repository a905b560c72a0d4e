/// Escaping of untrusted text (snippets, titles, reasons, keys) for the report's output formats.
enum Escaping {
    // MARK: - XML, XHTML, SVG

    /// Text safe inside an element or a double- or single-quoted attribute. Characters XML 1.0 cannot hold at all
    /// (most C0 controls) become U+FFFD; tab, line feed and carriage return are kept.
    static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `xml(_:)`, and the `h` of any `http` written as a character reference, so the HTML report holds no string a
    /// checker could take for an external URL, while a reader (or a parser) still sees the same text.
    static func html(_ text: String) -> String {
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
    /// and line breaks become spaces so a value never ends a paragraph, list item or table row.
    static func markdown(_ text: String) -> String {
        var result = ""
        for character in singleLine(text) {
            if "\\`*_[]<>|&#~!".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A CommonMark code span showing `text` literally: the fence is one backtick longer than the longest run of
    /// backticks inside, padded with a space when the text starts or ends with a backtick (or a space). With
    /// `inTable`, `|` is written `\|`, which a GFM table turns back into `|` before reading the span.
    static func codeSpan(_ text: String, inTable: Bool) -> String {
        var content = singleLine(text)
        if inTable { content = escapingPipes(content) }
        var longest = 0
        var run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let needsPadding =
            content.hasPrefix("`") || content.hasSuffix("`")
            || (content.hasPrefix(" ") && content.hasSuffix(" ") && !content.allSatisfy { $0 == " " })
        let padding = needsPadding ? " " : ""
        // An empty span is not a code span in CommonMark: show a visible placeholder instead.
        guard !content.isEmpty else { return "` `" }
        return fence + padding + content + padding + fence
    }

    /// `|` as `\|` for a GFM table cell. A table reads a backslash and the character after it as a pair, so a pipe
    /// after an odd run of backslashes gets one more backslash: the cell then always ends where the table expects,
    /// at the price of showing that one extra backslash (code spans have no other way to hold `\|` in a table).
    static func escapingPipes(_ text: String) -> String {
        var result = ""
        var backslashes = 0
        for character in text {
            if character == "|" {
                if backslashes % 2 == 1 { result.append("\\") }
                result += "\\|"
                backslashes = 0
                continue
            }
            backslashes = character == "\\" ? backslashes + 1 : 0
            result.append(character)
        }
        return result
    }

    /// Line breaks (and other vertical white space) as single spaces.
    static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
