import BarkeepCore

/// The SHA-256 of an upload or an inbox file, which tells a repeated upload from a new one: the same digest as
/// Core's `SHA256`, computed by libcrypto, which uses the CPU's SHA instructions where it has them (a 76 MB scan
/// in a few hundredths of a second instead of a third of a second).
public enum ContentDigest {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { LibcryptoHasher().digest($0).hex }
    }
}
