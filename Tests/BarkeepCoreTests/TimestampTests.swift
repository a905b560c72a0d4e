import BarkeepCore
import Foundation
import Testing

@Suite("Timestamp")
struct TimestampTests {
    @Test(
        "reads every form to the right instant: offsets, fractions, leap days, the first year",
        arguments: [
            ("1970-01-01T00:00:00Z", Timestamp.Syntax.utc, 0),
            ("1969-12-31T23:59:59.999999Z", .utc, -1),
            ("2026-11-29T12:00:00.123456Z", .utc, 1_795_953_600_123_456),
            ("2026-11-29T12:00:00.5Z", .utc, 1_795_953_600_500_000),
            ("2026-11-29T12:00:00.123456789Z", .utc, 1_795_953_600_123_456),
            ("2000-02-29T23:59:59Z", .utc, 951_868_799_000_000),
            ("2024-02-29T00:00:00Z", .utc, 1_709_164_800_000_000),
            ("0001-01-01T00:00:00Z", .utc, -62_135_596_800_000_000),
            ("9999-12-31T23:59:59.999999Z", .utc, 253_402_300_799_999_999),
            ("2026-11-30T10:00:00+01:00", .iso8601, 1_796_029_200_000_000),
            ("2026-11-30T04:00:00-05:00", .iso8601, 1_796_029_200_000_000),
            ("2026-11-30T09:00:00-00:00", .iso8601, 1_796_029_200_000_000),
            ("2024-02-29T12:00:00+05:30", .iso8601, 1_709_188_200_000_000),
            ("2026-11-30T00:30:00+23:59", .iso8601, 1_795_912_260_000_000),
            ("2026-11-29 12:00:00.123456+00", .postgres, 1_795_953_600_123_456),
            ("2026-11-29 17:30:00+05:30", .postgres, 1_795_953_600_000_000),
            ("2026-11-29 17:30:00+0530", .postgres, 1_795_953_600_000_000),
            ("2026-11-29 09:00:00-03", .postgres, 1_795_953_600_000_000),
            ("2026-11-29 12:00:00", .postgres, 1_795_953_600_000_000),
            ("2026-11-29T12:00:00Z", .postgres, 1_795_953_600_000_000),
        ] as [(String, Timestamp.Syntax, Int64)]
    )
    func reads(text: String, syntax: Timestamp.Syntax, microseconds: Int64) {
        #expect(Timestamp.microseconds(text, syntax) == microseconds, "\(text)")
    }

    @Test(
        "refuses what is not a time of the form",
        arguments: [
            // Every form: calendar, clock, fraction, stray bytes.
            ("", Timestamp.Syntax.postgres), ("2026-11-29", .postgres), ("2026-02-29 12:00:00", .postgres),
            ("2100-02-29 12:00:00", .postgres), ("1900-02-29T12:00:00Z", .utc), ("2026-04-31T12:00:00Z", .utc),
            ("2026-13-01T12:00:00Z", .utc), ("2026-00-01T12:00:00Z", .utc), ("2026-11-00T12:00:00Z", .utc),
            ("0000-01-01T00:00:00Z", .utc), ("2026-11-29T24:00:00Z", .utc), ("2026-11-29T12:60:00Z", .utc),
            ("2026-12-31T23:59:60Z", .utc), ("2026-11-29T12:00:00.Z", .utc), ("2026-11-29T12:00:00.1234567890Z", .utc),
            ("2026-11-29T12:0a:00Z", .utc), ("+026-11-29T12:00:00Z", .utc), ("2026-1１-29T12:00:00Z", .utc),
            ("2026-11-29T12:00:00Z ", .utc), (" 2026-11-29T12:00:00Z", .utc), ("2026-11-29T12:00:00ZZ", .utc),
            ("2026-11-29t12:00:00Z", .postgres), ("2026-11-29T12:00:00z", .postgres), ("yesterday", .postgres),
            ("infinity", .postgres), ("0001-01-01 00:00:00+00 BC", .postgres), ("1795953600", .postgres),
            // The protocol's times are UTC, said.
            ("2026-11-29T12:00:00", .utc), ("2026-11-29T12:00:00+00:00", .utc), ("2026-11-29 12:00:00Z", .utc),
            // ISO 8601 as git writes it: an offset always, with a colon, in range.
            ("2026-11-30T10:00:00", .iso8601), ("2026-11-30T10:00:00+01", .iso8601),
            ("2026-11-30T10:00:00+0100", .iso8601), ("2026-11-30T10:00:00+24:00", .iso8601),
            ("2026-11-30T10:00:00+01:60", .iso8601), ("2026-11-30T10:00:00+01:00:00", .iso8601),
            ("2026-11-30 10:00:00+01:00", .iso8601),
            // PostgreSQL's offsets: two-digit hours, minutes optional.
            ("2026-11-29 12:00:00+1", .postgres), ("2026-11-29 12:00:00+01:6", .postgres),
            ("2026-11-29 12:00:00+", .postgres), ("2026-11-29 12:00:00+01:", .postgres),
            // A local time whose offset carries it past year 9999 or before year 1 names no storable moment.
            ("9999-12-31T20:00:00-05:00", .iso8601), ("0001-01-01T00:30:00+01:00", .iso8601),
            ("9999-12-31 23:59:59-01", .postgres),
        ] as [(String, Timestamp.Syntax)]
    )
    func refuses(text: String, syntax: Timestamp.Syntax) {
        #expect(Timestamp.microseconds(text, syntax) == nil, "'\(text)' should not parse")
    }

