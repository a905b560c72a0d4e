/// A token of Swift or Objective-C source: an identifier or keyword (backticks removed), else one punctuation
/// character or `->`.
struct SourceToken {
    var text: String
    var isIdentifier: Bool
    var line: Int

    /// Whether the token is the punctuation `text`.
    func `is`(_ text: String) -> Bool { !isIdentifier && self.text == text }

    /// Whether the token is the identifier or keyword `word`.
    func isWord(_ word: String) -> Bool { isIdentifier && text == word }
}

/// Splits source into tokens, dropping white space, comments, string and character literals (with their
/// interpolations), Swift's `#/…/#` regex literals and Objective-C preprocessor lines, and counting lines. The
/// string literals that hold one word (`"StatusCell"`, `@"SPNoteCell"`: a nib or reuse identifier) are noted apart.
struct SourceLexer {
    enum Language {
        case swift
        case objectiveC
    }

    private let bytes: [UInt8]
    private let language: Language
    private var position = 0
    private var line = 1
    private var isLineStart = true
    private var tokens: [SourceToken] = []
    private var words: [StringWord] = []

    /// A string literal holding one word: ASCII letters, digits and `_`, at most ``maximumWordLength`` of them.
    struct StringWord {
        /// The index of the token after the literal (the token count at the end of the file).
        var index: Int
        /// The word, without quotes.
        var text: String
    }

    /// The longest word of a string literal that ``StringWord`` notes: a type's name is shorter.
    static let maximumWordLength = 128

    /// Deeper string interpolations than this end the file: only crafted input nests so deep, and recursion must
    /// not exhaust the stack.
    private static let maximumNesting = 64

    static func tokens(of text: String, language: Language) -> [SourceToken] {
        lex(text, language: language).tokens
    }

    /// The tokens of `text`, and the string literals among them that hold one word.
    static func lex(_ text: String, language: Language) -> (tokens: [SourceToken], words: [StringWord]) {
        var lexer = SourceLexer(bytes: Array(text.utf8), language: language)
        lexer.run()
        return (lexer.tokens, lexer.words)
    }

    private init(bytes: [UInt8], language: Language) {
        self.bytes = bytes
        self.language = language
    }

    private func peek(_ offset: Int) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private func hashes(at offset: Int) -> Int {
        var count = 0
        while peek(offset + count) == UInt8(ascii: "#") { count += 1 }
        return count
    }

