import BarkeepCore
import Testing

@Suite("TokenSecret")
struct TokenSecretTests {
    @Test("a token is bk_ and its bytes in URL-safe base64 without padding, of the shape isWellFormed accepts")
    func tokenOfBytes() {
        let zeros = TokenSecret.token(of: Array(repeating: 0, count: TokenSecret.byteCount))
        #expect(zeros == "bk_" + String(repeating: "A", count: 43))
        let ones = TokenSecret.token(of: Array(repeating: 0xFF, count: TokenSecret.byteCount))
        #expect(ones == "bk_" + String(repeating: "_", count: 42) + "8")
        #expect(TokenSecret.isWellFormed(zeros) && TokenSecret.isWellFormed(ones))
        #expect(!TokenSecret.isWellFormed(TokenSecret.token(of: [1, 2, 3])))
    }
}
