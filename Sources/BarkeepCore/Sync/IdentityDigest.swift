/// A finding's identity as the 32 raw bytes of its SHA-256, as the sync handles it: compared, hashed and sorted
/// without a string. Its text form (`hex`, 64 lowercase hex digits) is what the database stores and the CLI shows.
public struct IdentityDigest: Sendable, Hashable, Comparable {
    // The bytes as four big-endian words: the tuple order is the order of the bytes, hence of their hex.
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest whose 32 bytes `bytes` holds (fewer are padded with zeros, more ignored).
    public init(_ bytes: UnsafeRawBufferPointer) {
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.prefix(32).enumerated() {
            words[index / 8] |= UInt64(byte) << (8 * (7 - UInt64(index % 8)))
        }
        self.words = (words[0], words[1], words[2], words[3])
    }

    /// The digest whose hex form is `hex` (64 hex digits, either case); nil for any other text.
    public init?(hex: String) {
        var hex = hex
        guard let digest = hex.withUTF8({ IdentityDigest(hexUTF8: $0) }) else { return nil }
        self = digest
    }

    /// The digest whose hex form is the UTF-8 `digits` (64 hex digits, either case); nil for any other bytes. Reads a
    /// stored identity straight from a database result, without a string.
    public init?(hexUTF8 digits: UnsafeBufferPointer<UInt8>) {
        guard digits.count == 64 else { return nil }
        func word(_ number: Int) -> UInt64? {
            var word: UInt64 = 0
            for digit in digits[(number * 16)..<(number * 16 + 16)] {
                let value: UInt8
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit &- UInt8(ascii: "a") &+ 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit &- UInt8(ascii: "A") &+ 10
                default: return nil
                }
                word = word << 4 | UInt64(value)
            }
            return word
        }
        guard let first = word(0), let second = word(1), let third = word(2), let fourth = word(3) else { return nil }
        words = (first, second, third, fourth)
    }

    /// The first 8 bytes as a big-endian number: ordered as the digests are, for a sort key of 8 bytes instead of 32.
    public var prefix: UInt64 { words.0 }

    /// The 32 bytes.
    public var bytes: [UInt8] {
        [words.0, words.1, words.2, words.3].flatMap { word in
            (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) }
        }
    }

    /// The lowercase hex form: what is stored and shown.
    public var hex: String {
        var text = [UInt8](repeating: 0, count: 64)
        appendHex(into: &text, at: 0)
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes the 64 hex digits into `text` from `offset` on (which must have room for them), for writers that build
    /// a row of bytes without a string per field.
    public func appendHex(into text: inout [UInt8], at offset: Int) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for (index, word) in [words.0, words.1, words.2, words.3].enumerated() {
                for nibble in 0..<16 {
                    text[offset + index * 16 + nibble] = digits[Int((word >> (60 - 4 * UInt64(nibble))) & 0xF)]
                }
            }
        }
    }

    /// Equal digests are equal bytes.
    public static func == (a: IdentityDigest, b: IdentityDigest) -> Bool { a.words == b.words }

    /// Byte order, which is also the order of the hex forms.
    public static func < (a: IdentityDigest, b: IdentityDigest) -> Bool { a.words < b.words }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}

/// Computes SHA-256 for finding identities. Core links no C library and has no SHA-256 of its own, so every caller
/// hands one in: `LibcryptoHasher` (BarkeepHashing, over libcrypto, which uses the CPU's SHA instructions) for the
/// store, the daemon, the tests and the fuzz targets alike.
public protocol IdentityHasher: Sendable {
    /// The SHA-256 of `bytes`.
    func digest(_ bytes: UnsafeRawBufferPointer) -> IdentityDigest
}
