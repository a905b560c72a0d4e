import Foundation
import Testing

@testable import BarkeepReport

@Suite("ReportTime")
struct ReportTimeTests {
    @Test(
        "parses the protocol's UTC times",
        arguments: [
            ("1970-01-01T00:00:00Z", 0.0),
            ("2026-11-29T12:00:00.123456Z", 1_795_953_600.123456),
            ("2026-11-29T12:00:00.5Z", 1_795_953_600.5),
            ("2000-02-29T23:59:59Z", 951_868_799.0),
            ("1969-12-31T23:59:59Z", -1.0),
        ]
    )
    func parses(text: String, seconds: Double) throws {
        let date = try #require(ReportTime.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(
        "refuses anything else",
        arguments: [
            "", "2026-11-29", "2026-11-29 12:00:00Z", "2026-11-29T12:00:00", "2026-11-29T12:00:00+00:00",
            "2026-02-30T12:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T12:00:00.Z", "2026-11-29T12:00:00.1234567890Z",
            "2026-11-29T12:0a:00Z", "+026-11-29T12:00:00Z",
        ]
    )
    func refuses(text: String) {
        #expect(ReportTime.parse(text) == nil)
    }

    @Test("shows UTC to the minute, dropping seconds")
    func minute() {
        #expect(ReportTime.minute(Fixtures.time("2026-11-29T12:00:59.999Z")) == "2026-11-29 12:00 UTC")
        #expect(ReportTime.minute(Fixtures.time("2024-02-29T07:05:00Z")) == "2024-02-29 07:05 UTC")
        #expect(ReportTime.minute(Date(timeIntervalSince1970: -60)) == "1969-12-31 23:59 UTC")
    }

    @Test(
        "ages read coarsely",
        arguments: [
            (0.0, "just now"), (59.9, "just now"), (60, "1 min ago"), (3_599, "59 min ago"), (3_600, "1 h ago"),
            (10_830, "3 h ago"), (86_399, "23 h ago"), (86_400, "1 d ago"), (10 * 86_400 + 5, "10 d ago"),
            (-500, "just now"),
        ] as [(Double, String)]
    )
    func age(seconds: Double, text: String) {
        let now = Fixtures.now
        #expect(ReportTime.age(of: now.addingTimeInterval(-seconds), now: now) == text)
    }
}