    private mutating func run() {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\n") {
                line += 1
                position += 1
                isLineStart = true
                continue
            }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == 0x0B
                || byte == 0x0C
            {
                position += 1
                continue
            }
            let isDirective = language == .objectiveC && isLineStart && byte == UInt8(ascii: "#")
            isLineStart = false
            switch byte {
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"): skipLineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"): skipBlockComment()
            case UInt8(ascii: "\""):
                let start = position
                skipString(hashes: 0, nesting: 0)
                noteWord(from: start + 1, to: position - 1)
            case UInt8(ascii: "'") where language == .objectiveC: skipCharacterLiteral()
            case UInt8(ascii: "#") where isDirective: skipDirective()
            case UInt8(ascii: "#") where language == .swift: lexHash()
            case UInt8(ascii: "`") where language == .swift: lexEscapedIdentifier()
            case UInt8(ascii: "-") where peek(1) == UInt8(ascii: ">"):
                append("->", isIdentifier: false)
                position += 2
            default:
                if Self.isIdentifierByte(byte) {
                    lexIdentifier()
                } else {
                    append(String(UnicodeScalar(byte)), isIdentifier: false)
                    position += 1
                }
            }
        }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        // Bytes of non-ASCII characters count as identifier bytes: Swift allows most of them in names.
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private mutating func append(_ text: String, isIdentifier: Bool) {
        tokens.append(SourceToken(text: text, isIdentifier: isIdentifier, line: line))
    }

    /// Notes the literal whose text is `bytes[start..<end]` (`end` its closing quote) when it is one word.
    private mutating func noteWord(from start: Int, to end: Int) {
        guard end > start, end - start <= Self.maximumWordLength, end < bytes.count, bytes[end] == UInt8(ascii: "\""),
            bytes[start..<end].allSatisfy({ Self.isIdentifierByte($0) && $0 < 0x80 && $0 != UInt8(ascii: "$") })
        else { return }
        words.append(StringWord(index: tokens.count, text: String(decoding: bytes[start..<end], as: UTF8.self)))
    }

    private mutating func lexIdentifier() {
        let start = position
        while position < bytes.count && Self.isIdentifierByte(bytes[position]) { position += 1 }
        append(String(decoding: bytes[start..<position], as: UTF8.self), isIdentifier: true)
    }

    private mutating func lexEscapedIdentifier() {
        var end = position + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "`"), end > position + 1 else {
            append("`", isIdentifier: false)
            position += 1
            return
        }
        append(String(decoding: bytes[(position + 1)..<end], as: UTF8.self), isIdentifier: true)
        position = end + 1
    }

    /// `#` starts a raw string (`#"…"#`), an extended regex literal (`#/…/#`) or a directive (`#if`, `#Preview`).
    private mutating func lexHash() {
        let count = hashes(at: 0)
        if peek(count) == UInt8(ascii: "\"") {
            position += count
            skipString(hashes: count, nesting: 0)
        } else if peek(count) == UInt8(ascii: "/") {
            position += count + 1
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "\n") { line += 1 }
                if bytes[position] == UInt8(ascii: "/") && hashes(at: 1) >= count {
                    position += 1 + count
                    return
                }
                position += 1
            }
        } else {
            append("#", isIdentifier: false)
            position += 1
        }
    }

    private mutating func skipLineComment() {
        while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
    }

    /// Skips `/* … */`, nested in Swift.
    private mutating func skipBlockComment() {
        var depth = 0
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*")
                && (depth == 0 || language == .swift)
            {
                depth += 1
                position += 2
            } else if bytes[position] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                position += 2
                if depth == 0 { return }
            } else {
                if bytes[position] == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
        }
    }

    /// Skips a string literal from its opening quote: `hashes` is the count of `#` of a raw string, already passed.
    /// An unterminated single-line string ends at the line break.
    private mutating func skipString(hashes count: Int, nesting: Int) {
        let quote = UInt8(ascii: "\"")
        let isMultiline = language == .swift && peek(1) == quote && peek(2) == quote
        position += isMultiline ? 3 : 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\n") {
                guard isMultiline else { return }
                line += 1
                position += 1
            } else if byte == UInt8(ascii: "\\") && hashes(at: 1) >= count {
                position += 1 + count
                if language == .swift && peek(0) == UInt8(ascii: "(") {
                    position += 1
                    skipInterpolation(nesting: nesting + 1)
                } else if let escaped = peek(0), escaped != UInt8(ascii: "\n") {
                    position += 1
                }
            } else if byte == quote && (!isMultiline || (peek(1) == quote && peek(2) == quote)) {
                let closing = isMultiline ? 3 : 1
                position += closing
                if hashes(at: 0) >= count {
                    position += count
                    return
                }
            } else {
                position += 1
            }
        }
    }

    /// Skips the code of `\( … )` inside a string, up to and with its closing parenthesis.
    private mutating func skipInterpolation(nesting: Int) {
        guard nesting <= Self.maximumNesting else {
            position = bytes.count
            return
        }
        var depth = 1
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                position += 1
            case UInt8(ascii: "("):
                depth += 1
                position += 1
            case UInt8(ascii: ")"):
                depth -= 1
                position += 1
                if depth == 0 { return }
            case UInt8(ascii: "\""):
                skipString(hashes: 0, nesting: nesting)
            case UInt8(ascii: "#") where peek(hashes(at: 0)) == UInt8(ascii: "\""):
                let count = hashes(at: 0)
                position += count
                skipString(hashes: count, nesting: nesting)
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                skipLineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipBlockComment()
            default:
                position += 1
            }
        }
    }

    /// Skips an Objective-C character literal (`'a'`, `'\''`), ending at the line break when unterminated.
    private mutating func skipCharacterLiteral() {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\n"): return
            case UInt8(ascii: "\\"): position += peek(1) == UInt8(ascii: "\n") ? 1 : 2
            case UInt8(ascii: "'"):
                position += 1
                return
            default: position += 1
            }
        }
    }

    /// Skips a preprocessor line (`#import`, `#define`), with its `\`-continued lines.
    private mutating func skipDirective() {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\n") { return }
            if byte == UInt8(ascii: "\\") {
                var next = position + 1
                if next < bytes.count && bytes[next] == UInt8(ascii: "\r") { next += 1 }
                if next < bytes.count && bytes[next] == UInt8(ascii: "\n") {
                    line += 1
                    position = next + 1
                    continue
                }
            }
            position += 1
        }
    }
}
