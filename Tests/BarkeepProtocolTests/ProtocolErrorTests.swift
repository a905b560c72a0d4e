import BarkeepProtocol
import Testing

@Suite("ProtocolError")
struct ProtocolErrorTests {
    @Test(
        "each error maps to one wire code and describes itself without extra noise",
        arguments: [
            (ProtocolError.lineTooLong(limit: 65_536), ErrorCode.tooLong, "line longer than 65536 bytes"),
            (.badLine("the line is not valid UTF-8"), .badLine, "the line is not valid UTF-8"),
            (.badAddress("host:0", "bad port"), .badLine, "bad address 'host:0': bad port"),
            (.badReply("garbage"), .badLine, "unexpected reply from the server: garbage"),
        ]
    )
    func codeAndDescription(error: ProtocolError, code: ErrorCode, description: String) {
        #expect(error.code == code)
        #expect(error.description == description)
    }
}
