// The fuzz target `framer` (scripts/fuzz.sh) compiles this file with Core's ValueExcerpt into one module, where
// there is no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// A whole reply: zero or more records, then one final `OK …` or `ERR <CODE> <message>` line.
public enum Reply: Sendable, Equatable {
    /// Success, with an optional text after `OK`.
    case ok(String)
    /// Records, then `OK count=N`.
    case records([Record])
    /// Records, then `OK` with these `key=value` fields and `count=N` last (`SDK SET`: what changed, in sum).
    case summarizedRecords([Record], summary: Record)
    /// Failure with a stable code and a human message.
    case error(ErrorCode, String)
    /// A reply encoded before (by `encode(into:)`), its final line and line feed included: sent as it is.
    case bytes([UInt8])

    /// The reply word for success.
    public static let okWord = "OK"
    /// The reply word for failure.
    public static let errorWord = "ERR"

    /// Success with `key=value` fields after `OK`.
    public static func ok(_ fields: KeyValuePairs<String, String>) -> Reply {
        .ok(fields.map { "\($0.key)=\(Quoting.quoteValue($0.value))" }.joined(separator: " "))
    }

    /// The reply's lines, each ending in LF. Line breaks in a message are replaced by spaces.
    public var encoded: String {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the reply's lines to `buffer`: the server's hot path, so bytes, not strings.
    public func encode(into buffer: inout [UInt8]) {
        switch self {
        case .bytes(let bytes):
            buffer.append(contentsOf: bytes)
            return
        case .ok(let text):
            Self.appendOK(to: &buffer)
            if !text.isEmpty {
                buffer.append(Self.spaceByte)
                Self.appendFlattened(text, to: &buffer)
            }
        case .records(let records):
            Self.encode(records: records, into: &buffer)
            Self.encodeEnd(count: records.count, summary: nil, into: &buffer)
            return
        case .summarizedRecords(let records, let summary):
            Self.encode(records: records, into: &buffer)
            Self.encodeEnd(count: records.count, summary: summary, into: &buffer)
            return
        case .error(let code, let message):
            buffer.append(contentsOf: Self.errorBytes)
            buffer.append(contentsOf: code.rawValue.utf8)
            buffer.append(Self.spaceByte)
            Self.appendFlattened(message, to: &buffer)
        }
        buffer.append(Self.newline)
    }

    /// Appends `records` as the record lines of a reply, each ending in LF: a reply sent page by page (a streamed
    /// FINDINGS) is these lines, page after page, then `encodeEnd`.
    public static func encode(records: [Record], into buffer: inout [UInt8]) {
        for record in records {
            record.encode(into: &buffer)
            buffer.append(newline)
        }
    }

    /// Appends the final line (and its LF) of a reply of `count` records: `OK count=N`, or with `summary`'s fields
    /// before `count` as `summarizedRecords` has them.
    public static func encodeEnd(count: Int, summary: Record?, into buffer: inout [UInt8]) {
        appendOK(to: &buffer)
        for field in summary?.fields ?? [] {
            buffer.append(spaceByte)
            buffer.append(contentsOf: field.key.utf8)
            buffer.append(UInt8(ascii: "="))
            Quoting.appendValue(field.value, to: &buffer)
        }
        buffer.append(contentsOf: " count=\(count)".utf8)
        buffer.append(newline)
    }

    /// Appends `OK`, byte by byte: no static array to reach (a lazy global's check and a retain) for two bytes.
    private static func appendOK(to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "O"))
        buffer.append(UInt8(ascii: "K"))
    }

    private static let errorBytes = Array("ERR ".utf8)
    private static let newline = UInt8(ascii: "\n")
    private static let spaceByte = UInt8(ascii: " ")

    /// A final line is one line: every line break (CRLF counting as one) and control character becomes a space.
    /// Printable ASCII, the common case, is copied as is.
    private static func appendFlattened(_ text: String, to buffer: inout [UInt8]) {
        // On the contiguous UTF-8 (a native string has it): the generic scan of `String.UTF8View` costs more.
        var text = text
        let isPrintable = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        guard !isPrintable else { return }
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n" && previous == "\r" { continue }
            let isBreak =
                scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
            if isBreak {
                buffer.append(spaceByte)
            } else {
                buffer.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}

/// A final reply line as a client reads it.
public enum FinalLine: Sendable, Equatable {
    /// `OK` and the text after it.
    case ok(String)
    /// `ERR`, its code and message.
    case error(ErrorCode, String)

    /// Parses a final line (without its LF); a record line or anything else throws.
    public init(parsing line: String) throws(ProtocolError) {
        // Compared as UTF-8 bytes, not as Characters: `String` compares grapheme clusters under canonical
        // equivalence, so a text starting with a combining mark (`OK \u{301}…`, found by fuzzing) fused with the
        // space before it and the line read as no final line, while `O\u{212A}` (a Kelvin sign) read as `OK`.
        let bytes = line.utf8
        if bytes.elementsEqual(Reply.okWord.utf8) {
            self = .ok("")
        } else if bytes.starts(with: Self.okPrefix) {
            self = .ok(String(decoding: bytes.dropFirst(Self.okPrefix.count), as: UTF8.self))
        } else if bytes.starts(with: Self.errorPrefix) {
            let rest = bytes.dropFirst(Self.errorPrefix.count)
            let codeBytes = rest.prefix { $0 != UInt8(ascii: " ") }
            guard let code = ErrorCode.allCases.first(where: { $0.rawValue.utf8.elementsEqual(codeBytes) }) else {
                throw .badReply("unknown error code \(ValueExcerpt.quoted(String(decoding: codeBytes, as: UTF8.self)))")
            }
            let message = rest.dropFirst(codeBytes.count).drop { $0 == UInt8(ascii: " ") }
            self = .error(code, String(decoding: message, as: UTF8.self))
        } else {
            throw .badReply("a reply ends with a line starting with OK or ERR")
        }
    }

    private static let okPrefix = Array((Reply.okWord + " ").utf8)
    private static let errorPrefix = Array((Reply.errorWord + " ").utf8)

    /// The `key=value` fields of an `OK` text (empty for a bare word or an error).
    public var fields: [String: String] {
        guard case .ok(let text) = self, let tokens = try? Quoting.tokenize(text) else { return [:] }
        var fields: [String: String] = [:]
        for case .keyword(let key, let value) in tokens { fields[key] = value }
        return fields
    }
}
