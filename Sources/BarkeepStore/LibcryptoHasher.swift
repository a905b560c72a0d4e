import BarkeepCore
import CBarkeepTLS

/// SHA-256 by libcrypto for finding identities: the hasher the store and the daemon give Core's `FindingIdentity`
/// (libcrypto uses the CPU's SHA instructions; Core's Swift `SHA256` gives the same digests several times slower).
public struct LibcryptoHasher: IdentityHasher {
    /// The hasher.
    public init() {}

    /// The SHA-256 of `bytes`.
    public func digest(_ bytes: UnsafeRawBufferPointer) -> IdentityDigest {
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { output in
            let status = barkeep_sha256(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                output.baseAddress?.assumingMemoryBound(to: UInt8.self))
            // libcrypto cannot fail here but for want of memory; Core's digest is the same, only slower.
            guard status == 0 else { return SwiftIdentityHasher().digest(bytes) }
            return IdentityDigest(UnsafeRawBufferPointer(output))
        }
    }
}