    @Test(
        "writes UTC, the fraction cut to the digits asked for, and reads its own text back",
        arguments: [
            (0, 6, "1970-01-01T00:00:00.000000Z"), (-1, 6, "1969-12-31T23:59:59.999999Z"),
            (-1, 0, "1969-12-31T23:59:59Z"), (1_795_953_600_999_999, 3, "2026-11-29T12:00:00.999Z"),
            (951_868_799_000_001, 6, "2000-02-29T23:59:59.000001Z"),
            (-62_135_596_800_000_000, 0, "0001-01-01T00:00:00Z"),
            (253_402_300_799_999_999, 6, "9999-12-31T23:59:59.999999Z"),
        ] as [(Int64, Int, String)]
    )
    func writes(microseconds: Int64, digits: Int, text: String) throws {
        #expect(Timestamp.text(microseconds: microseconds, fractionDigits: digits) == text)
        let back = try #require(Timestamp.microseconds(text, .utc))
        let unit = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1][digits]
        // What was cut is lost, and no more: the text reads back as the moment rounded down to its last digit.
        #expect(back <= microseconds && microseconds - back < Int64(unit))
    }

    @Test("Foundation's ISO 8601 reader, an independent one, reads the same instants from its text")
    func agreesWithFoundation() throws {
        // A fixed linear congruential sequence: the same moments every run, 1600 to 9999 (Foundation's calendar turns
        // Julian before 1582).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let first = try #require(Timestamp.microseconds("1600-01-01T00:00:00Z", .utc))
        let last = try #require(Timestamp.microseconds("9999-12-31T23:59:59Z", .utc))
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let microseconds = first + Int64(state >> 11) % (last - first)
            let text = Timestamp.text(microseconds: microseconds, fractionDigits: 3)
            let parsed = try Date(text, strategy: style)
            let cut = microseconds - (microseconds % 1_000 + 1_000) % 1_000
            #expect(
                abs(parsed.timeIntervalSince1970 * 1_000 - Double(cut / 1_000)) < 0.5,
                "\(text): Foundation reads \(parsed.timeIntervalSince1970)")
        }
    }

    @Test("a moment's parts in UTC, on either side of 1970")
    func fields() {
        func parts(_ fields: Timestamp.Fields) -> [Int64] {
            [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, fields.microsecond]
        }
        #expect(parts(Timestamp.fields(microseconds: -1)) == [1969, 12, 31, 23, 59, 59, 999_999])
        #expect(
            parts(Timestamp.fields(of: Date(timeIntervalSince1970: 951_868_799.25)))
                == [2000, 2, 29, 23, 59, 59, 250_000])
    }

    @Test("the days of each month, leap years by the Gregorian rule")
    func daysInMonth() {
        #expect(CivilCalendar.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilCalendar.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilCalendar.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilCalendar.daysIn(month: 2, year: 2026) == 28)
        #expect((1...12).map { CivilCalendar.daysIn(month: $0, year: 2026) }.reduce(0, +) == 365)
        #expect((1...12).map { CivilCalendar.daysIn(month: $0, year: 2024) }.reduce(0, +) == 366)
    }
}
