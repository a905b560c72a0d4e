/// Binary data bound to or read from a `bytea` column, sent and read in PostgreSQL's hex text form (`\x` and two
/// lowercase hex digits a byte), since every parameter and column travels as text.
public struct PostgresBytes: PostgresEncodable, PostgresDecodable, Equatable {
    /// The bytes.
    public var bytes: [UInt8]

    /// `bytes`, to bind.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    private static let digits = Array("0123456789abcdef".utf8)

    /// `\x` and the bytes in hex.
    public var postgresText: String {
        var text = [UInt8](repeating: 0, count: 2 + 2 * bytes.count)
        text[0] = UInt8(ascii: "\\")
        text[1] = UInt8(ascii: "x")
        for (index, byte) in bytes.enumerated() {
            text[2 + 2 * index] = Self.digits[Int(byte >> 4)]
            text[3 + 2 * index] = Self.digits[Int(byte & 0x0F)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads the hex output form (`\x…`, the server's default `bytea_output`); nil for any other text.
    public init?(postgresText: String) {
        var text = postgresText
        let parsed: [UInt8]? = text.withUTF8 { utf8 in
            guard utf8.count >= 2, utf8.count % 2 == 0, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x")
            else { return nil }
            var bytes = [UInt8]()
            bytes.reserveCapacity(utf8.count / 2 - 1)
            var index = 2
            while index < utf8.count {
                guard let high = Self.value(utf8[index]), let low = Self.value(utf8[index + 1]) else { return nil }
                bytes.append(high << 4 | low)
                index += 2
            }
            return bytes
        }
        guard let parsed else { return nil }
        bytes = parsed
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
