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
    /// ISO 8601 in UTC with microseconds, which PostgreSQL reads as a timestamptz (Core's Timestamp writes it).
    public var postgresText: String { Timestamp.text(self) }

    /// Reads timestamptz text in the ISO style (`2026-11-29 12:00:00.123456+00`), which every connection's UTC
    /// session prints (Core's Timestamp reads it).
    public init?(postgresText: String) {
        guard let date = Timestamp.date(postgresText, .postgres) else { return nil }
        self = date
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
