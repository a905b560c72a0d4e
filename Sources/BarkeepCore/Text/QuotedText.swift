/// The skeleton of Barkeep's two double-quoted forms, the protocol's quoted words (BarkeepProtocol's `Quoting`) and
/// logfmt values (`Logfmt`): the text in double quotes, with `"`, `\`, newline and tab escaped by a backslash.
///
/// The two differ in the other control characters, so each passes its own rule: logfmt keeps them readable (`\r`,
/// `\u001b`), since a log is read by people and its parsers take those escapes; the protocol has no escape for them
/// (docs/protocol.md) and turns each into a space, which keeps the line valid.
public enum QuotedText {
    /// Whether `scalar` is a control character: below U+0020, or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    /// `value` in double quotes: `"`, `\`, newline and tab escaped, every other control character replaced by what
    /// `otherControl` makes of it, everything else as it is.
    public static func quote(_ value: String, otherControl: (Unicode.Scalar) -> String) -> String {
        var value = value
        var buffer: [UInt8] = []
        value.withUTF8 { bytes in
            append(bytes, to: &buffer) { byte, buffer in
                buffer.append(contentsOf: otherControl(Unicode.Scalar(byte)).utf8)
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The UTF-8 `bytes` in double quotes, appended to `buffer` with no string made: `quote`'s rule, where
    /// `otherControl` appends what a control character other than newline and tab becomes. By byte, which is the same
    /// as by scalar: every character escaped or replaced is ASCII, and no byte of a multi-byte character is; runs of
    /// bytes that stay as they are go in at once.
    public static func append(
        _ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8],
        otherControl: (UInt8, inout [UInt8]) -> Void
    ) {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        buffer.append(quote)
        var run = 0
        for (index, byte) in bytes.enumerated() {
            let escape: UInt8?
            switch byte {
            case quote, backslash: escape = byte
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            case ..<0x20, 0x7F: escape = nil
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
            run = index + 1
            if let escape {
                buffer.append(backslash)
                buffer.append(escape)
            } else {
                otherControl(byte, &buffer)
            }
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        buffer.append(quote)
    }
}
