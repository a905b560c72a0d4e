import BarkeepCore

/// An ANSI text attribute. Colour never changes the text itself: rendering without colour drops the codes only.
enum TerminalStyle: Sendable {
    /// Bold.
    case bold
    /// Red (critical findings, failed poses).
    case red
    /// Green (done).
    case green

    /// The escape sequence that turns the attribute on.
    var code: String {
        switch self {
        case .bold: "\u{1B}[1m"
        case .red: "\u{1B}[31m"
        case .green: "\u{1B}[32m"
        }
    }

    /// The sequence that turns every attribute off.
    static let reset = "\u{1B}[0m"
}

/// Terminal text made of spans that may each carry a style; its width is that of the plain text.
struct StyledText: Sendable, ExpressibleByStringLiteral {
    /// A run of text with at most one style.
    struct Span: Sendable {
        /// The text.
        var text: String
        /// Its style, if any.
        var style: TerminalStyle?

        /// A span of `text`, control characters and bidirectional overrides made visible (TerminalText): only
        /// `rendered` adds escape codes.
        init(text: String, style: TerminalStyle?) {
            self.text = TerminalText.neutralized(text)
            self.style = style
        }
    }

    /// The spans in order.
    var spans: [Span]

    /// Text made of spans.
    init(_ spans: [Span] = []) { self.spans = spans }

    /// Plain text, or text in one style.
    init(_ text: String, _ style: TerminalStyle? = nil) { spans = [Span(text: text, style: style)] }

    /// Plain text from a literal.
    init(stringLiteral value: String) { self.init(value) }

    /// The text without styles.
    var plain: String { spans.map(\.text).joined() }

    /// Columns the text takes (one per character: the dashboard's symbols are all single-width).
    var width: Int { spans.reduce(0) { $0 + $1.text.count } }

    /// The text with escape codes around styled spans when `colored`.
    func rendered(colored: Bool) -> String {
        spans.map { span in
            guard colored, let style = span.style, !span.text.isEmpty else { return span.text }
            return style.code + span.text + TerminalStyle.reset
        }.joined()
    }

    /// Appends text.
    static func + (lhs: StyledText, rhs: StyledText) -> StyledText { StyledText(lhs.spans + rhs.spans) }

    /// Joins pieces with a plain separator.
    static func joined(_ pieces: [StyledText], separator: String) -> StyledText {
        var result = StyledText()
        for (index, piece) in pieces.enumerated() {
            if index > 0 { result.spans.append(Span(text: separator, style: nil)) }
            result.spans += piece.spans
        }
        return result
    }
}

/// Column arithmetic for terminal output.
enum TerminalLayout {
    /// `text` cut to `width` characters, an ellipsis marking the cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width, width > 0 else { return text }
        return String(text.prefix(width - 1)) + "…"
    }

    /// Spaces.
    static func spaces(_ count: Int) -> String { String(repeating: " ", count: max(0, count)) }

    /// Pieces joined with ` · `, broken into lines of at most `width` columns (a piece wider than that gets a line
    /// of its own).
    static func wrap(_ pieces: [StyledText], width: Int) -> [StyledText] {
        var lines: [StyledText] = []
        var current: [StyledText] = []
        var currentWidth = 0
        for piece in pieces {
            let added = current.isEmpty ? piece.width : currentWidth + 3 + piece.width
            if !current.isEmpty, added > width {
                lines.append(.joined(current, separator: " · "))
                current = [piece]
                currentWidth = piece.width
            } else {
                current.append(piece)
                currentWidth = added
            }
        }
        if !current.isEmpty { lines.append(.joined(current, separator: " · ")) }
        return lines
    }

    /// `50%`, `<1%`, `>99%` (Core's `Percentage`); nil when there is nothing to count.
    static func percent(_ part: Int, of whole: Int) -> String? { Percentage.text(part, of: whole) }
}
