// The fuzz target `framer` (scripts/fuzz.sh) compiles this file with Core's QuotedText into one module, where there
// is no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// The protocol's one quoting rule, shared by requests and records: a word is sent bare when it can be, else in
/// double quotes with `\"`, `\\`, `\n` and `\t` escapes.
public enum Quoting {
    /// Whether `value` can be sent as a bare word: not empty, no space, tab, double quote, backslash or control
    /// character, and not of the form `key=…` (which would read back as a keyword).
    public static func isBare(_ value: String) -> Bool {
        guard isBareValue(value) else { return false }
        // `key=…` bare would read back as a keyword. Searched by scalar, as the tokenizer reads bytes: by Character,
        // an `=` followed by a combining mark (`a=\u{301}b`, found by fuzzing) is no `=`, and the positional word
        // went out bare and came back as the keyword `a`.
        if let equals = value.unicodeScalars.firstIndex(of: "="), isKey(Substring(value.unicodeScalars[..<equals])) {
            return false
        }
        return true
    }

    /// Whether `value` can follow `key=` bare: the same as `isBare`, except that an `=` inside it is harmless there.
    public static func isBareValue(_ value: String) -> Bool {
        // By byte, which is faster than by scalar and the same: the refused characters are ASCII, and no byte of a
        // multi-byte UTF-8 sequence is.
        var value = value
        return value.withUTF8 { isBareValue($0) }
    }

    /// `value` as a positional word: bare when possible, else quoted.
    public static func quote(_ value: String) -> String {
        isBare(value) ? value : quoted(value)
    }

    /// `value` as the value of a `key=value` word: bare when possible, else quoted.
    public static func quoteValue(_ value: String) -> String {
        isBareValue(value) ? value : quoted(value)
    }

