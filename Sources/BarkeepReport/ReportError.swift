import BarkeepCore

/// Why reply records could not be read into the report's models. Every case names the kind of record (`project`,
/// `screen`, `finding`, …) and, for a field, its key, so a protocol mismatch between CLI and daemon is found at once.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A record the reply must hold is missing, e.g. a `STATUS` reply without its `type=totals` record.
    case missingRecord(type: String)
    /// A record that a reply holds at most once appears again.
    case duplicateRecord(type: String)
    /// A field the record must carry is absent.
    case missingField(record: String, key: String)
    /// A field is present but its value cannot be read: `expected` says what it should look like.
    case badValue(record: String, key: String, value: String, expected: String)

    /// The kind of record the error is about.
    public var recordType: String {
        switch self {
        case .missingRecord(let type), .duplicateRecord(let type): type
        case .missingField(let record, _), .badValue(let record, _, _, _): record
        }
    }

    /// The key of the field the error is about, if it is about one.
    public var key: String? {
        switch self {
        case .missingRecord, .duplicateRecord: nil
        case .missingField(_, let key), .badValue(_, let key, _, _): key
        }
    }

    /// One line for people: what is missing or wrong, naming the record and the key.
    public var description: String {
        switch self {
        case .missingRecord(let type):
            return "the reply has no '\(type)' record"
        case .duplicateRecord(let type):
            return "the reply has more than one '\(type)' record"
        case .missingField(let record, let key):
            return "a '\(record)' record has no '\(key)' field"
        case .badValue(let record, let key, let value, let expected):
            // A garbled value may be long or hold control characters: show a bounded, printable excerpt.
            return "a '\(record)' record has \(key)=\(ValueExcerpt.quoted(value)): expected \(expected)"
        }
    }
}
