import BarkeepCore
import BarkeepHashing

extension TokenSecret {
    /// The hex SHA-256 under which a token is stored and looked up, by libcrypto (`SHA256Digest`).
    public static func hash(_ token: String) -> String { SHA256Digest.hex(of: Array(token.utf8)) }

    /// A new token: `byteCount` bytes from the system's random number generator, as `token(of:)` writes them. Here,
    /// not in Core, which draws no randomness.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return token(of: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
