import Foundation

/// A commit's committer time as git prints it with `%cI` (strict ISO 8601: `2026-11-30T10:00:00+01:00`), read and
/// written without Foundation's date formatters.
public enum CommitTime {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, strictly: an upper-case `T`, a real calendar date, an
    /// offset always given (`Z` or hours and minutes with a colon, at most ±23:59), seconds 00 to 59, at most nine
    /// fraction digits (kept to the microsecond). Anything else is nil.
    public static func parse(_ text: String) -> Date? {
        var reader = DigitReader(bytes: Array(text.utf8))
        guard let year = reader.number(4), year >= 1, reader.expect("-"), let month = reader.number(2),
            reader.expect("-"), let day = reader.number(2), reader.expect("T"), let hour = reader.number(2),
            reader.expect(":"), let minute = reader.number(2), reader.expect(":"), let second = reader.number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var microseconds: Int64 = 0
        if reader.expect(".") {
            var digits = 0
            var scale: Int64 = 100_000
            while let digit = reader.number(1) {
                digits += 1
                microseconds += digit * scale
                scale /= 10
            }
            guard (1...9).contains(digits) else { return nil }
        }
        var offset: Int64 = 0
        if !reader.expect("Z") {
            let sign: Int64 = reader.peek == UInt8(ascii: "-") ? -1 : 1
            guard reader.expect("+") || reader.expect("-"), let hours = reader.number(2), reader.expect(":"),
                let minutes = reader.number(2), hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard reader.isAtEnd else { return nil }
        let seconds =
            CivilCalendar.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
            + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1_000_000)
    }

    /// `date` in UTC to the second, `2026-11-30T09:00:00Z`: how messages name a commit time.
    public static func text(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(days: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    /// The days of `month` in `year` of the Gregorian calendar.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads fixed-width decimal numbers and single characters off the front of some bytes.
    private struct DigitReader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The next `width` bytes as a number, if they are all ASCII digits.
        mutating func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + width] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            index += width
            return value
        }

        /// Consumes `character` if it comes next.
        mutating func expect(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue, peek == ascii else { return false }
            index += 1
            return true
        }
    }
}
