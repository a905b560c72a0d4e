import BarkeepCore

/// Why a typed reply could not be read into the report's views: a value the wire leaves as text (a version, a time,
/// a severity) that does not read, naming the kind of record (`project`, `scan`, `finding`, …) and the key; or the
/// typed decoding's own refusal, whose words name the command and the key. Either way a protocol mismatch between
/// CLI and daemon is found at once.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field is present but its value cannot be read: `expected` says what it should look like.
    case badValue(record: String, key: String, value: String, expected: String)
    /// The typed reply could not be decoded: its decoding's message.
    case badReply(String)

    /// One line for people: what is wrong, naming the record and the key.
    public var description: String {
        switch self {
        case .badValue(let record, let key, let value, let expected):
            // A garbled value may be long or hold control characters: show a bounded, printable excerpt.
            return "a '\(record)' record has \(key)=\(ValueExcerpt.quoted(value)): expected \(expected)"
        case .badReply(let message):
            return message
        }
    }
}
