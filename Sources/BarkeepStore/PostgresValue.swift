import BarkeepCore
import Foundation

/// A Swift value that can be bound as a statement parameter, sent in PostgreSQL's text format.
public protocol PostgresEncodable: Sendable {
    /// The value in PostgreSQL's text input format.
    var postgresText: String { get }
}

/// A Swift value that can be read from a column in PostgreSQL's text output format.
public protocol PostgresDecodable: Sendable {
    /// Parses the text output of a column; nil when the text is not a valid value of this type.
    init?(postgresText: String)
}

extension String: PostgresEncodable, PostgresDecodable {
    public var postgresText: String { self }
    public init?(postgresText: String) { self = postgresText }
}

extension Int: PostgresEncodable, PostgresDecodable {
    public var postgresText: String { String(self) }
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Int64: PostgresEncodable, PostgresDecodable {
    public var postgresText: String { String(self) }
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Int32: PostgresEncodable, PostgresDecodable {
    public var postgresText: String { String(self) }
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Double: PostgresEncodable, PostgresDecodable {
    public var postgresText: String { String(self) }
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Bool: PostgresEncodable, PostgresDecodable {
    public var postgresText: String { self ? "t" : "f" }
    public init?(postgresText: String) {
        switch postgresText {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension Date: PostgresEncodable, PostgresDecodable {
    /// ISO 8601 in UTC with microseconds, which PostgreSQL reads as a timestamptz.
    public var postgresText: String {
        let microseconds = Int64((timeIntervalSince1970 * 1_000_000).rounded())
        return PostgresTimestamp.format(microsecondsSinceEpoch: microseconds)
    }

    public init?(postgresText: String) {
        guard let microseconds = PostgresTimestamp.parse(postgresText) else { return nil }
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}

extension Array: PostgresEncodable where Element == String {
    /// An array literal (`{"a","b"}`) with every element quoted and escaped.
    public var postgresText: String {
        let elements = map { element in
            "\"" + element.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        return "{" + elements.joined(separator: ",") + "}"
    }
}

extension Array: PostgresDecodable where Element == String {
    /// Parses a one-dimensional text array as PostgreSQL prints it. NULL elements are refused.
    public init?(postgresText: String) {
        guard let elements = PostgresArrayParser.parse(postgresText) else { return nil }
        self = elements
    }
}

/// Reads one-dimensional array literals such as `{a,"b c",NULL}`.
enum PostgresArrayParser {
    static func parse(_ text: String) -> [String]? {
        var characters = Substring(text)
        guard characters.first == "{", characters.last == "}" else { return nil }
        characters = characters.dropFirst().dropLast()
        if characters.isEmpty { return [] }
        var elements: [String] = []
        var current = ""
        var isQuoted = false
        var wasQuoted = false
        var isEscaped = false
        for character in characters {
            if isEscaped {
                current.append(character)
                isEscaped = false
            } else if character == "\\" {
                isEscaped = true
            } else if character == "\"" {
                isQuoted.toggle()
                wasQuoted = true
            } else if character == "," && !isQuoted {
                guard wasQuoted || current != "NULL" else { return nil }
                elements.append(current)
                current = ""
                wasQuoted = false
            } else {
                current.append(character)
            }
        }
        guard !isQuoted, !isEscaped, wasQuoted || current != "NULL" else { return nil }
        elements.append(current)
        return elements
    }
}

/// Formats and parses timestamptz text in the ISO style with the session in UTC, which every connection sets.
enum PostgresTimestamp {
    static func format(microsecondsSinceEpoch: Int64) -> String {
        let (days, microsecondOfDay) = floorDivide(microsecondsSinceEpoch, 86_400_000_000)
        let (year, month, day) = CivilCalendar.date(days: days)
        let seconds = microsecondOfDay / 1_000_000
        let fraction = microsecondOfDay % 1_000_000
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(fraction, 6))Z"
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM]]` (a `T` or a space between date and time).
    static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + width] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        var microseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                microseconds += Int64(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offsetSeconds: Int64 = 0
        if index < bytes.count {
            if bytes[index] == UInt8(ascii: "Z") {
                index += 1
            } else {
                let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                guard expect("+-"), let offsetHours = number(2) else { return nil }
                var offsetMinutes: Int64 = 0
                if index < bytes.count {
                    _ = expect(":")
                    guard let minutes = number(2) else { return nil }
                    offsetMinutes = minutes
                }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1_000_000 + microseconds
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }
}
