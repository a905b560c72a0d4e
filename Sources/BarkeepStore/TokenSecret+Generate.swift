import BarkeepCore

extension TokenSecret {
    /// A new token: `byteCount` bytes from the system's random number generator, as `token(of:)` writes them. Here,
    /// not in Core, which draws no randomness.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return token(of: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
