import BarkeepCore
import BarkeepProtocol
import Foundation

/// A model read from one reply record.
public protocol RecordDecodable: Sendable {
    /// The kind of record, as errors name it (`finding`, `pose`, …) and as `type=` names it in typed replies.
    static var recordType: String { get }

    /// Reads the model from one record, throwing when a field it needs is absent or garbled.
    init(record: Record) throws(ReportError)
}

extension RecordDecodable {
    /// Reads every record of a reply. In a typed reply (`SCREEN SHOW`) only the records whose `type=` is
    /// `recordType` are read; records without `type=` are all read.
    public static func decode(_ records: [Record]) throws(ReportError) -> [Self] {
        var models: [Self] = []
        for record in records where record["type"] == nil || record["type"] == recordType {
            models.append(try Self(record: record))
        }
        return models
    }
}

/// Typed access to the fields of one record, throwing errors that name the record's kind and the key.
struct RecordFields {
    /// The record.
    let record: Record
    /// Its kind, for errors.
    let type: String

    /// The value of a required field (it may be empty).
    func string(_ key: String) throws(ReportError) -> String {
        guard let value = record[key] else { throw .missingField(record: type, key: key) }
        return value
    }

    /// The value of an optional field; an empty value counts as absent.
    func optionalString(_ key: String) -> String? {
        guard let value = record[key], !value.isEmpty else { return nil }
        return value
    }

    /// A required count: a non-negative integer.
    func count(_ key: String) throws(ReportError) -> Int {
        let value = try string(key)
        return try parseCount(key, value)
    }

    /// An optional count; present but not a count is an error.
    func optionalCount(_ key: String) throws(ReportError) -> Int? {
        guard let value = optionalString(key) else { return nil }
        return try parseCount(key, value)
    }

    /// A required id or run number: a non-negative integer that may exceed `Int32` (ids are `Int64`).
    func identifier(_ key: String) throws(ReportError) -> Int64 {
        let value = try string(key)
        guard let number = Int64(value), number >= 0, value.allSatisfy(\.isASCIIDigit) else {
            throw .badValue(record: type, key: key, value: value, expected: "a non-negative integer")
        }
        return number
    }

    /// A comma-separated list; absent or empty is an empty list.
    func list(_ key: String) -> [String] {
        guard let value = record[key] else { return [] }
        return value.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// A required time in the protocol's form (`2026-11-29T12:00:00.123456Z`).
    func time(_ key: String) throws(ReportError) -> Date {
        let value = try string(key)
        guard let date = ReportTime.parse(value) else {
            throw .badValue(record: type, key: key, value: value, expected: "a UTC time like 2026-11-29T12:00:00Z")
        }
        return date
    }

    /// An optional time.
    func optionalTime(_ key: String) throws(ReportError) -> Date? {
        guard optionalString(key) != nil else { return nil }
        return try time(key)
    }

    /// A required version such as `27.1`.
    func version(_ key: String) throws(ReportError) -> SDKVersion {
        let value = try string(key)
        guard let version = SDKVersion(value) else {
            throw .badValue(record: type, key: key, value: value, expected: "a version like 27.1")
        }
        return version
    }

    /// An optional version.
    func optionalVersion(_ key: String) throws(ReportError) -> SDKVersion? {
        guard optionalString(key) != nil else { return nil }
        return try version(key)
    }

    /// A required value out of a closed set, read through `RawRepresentable`.
    func choice<Value: RawRepresentable & CaseIterable>(_ key: String, as: Value.Type) throws(ReportError) -> Value
    where Value.RawValue == String {
        let value = try string(key)
        guard let choice = Value(rawValue: value) else {
            let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badValue(record: type, key: key, value: value, expected: "one of \(names)")
        }
        return choice
    }

    /// `yes` or `no`.
    func flag(_ key: String) throws(ReportError) -> Bool {
        switch try string(key) {
        case "yes": return true
        case "no": return false
        case let value: throw .badValue(record: type, key: key, value: value, expected: "yes or no")
        }
    }

    private func parseCount(_ key: String, _ value: String) throws(ReportError) -> Int {
        // `Int` alone would accept a sign: counts are digits only.
        guard value.allSatisfy(\.isASCIIDigit), let number = Int(value) else {
            throw .badValue(record: type, key: key, value: value, expected: "a non-negative integer")
        }
        return number
    }
}

extension Character {
    /// `0` to `9` only (`isNumber` would also take other scripts' digits and fractions).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
