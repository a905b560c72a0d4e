import Foundation

/// The one home of Barkeep's timestamp text, read and written by integer arithmetic on UTC (CivilCalendar), so
/// nothing depends on the machine's time zone, locale or calendar, nor on Foundation's formatters: the protocol's
/// times, PostgreSQL's timestamptz, git's commit times and the log's all go through it. Moments are microseconds
/// since 1970-01-01T00:00:00Z, PostgreSQL's precision.
public enum Timestamp {
    /// Which offsets a reader takes after the time.
    public enum Offset: Sendable {
        /// `Z` only: UTC, said.
        case utcOnly
        /// `Z` or `±HH:MM`, always given (strict ISO 8601, as git's `%cI`).
        case required
        /// None (UTC), `Z`, `±HH`, `±HHMM` or `±HH:MM` (PostgreSQL's output).
        case optional
    }

    /// A form of timestamp text: `YYYY-MM-DDTHH:MM:SS[.fraction]` followed by an offset. Every form asks for a real
    /// calendar date from year 1, hours 00–23, minutes and seconds 00–59 and one to nine fraction digits (kept to the
    /// microsecond); they differ in the separator and the offsets.
    public struct Syntax: Sendable {
        /// Whether a space may stand for the `T` between date and time.
        public var allowsSpace: Bool
        /// The offsets accepted.
        public var offset: Offset

        /// The protocol's times: `2026-11-29T12:00:00.123456Z`, always UTC.
        public static let utc = Syntax(allowsSpace: false, offset: .utcOnly)
        /// Strict ISO 8601 with an offset, as git prints a commit time: `2026-11-30T10:00:00+01:00`.
        public static let iso8601 = Syntax(allowsSpace: false, offset: .required)
        /// PostgreSQL's ISO style: `2026-11-29 12:00:00.123456+00`, `T` or space, offset optional.
        public static let postgres = Syntax(allowsSpace: true, offset: .optional)
    }

    /// The parts of a moment in UTC.
    public struct Fields: Sendable, Equatable {
        /// The year (proleptic Gregorian).
        public var year: Int64
        /// 1–12.
        public var month: Int64
        /// 1–31.
        public var day: Int64
        /// 0–23.
        public var hour: Int64
        /// 0–59.
        public var minute: Int64
        /// 0–59.
        public var second: Int64
        /// 0–999 999.
        public var microsecond: Int64
    }

    // MARK: - Reading

    /// The moment `text` names in `syntax`, in microseconds since 1970; nil when it is not such a text.
    public static func microseconds(_ text: String, _ syntax: Syntax) -> Int64? {
        var reader = DigitReader(bytes: Array(text.utf8))
        guard let year = reader.number(4), year >= 1, reader.expect("-"), let month = reader.number(2),
            reader.expect("-"), let day = reader.number(2),
            reader.expect("T") || (syntax.allowsSpace && reader.expect(" ")),
            let hour = reader.number(2), reader.expect(":"), let minute = reader.number(2), reader.expect(":"),
            let second = reader.number(2), (1...12).contains(month),
            (1...CivilCalendar.daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
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
        guard let offset = reader.offset(syntax.offset), reader.isAtEnd else { return nil }
        let seconds =
            CivilCalendar.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - offset
        let moment = seconds * 1_000_000 + microseconds
        return representable.contains(moment) ? moment : nil
    }

    /// The moments every text form can write back and PostgreSQL can store: 0001-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59.999999Z, in microseconds since 1970. A local time near either end whose offset carries it
    /// past them (`9999-12-31T20:00:00-05:00`) names no such moment and is refused.
    public static let representable: ClosedRange<Int64> =
        CivilCalendar.days(year: 1, month: 1, day: 1)
        * 86_400_000_000...(CivilCalendar.days(year: 10_000, month: 1, day: 1) * 86_400_000_000 - 1)

    /// The moment `text` names in `syntax`; nil when it is not such a text.
    public static func date(_ text: String, _ syntax: Syntax) -> Date? {
        microseconds(text, syntax).map(date(microseconds:))
    }

    // MARK: - Writing

    /// `date` to the nearest microsecond.
    public static func microseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The moment `microseconds` after 1970.
    public static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    /// The parts of the moment `microseconds` after 1970, in UTC (moments before 1970 land on the right day).
    public static func fields(microseconds: Int64) -> Fields {
        let (days, microsecondOfDay) = floorDivide(microseconds, 86_400_000_000)
        let (year, month, day) = CivilCalendar.date(days: days)
        let secondOfDay = microsecondOfDay / 1_000_000
        return Fields(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, microsecond: microsecondOfDay % 1_000_000)
    }

    /// The parts of `date` (to the nearest microsecond) in UTC.
    public static func fields(of date: Date) -> Fields { fields(microseconds: microseconds(of: date)) }

    /// `2026-11-29T12:00:00.123456Z`: the moment in UTC with `fractionDigits` (0 to 6) digits of the second, cut
    /// rather than rounded, so a time never reads as later than it is.
    public static func text(microseconds: Int64, fractionDigits: Int = 6) -> String {
        let parts = fields(microseconds: microseconds)
        var text =
            "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day))T\(pad(parts.hour)):\(pad(parts.minute)):"
            + pad(parts.second)
        let digits = min(max(fractionDigits, 0), 6)
        if digits > 0 { text += "." + pad(parts.microsecond, 6).prefix(digits) }
        return text + "Z"
    }

    /// `date` as `text(microseconds:fractionDigits:)` writes it.
    public static func text(_ date: Date, fractionDigits: Int = 6) -> String {
        text(microseconds: microseconds(of: date), fractionDigits: fractionDigits)
    }

    /// `value` in decimal, zero-padded to `width` digits.
    public static func pad(_ value: Int64, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
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

        /// The offset east of UTC in seconds, in a form `rule` accepts; nil when none is.
        mutating func offset(_ rule: Offset) -> Int64? {
            if expect("Z") { return 0 }
            if isAtEnd { return rule == .optional ? 0 : nil }
            guard rule != .utcOnly else { return nil }
            let sign: Int64 = peek == UInt8(ascii: "-") ? -1 : 1
            guard expect("+") || expect("-"), let hours = number(2), hours < 24 else { return nil }
            var minutes: Int64 = 0
            if rule == .required || !isAtEnd {
                let hasColon = expect(":")
                guard hasColon || rule == .optional, let value = number(2), value < 60 else { return nil }
                minutes = value
            }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
