import BarkeepCore
import Foundation

/// The values of a typed reply the wire leaves as text (versions, times, a source or severity) read into Core's
/// types, once, as the report's views are built: a value that does not read is a `ReportError` naming the record
/// and the key.
enum ReportValues {
    /// A version such as `27.1`.
    static func version(_ text: String, record: String, key: String) throws(ReportError) -> SDKVersion {
        guard let version = SDKVersion(text) else {
            throw .badValue(record: record, key: key, value: text, expected: "a version like 27.1")
        }
        return version
    }

    /// A time in the protocol's form (`2026-11-29T12:00:00.123456Z`).
    static func time(_ text: String, record: String, key: String) throws(ReportError) -> Date {
        guard let date = ReportTime.parse(text) else {
            throw .badValue(record: record, key: key, value: text, expected: "a UTC time like 2026-11-29T12:00:00Z")
        }
        return date
    }

    /// A value out of a closed set, read through `RawRepresentable`.
    static func choice<Value: RawRepresentable & CaseIterable>(
        _ text: String, as: Value.Type, record: String, key: String
    ) throws(ReportError) -> Value where Value.RawValue == String {
        guard let choice = Value(rawValue: text) else {
            let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badValue(record: record, key: key, value: text, expected: "one of \(names)")
        }
        return choice
    }

    /// `text`, or nil when absent or empty: an empty optional field counts as absent.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