    /// Appends `value` as the value of a `key=value` word to `buffer`: the bytes of `quoteValue(value)`, with no
    /// string made (what a reply of many records does for each field).
    public static func appendValue(_ value: String, to buffer: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            if isBareValue(bytes) {
                buffer.append(contentsOf: bytes)
            } else {
                appendQuoted(bytes, to: &buffer)
            }
        }
    }

    /// `isBareValue` of a value's UTF-8.
    private static func isBareValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty
            && !bytes.contains { byte in
                byte == space || byte == quote || byte == backslash || byte < 0x20 || byte == 0x7F
            }
    }

    /// `value` in double quotes (`appendQuoted`).
    private static func quoted(_ value: String) -> String {
        var value = value
        var buffer: [UInt8] = []
        value.withUTF8 { appendQuoted($0, to: &buffer) }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The UTF-8 `bytes` in double quotes, on the skeleton the protocol shares with logfmt (BarkeepCore's
    /// `QuotedText`): other control characters cannot be carried, and a space keeps the line valid (logfmt escapes
    /// them, since a log may show them).
    private static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        QuotedText.append(bytes, to: &buffer) { _, buffer in buffer.append(space) }
    }

    /// Whether `key` is a valid keyword key: a lower-case letter, then lower-case letters, digits, `-` or `_`.
    public static func isKey<S: StringProtocol>(_ key: S) -> Bool {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    /// One word of a line as the tokenizer saw it.
    public enum Token: Sendable, Equatable {
        /// A positional word (bare or quoted).
        case word(String)
        /// A `key=value` keyword.
        case keyword(String, String)
    }

    /// Splits a line (already framed and validated) into tokens.
    ///
    /// Works on the line's UTF-8 bytes: every delimiter is ASCII, and an ASCII byte never occurs inside a
    /// multi-byte character, so slicing between delimiters keeps characters whole.
    public static func tokenize(_ line: String) throws(ProtocolError) -> [Token] {
        var line = line
        let result: Result<[Token], ProtocolError> = line.withUTF8 { bytes in
            Result { () throws(ProtocolError) -> [Token] in
                var tokens: [Token] = []
                try scan(bytes) { span in
                    let value = text(bytes, span.value, isEscaped: span.isEscaped)
                    if let key = span.key {
                        tokens.append(.keyword(text(bytes, key, isEscaped: false), value))
                    } else {
                        tokens.append(.word(value))
                    }
                }
                return tokens
            }
        }
        return try result.get()
    }

    /// One word of a line as positions in its bytes: what the tokenizer finds before any string is made of it, so
    /// that a caller makes strings only of the words it keeps.
    struct Span {
        /// The key of a `key=value` word; nil for a positional word.
        var key: Range<Int>?
        /// The word, or the keyword's value: inside its double quotes when quoted.
        var value: Range<Int>
        /// Whether `value` holds backslash escapes (only a quoted word can), which `text` resolves.
        var isEscaped: Bool
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let equals = UInt8(ascii: "=")

    /// Finds the words of a line (already framed and validated), calling `found` with each in order; malformed
    /// quoting throws `.badLine` (after `found` saw the words before it).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Span) -> Void) throws(ProtocolError) {
        var index = 0
        let count = bytes.count
        while true {
            while index < count && (bytes[index] == space || bytes[index] == tab) { index += 1 }
            guard index < count else { return }
            if bytes[index] == quote {
                index += 1
                let (value, isEscaped) = try skipQuoted(bytes, &index)
                found(Span(key: nil, value: value, isEscaped: isEscaped))
                continue
            }
            // A bare word, possibly `key=value` where the value may be quoted.
            let start = index
            var equalsAt = -1
            while index < count && bytes[index] != space && bytes[index] != tab {
                let byte = bytes[index]
                if byte == backslash { throw .badLine("a backslash outside double quotes") }
                if byte == quote {
                    guard equalsAt >= 0, equalsAt == index - 1, isKey(bytes, start, equalsAt) else {
                        throw .badLine("a double quote inside a bare word")
                    }
                    break
                }
                if byte == equals && equalsAt < 0 { equalsAt = index }
                index += 1
            }
            if index < count && bytes[index] == quote {
                index += 1
                let (value, isEscaped) = try skipQuoted(bytes, &index)
                found(Span(key: start..<equalsAt, value: value, isEscaped: isEscaped))
            } else if equalsAt >= 0 && isKey(bytes, start, equalsAt) {
                found(Span(key: start..<equalsAt, value: equalsAt + 1..<index, isEscaped: false))
            } else {
                found(Span(key: nil, value: start..<index, isEscaped: false))
            }
        }
    }

    /// The text of a word's bytes (`Span.value` or `Span.key`), its escapes resolved when it has some.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, isEscaped: Bool) -> String {
        // A word without escapes (the usual one) is its bytes as they are: no copy to unescape them into.
        guard isEscaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var value: [UInt8] = []
        value.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            var byte = bytes[index]
            index += 1
            // `scan` let only the four escapes through.
            if byte == backslash && index < range.upperBound {
                switch bytes[index] {
                case UInt8(ascii: "n"): byte = UInt8(ascii: "\n")
                case UInt8(ascii: "t"): byte = tab
                default: byte = bytes[index]
                }
                index += 1
            }
            value.append(byte)
        }
        return String(decoding: value, as: UTF8.self)
    }

    private static func isKey(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end > start, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[start]) else { return false }
        for byte in bytes[start..<end] {
            let isAllowed =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if !isAllowed { return false }
        }
        return true
    }

    /// Reads a quoted word after its opening quote, through its closing quote, which must end the word: the range
    /// of its bytes inside the quotes, and whether they hold escapes (each checked here).
    private static func skipQuoted(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws(ProtocolError)
        -> (Range<Int>, isEscaped: Bool)
    {
        let start = index
        var isEscaped = false
        while true {
            guard index < bytes.count else { throw .badLine("a double quote is not closed") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case quote:
                if index < bytes.count, bytes[index] != space, bytes[index] != tab {
                    throw .badLine("a closing double quote must end its word")
                }
                return (start..<index - 1, isEscaped)
            case backslash:
                guard index < bytes.count else { throw .badLine("a double quote is not closed") }
                switch bytes[index] {
                case quote, backslash, UInt8(ascii: "n"), UInt8(ascii: "t"): isEscaped = true
                default: throw .badLine("unknown escape after a backslash (use \\\" \\\\ \\n or \\t)")
                }
                index += 1
            default: break
            }
        }
    }
}
