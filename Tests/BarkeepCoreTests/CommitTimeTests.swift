import BarkeepCore
import Foundation
import Testing

@Suite("CommitTime")
struct CommitTimeTests {
    @Test(
        "parses ISO 8601 times with an offset to the right instant",
        arguments: [
            ("2026-11-30T10:00:00+01:00", 1_796_029_200.0),
            ("2026-11-30T09:00:00Z", 1_796_029_200.0),
            ("2026-11-30T04:00:00-05:00", 1_796_029_200.0),
            ("2026-11-30T09:00:00+00:00", 1_796_029_200.0),
            ("2026-11-30T09:00:00-00:00", 1_796_029_200.0),
            ("2026-11-30T09:00:00.5Z", 1_796_029_200.5),
            ("2026-11-30T09:00:00.123456789Z", 1_796_029_200.123456),
            ("2019-09-08T04:52:05-05:00", 1_567_936_325.0),
            ("1970-01-01T00:00:00Z", 0.0),
            ("1969-12-31T23:59:59Z", -1.0),
            ("2024-02-29T12:00:00+05:30", 1_709_188_200.0),
            ("2000-02-29T00:00:00Z", 951_782_400.0),
        ]
    )
    func parsesValid(text: String, seconds: Double) throws {
        let time = try #require(CommitTime.parse(text))
        #expect(abs(time.timeIntervalSince1970 - seconds) < 0.000_001, "\(text): \(time.timeIntervalSince1970)")
    }

    @Test(
        "refuses anything else",
        arguments: [
            "", "2026-11-30", "2026-11-30T10:00:00", "2026-11-30 10:00:00+01:00", "2026-11-30t10:00:00Z",
            "2026-11-30T10:00:00z", "2026-11-30T10:00+01:00", "2026-11-30T10:00:00+0100", "2026-11-30T10:00:00+01",
            "2026-11-30T10:00:00.Z", "2026-11-30T10:00:00.1234567890Z", "2026-13-01T10:00:00Z",
            "2026-00-01T10:00:00Z", "2026-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "2026-11-00T10:00:00Z",
            "2026-11-30T24:00:00Z", "2026-11-30T10:60:00Z", "2026-11-30T10:00:60Z", "2026-11-30T10:00:00+24:00",
            "2026-11-30T10:00:00+01:60", "0000-01-01T00:00:00Z", "26-11-30T10:00:00Z", "2026-11-30T10:00:00Z ",
            " 2026-11-30T10:00:00Z", "2026-11-30T10:00:00Z\n", "2026-11-30T10:00:00ZZ", "2026-1１-30T10:00:00Z",
            "yesterday", "1796029200", "2026-11-30T10:00:00+01:00:00",
        ]
    )
    func refusesInvalid(text: String) {
        #expect(CommitTime.parse(text) == nil, "'\(text)' should not parse")
    }

    @Test(
        "writes UTC to the second, and reads its own text back",
        arguments: [
            (1_796_029_200.0, "2026-11-30T09:00:00Z"),
            (1_796_029_200.9, "2026-11-30T09:00:00Z"),
            (0.0, "1970-01-01T00:00:00Z"),
            (-1.0, "1969-12-31T23:59:59Z"),
        ]
    )
    func writes(seconds: Double, text: String) throws {
        #expect(CommitTime.text(Date(timeIntervalSince1970: seconds)) == text)
        let back = try #require(CommitTime.parse(text))
        #expect(back.timeIntervalSince1970 == seconds.rounded(.down))
    }
}
