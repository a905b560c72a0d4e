import BarkeepCore
import Testing

@Suite("IdentityDigest")
struct IdentityDigestTests {
    @Test(
        "hex read from bytes is the hex read from a string",
        arguments: [
            String(repeating: "0", count: 64),
            String(repeating: "f", count: 64),
            "0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789AbCdEf",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ])
    func hexFromBytes(hex: String) throws {
        var text = hex
        let fromBytes = try #require(text.withUTF8 { IdentityDigest(hexUTF8: $0) })
        let fromString = try #require(IdentityDigest(hex: hex))
        #expect(fromBytes == fromString)
        #expect(fromBytes.hex == hex.lowercased())
        #expect(fromBytes.bytes.count == 32)
    }

    @Test(
        "anything but 64 hex digits is no digest",
        arguments: [
            "", "abc", String(repeating: "0", count: 63), String(repeating: "0", count: 65),
            String(repeating: "0", count: 63) + "g", "z" + String(repeating: "0", count: 63),
            String(repeating: "0", count: 62) + "é",
        ])
    func notHex(text: String) {
        var bytes = text
        #expect(bytes.withUTF8 { IdentityDigest(hexUTF8: $0) } == nil)
        #expect(IdentityDigest(hex: text) == nil)
    }
}
