import CBarkeepTLS

// The `identity` fuzz target compiles this file into one module with Core's sources (scripts/fuzz.sh), where there is
// no BarkeepCore to import.
#if canImport(BarkeepCore)
    import BarkeepCore
#endif

/// SHA-256 by libcrypto, which uses the CPU's SHA instructions where it has them: the hasher every caller gives Core's
/// `FindingIdentity` (Core links no C library and has no SHA-256 of its own), and the one `SHA256Digest` hashes with.
public struct LibcryptoHasher: IdentityHasher {
    /// The hasher.
    public init() {}

    /// The SHA-256 of `bytes`.
    public func digest(_ bytes: UnsafeRawBufferPointer) -> IdentityDigest {
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { output in
            let status = barkeep_sha256(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                output.baseAddress?.assumingMemoryBound(to: UInt8.self))
            // Invariant: libcrypto's SHA-256 of a valid buffer fails only for want of memory, where Swift would stop
            // too; a digest of zeros would merge findings or refuse a token, so it stops rather than answer.
            precondition(status == 0, "libcrypto's SHA-256 failed")
            return IdentityDigest(UnsafeRawBufferPointer(output))
        }
    }
}
