/// API token secrets: shown once, stored only as their SHA-256. Core knows their shape; the random bytes and the
/// hash come from the store (`TokenSecret.generate` and `TokenSecret.hash` in BarkeepStore, by libcrypto), since
/// Core draws no randomness and links no C library.
public enum TokenSecret {
    /// The prefix every token starts with, so a leaked one is easy to recognise (and to search for).
    public static let prefix = "bk_"

    /// How often a token's last use is written, at most: once a minute. Every HTTP API request authenticates its
    /// token, and a write per read would cost a row version and WAL for a time `token list` shows to the minute.
    public static let lastUseResolutionSeconds = 60

    /// How many random bytes a token carries.
    public static let byteCount = 32

    /// The token of `bytes` (`byteCount` of them, random): `bk_` and the bytes in URL-safe base64 without padding
    /// (43 characters).
    public static func token(of bytes: [UInt8]) -> String {
        prefix + base64URL(bytes)
    }

    /// Whether `text` has the shape of a token (it may still be unknown or revoked).
    public static func isWellFormed(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == prefix.utf8.count + 43
            && text.unicodeScalars.dropFirst(prefix.unicodeScalars.count).allSatisfy { alphabet.contains($0) }
    }

    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars)

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var text = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0..<(chunk.count + 1) {
                text.append(alphabet[(value >> (18 - 6 * position)) & 0x3F])
            }
            index += 3
        }
        return String(text)
    }
}
