import BarkeepHashing
import Testing

/// The SHA-256 of uploads, tokens and migration checksums, by libcrypto.
@Suite("SHA-256 digests")
struct SHA256DigestTests {
    /// The FIPS 180-2 / NIST example messages, plus lengths around the 55/56/64-byte padding boundaries (digests
    /// from coreutils `sha256sum`).
    static let vectors: [(name: String, message: [UInt8], digest: String)] = [
        ("empty", [], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "448-bit message",
            Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "896-bit message",
            Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8
            ),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        ("55 × a", a(55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        ("56 × a", a(56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        ("63 × a", a(63), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        ("64 × a", a(64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        ("65 × a", a(65), "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        ("119 × a", a(119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        ("120 × a", a(120), "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        ("128 × a", a(128), "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
        ("bytes 0…255", Array(0...255), "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880"),
    ]

    private static func a(_ count: Int) -> [UInt8] { [UInt8](repeating: UInt8(ascii: "a"), count: count) }

    @Test("known vectors", arguments: vectors)
    func knownVector(name: String, message: [UInt8], digest: String) {
        #expect(SHA256Digest.hex(of: message) == digest, "\(name)")
    }

    @Test("one million 'a' (NIST long message)")
    func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256Digest.hex(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("hex is 64 lower-case digits with leading zeros kept")
    func digestShape() {
        for vector in Self.vectors {
            let digest = SHA256Digest.hex(of: vector.message)
            #expect(digest.count == 64)
            #expect(digest.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        }
        // The sixth byte of the "abc" digest is 0x01: its leading zero must be kept.
        #expect(SHA256Digest.hex(of: Array("abc".utf8)).hasPrefix("ba7816bf8f01"))
    }

    @Test("any byte sequence hashes as its bytes: a string's UTF-8 view, a slice, a lazy sequence")
    func anySequence() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(SHA256Digest.hex(of: "abc".utf8) == abc)
        #expect(SHA256Digest.hex(of: Array("xabcx".utf8)[1..<4]) == abc)
        #expect(SHA256Digest.hex(of: "abc".utf8.lazy.map { $0 }) == abc)
    }
}
