import BarkeepHashing
import Testing

/// HMAC-SHA256, which signs a webhook's body, against RFC 4231's test vectors (HookTests checks the signatures a
/// hook's receiver gets with Python's own hmac).
@Suite("HMAC-SHA256")
struct HMACTests {
    /// RFC 4231, section 4: test cases 1 to 4, 6 and 7 (case 5 checks a truncated output, which a webhook never
    /// sends).
    @Test(
        "HMAC-SHA256 matches RFC 4231",
        arguments: [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                Array(1...25), [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    ("This is a test using a larger than block-size key and a larger than block-size data. The key "
                        + "needs to be hashed before being used by the HMAC algorithm.").utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
    )
    func hmac(key: [UInt8], message: [UInt8], expected: String) {
        #expect(SHA256Digest.hmacHex(key: key, message: message) == expected)
    }

    @Test("an empty key and an empty message still sign")
    func emptyInputs() {
        #expect(
            SHA256Digest.hmacHex(key: [], message: [])
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
