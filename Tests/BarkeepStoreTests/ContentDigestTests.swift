import BarkeepCore
import BarkeepStore
import Testing

@Suite("The content digest of uploads")
struct ContentDigestTests {
    @Test("libcrypto's SHA-256 is Core's, at every length around a block's edges and for a large upload")
    func sameAsCore() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1_000, 1 << 20] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(ContentDigest.hex(of: bytes) == SHA256.hexDigest(of: bytes), "\(count) bytes")
        }
        #expect(
            ContentDigest.hex(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
