import BarkeepCore
import Testing

/// How a finding's number is read back: bare or as the `F-N` label the CLI and the reports print.
@Suite("FindingNumber")
struct FindingNumberTests {
    @Test(
        "parse takes 12 and F-12 alike, and nothing else",
        arguments: [
            ("12", 12), ("F-12", 12), ("f-12", 12), ("F-1", 1), ("007", 7), ("2147483647", 2_147_483_647),
            ("F-2147483647", 2_147_483_647), ("", nil), ("F-", nil), ("F", nil), ("F-x", nil), ("G-1", nil),
            ("F12", nil), ("F--1", nil), ("-1", nil), ("+1", nil), ("0", nil), ("F-0", nil), ("12a", nil),
            (" 12", nil), ("12 ", nil), ("2147483648", nil), ("99999999999999999999999", nil), ("١٢", nil),
        ] as [(String, Int?)])
    func parse(text: String, number: Int?) {
        #expect(FindingNumber.parse(text) == number)
    }

    @Test("every label parses back to its number")
    func labelRoundTrips() {
        for number in [1, 9, 10, 186, FindingNumber.maximum] {
            #expect(FindingNumber.parse(FindingNumber.label(number)) == number)
        }
    }
}
