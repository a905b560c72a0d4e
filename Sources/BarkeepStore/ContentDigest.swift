import BarkeepCore
import CBarkeepTLS

/// The SHA-256 of an upload or an inbox file, which tells a repeated upload from a new one: the same digest as
/// Core's `SHA256`, computed by libcrypto, which uses the CPU's SHA instructions where it has them (a 76 MB scan
/// in a few hundredths of a second instead of a third of a second).
public enum ContentDigest {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let status = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                barkeep_sha256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        // libcrypto cannot fail here but for want of memory; Core's digest is the same, only slower.
        guard status == 0 else { return SHA256.hexDigest(of: bytes) }
        return SHA256.hex(digest)
    }
}
