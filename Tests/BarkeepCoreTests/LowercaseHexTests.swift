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

    @Test func commitIDsAreWhatGitPrintsAndNeverAnOption() {
        #expect(LowercaseHex.isCommitID("70789a0c9") && LowercaseHex.isCommitID(String(repeating: "f", count: 64)))
        #expect(!LowercaseHex.isCommitID("abc") && !LowercaseHex.isCommitID(String(repeating: "f", count: 65)))
        #expect(
            !LowercaseHex.isCommitID("--all") && !LowercaseHex.isCommitID("HEAD~1") && !LowercaseHex.isCommitID("ABCD"))
        // Fullwidth digits are hexadecimal to Swift's `Character.isHexDigit`, never to git.
        #expect(!LowercaseHex.isCommitID("\u{FF10}\u{FF11}\u{FF12}\u{FF13}"))
    }
}
