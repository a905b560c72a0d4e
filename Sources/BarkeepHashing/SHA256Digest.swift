import BarkeepCore
import CBarkeepTLS

/// The SHA-256 the product hashes with, by libcrypto (`LibcryptoHasher`), as the lowercase hex every stored digest
/// takes: an upload's or an inbox file's (which tells a repeated upload from a new one), a token's, a migration's
/// checksum, a cluster file's; and HMAC-SHA256, which signs a webhook's body.
public enum SHA256Digest {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func hex(of bytes: some Sequence<UInt8>) -> String {
        let digest = bytes.withContiguousStorageIfAvailable { LibcryptoHasher().digest(UnsafeRawBufferPointer($0)) }
        return (digest ?? Array(bytes).withUnsafeBytes { LibcryptoHasher().digest($0) }).hex
    }

    /// The SHA-256 of `bytes`, its 32 bytes (a Content-Security-Policy's `'sha256-…'` source is their base64).
    public static func bytes(of bytes: some Sequence<UInt8>) -> [UInt8] {
        Array(bytes).withUnsafeBytes { LibcryptoHasher().digest($0) }.bytes
    }

    /// The lowercase hex HMAC-SHA256 of `message` under `key` (OpenSSL's HMAC).
    public static func hmacHex(key: [UInt8], message: [UInt8]) -> String {
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { output in
            let status = key.withUnsafeBytes { key in
                message.withUnsafeBytes { message in
                    barkeep_hmac_sha256(
                        key.baseAddress, key.count, message.baseAddress, message.count,
                        output.baseAddress?.assumingMemoryBound(to: UInt8.self))
                }
            }
            // Invariant: an HMAC of valid buffers fails only for want of memory; a digest of zeros would have every
            // receiver refuse the body, so it stops rather than send it.
            precondition(status == 0, "HMAC-SHA256 failed")
            // A SHA-256 HMAC is 32 bytes, written in hex as any SHA-256 digest.
            return IdentityDigest(UnsafeRawBufferPointer(output)).hex
        }
    }
}
