import BarkeepCore
import Testing

@Suite struct LowercaseHexTests {
    @Test func onlyLowercaseDigitsOfTheLengthAsked() {
        let sha = String(repeating: "0123456789abcdef", count: 4)
        #expect(LowercaseHex.isSHA256(sha))
        #expect(!LowercaseHex.isSHA256(sha.uppercased()))
        #expect(!LowercaseHex.isSHA256(String(sha.dropLast())))
        #expect(!LowercaseHex.isSHA256(String(sha.dropLast()) + "g"))
        #expect(LowercaseHex.isValid("a9e088a9", digits: 4...64) && !LowercaseHex.isValid("abc", digits: 4...64))
        #expect(!LowercaseHex.isValid("-abc", digits: 4...64))
    }
}
