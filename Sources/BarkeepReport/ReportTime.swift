import BarkeepCore
import Foundation

/// The protocol's times and the report's ways of showing them, computed by calendar arithmetic on UTC so output
/// never depends on the machine's time zone, locale or calendar.
public enum ReportTime {
    /// Parses `2026-11-29T12:00:00.123456Z` (fraction optional, up to 9 digits, always UTC); nil when malformed.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, character) in separators where bytes[index] != character.asciiValue {
            return nil
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        let end = bytes.count - 1
        if end > 19 {
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(end - 20), let digits = number(20..<end) else {
                return nil
            }
            fraction = Double(digits) / pow(10, Double(end - 20))
        } else if end != 19 {
            return nil
        }
        let days = Int(CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day)))
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `2026-11-29 12:00 UTC`: UTC, to the minute (seconds are dropped, not rounded).
    public static func minute(_ date: Date) -> String {
        let (year, month, day, hour, minute) = civil(date)
        return "\(pad(year, 4))-\(pad(month))-\(pad(day)) \(pad(hour)):\(pad(minute)) UTC"
    }

    /// How long before `now` a moment was, coarsely: `just now`, `12 min ago`, `3 h ago`, `5 d ago`. A moment
    /// after `now` (clock skew between hosts) reads `just now`.
    public static func age(of date: Date, now: Date) -> String {
        let seconds = Int(max(0, now.timeIntervalSince(date)).rounded(.down))
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3_600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    private static func civil(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        // Floor division, so moments before 1970 land on the right day.
        let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilCalendar.date(days: Int64(days))
        return (Int(year), Int(month), Int(day), secondOfDay / 3_600, secondOfDay % 3_600 / 60)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
