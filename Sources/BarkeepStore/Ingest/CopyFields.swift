import BarkeepCore

/// One row of a `COPY … FROM STDIN` in text format, built field by field (`CopyWriter.writeRow`): tab-separated,
/// `\N` for NULL, backslash escapes for the rest. Values go in as bytes, so a writer feeding rows from a document's
/// own bytes builds no string per field.
public struct CopyFields: ~Copyable {
    /// The bytes of the rows so far, this one last.
    fileprivate(set) var buffer: [UInt8]
    private var isFirst = true

    /// Fields appended to `buffer`.
    init(appendingTo buffer: consuming [UInt8]) {
        self.buffer = buffer
    }

    private mutating func separate() {
        if !isFirst { buffer.append(UInt8(ascii: "\t")) }
        isFirst = false
    }

    /// Appends NULL.
    public mutating func appendNull() {
        separate()
        buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
    }

    /// Appends a text value from its UTF-8 bytes, escaped. PostgreSQL text cannot hold NUL: a value with one is
    /// `StoreError.invalid`, said here rather than failing the whole COPY with an encoding error.
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        separate()
        // Most values need no escape: their bytes go in with one copy.
        guard bytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x0E }) else {
            return buffer.append(contentsOf: bytes)
        }
        for byte in bytes {
            switch byte {
            case 0: throw StoreError.invalid("a value holds a NUL character")
            case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: buffer.append(byte)
            }
        }
    }

    /// Appends a text value, or NULL for nil.
    public mutating func append(_ text: String?) throws {
        guard var text else { return appendNull() }
        try text.withUTF8 { try append($0) }
    }

    /// Appends an integer, or NULL for nil.
    public mutating func append(_ integer: Int?) {
        guard let integer else { return appendNull() }
        separate()
        buffer += String(integer).utf8
    }

    /// Appends an identity in its stored form, its hex.
    public mutating func append(_ identity: IdentityDigest) {
        separate()
        let start = buffer.count
        buffer += repeatElement(0, count: 64)
        identity.appendHex(into: &buffer, at: start)
    }

    /// Ends the row; returns all the bytes.
    consuming func finished() -> [UInt8] {
        buffer.append(UInt8(ascii: "\n"))
        return buffer
    }
}
