import BarkeepCore

/// The SHA-256 the product hashes with, by libcrypto, which uses the CPU's SHA instructions where it has them (a
/// 76 MB scan in a few hundredths of a second instead of a third of a second by Core's Swift SHA256): an upload's
/// or an inbox file's (which tells a repeated upload from a new one), a token's, a migration's checksum.
public enum ContentDigest {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { LibcryptoHasher().digest($0).hex }
    }
}
