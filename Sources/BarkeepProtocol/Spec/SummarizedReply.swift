import BarkeepCore
import Foundation

/// Records of one type, then the fields of a summary on the `OK` line before `count` (`OK changed=2 unchanged=0
/// count=2`). A nil summary is sent as `OK count=N` (POSE RECORD's one result), and read back as nil when the
/// `OK` line carries none of the summary's keys.
public struct SummarizedReply<Row: WireRow, Summary: WireFields>: CommandReply {
    /// The records, in order.
    public var rows: [Row]
    /// The summary; nil: none.
    public var summary: Summary?

    /// A reply of `rows` and `summary`.
    public init(_ rows: [Row], summary: Summary?) {
        self.rows = rows
        self.summary = summary
    }

    /// `.summarizedRecords`, or `.records` without a summary.
    public func reply(version: Int) -> Reply {
        let records = rows.map { $0.record(version: version) }
        guard let summary else { return .records(records) }
        return .summarizedRecords(records, summary: summary.record(version: version))
    }

    /// Each record read as a row, the summary from the `OK` line; `count` must agree.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        rows = try RecordsReply<Row>(records: records, final: final, version: version, command: command).rows
        let keys = Summary.fields.filter { $0.versions.contains(version) }.map(\.key)
        if keys.contains(where: { final[$0] != nil }) {
            summary = try Summary(reading: { final[$0] }, version: version, context: command)
        } else {
            summary = nil
        }
    }

    /// `{"rows": […], "summary": {…} or null}`.
    public var jsonBody: Any { ["rows": rows.map(\.json), "summary": summary?.json ?? NSNull()] as [String: Any] }

    /// `{"rows": [row…], "summary": summary or null}`.
    public static var jsonBodySchema: [String: Any]? {
        [
            "type": "object", "required": ["rows", "summary"], "additionalProperties": false,
            "properties": [
                "rows": ["type": "array", "items": rowSchema(Row.recordKinds)] as [String: Any],
                "summary": ["anyOf": [Summary.jsonSchema, ["type": "null"]]],
            ] as [String: Any],
        ]
    }

    /// Two example rows and an example summary.
    public static var example: SummarizedReply {
        SummarizedReply([Row.example, Row.example], summary: Summary.example)
    }

    /// The rows' record types.
    public static var recordTypes: [any WireFields.Type] { Row.recordKinds }
    /// The summary's fields.
    public static var summaryType: (any WireFields.Type)? { Summary.self }
}

/// A head record, then rows of another type (FINDING SHOW: the finding, then its events); `OK count=N` counts
/// them all.
public struct HeadReply<Head: WireRow, Row: WireRow>: CommandReply {
    /// The first record.
    public var head: Head
    /// The records after it.
    public var rows: [Row]

    /// A reply of `head` then `rows`.
    public init(_ head: Head, rows: [Row]) {
        self.head = head
        self.rows = rows
    }

    /// `{"head": {…}, "rows": […]}`.
    public var jsonBody: Any { ["head": head.json, "rows": rows.map(\.json)] as [String: Any] }

    /// `{"head": head, "rows": [row…]}`.
    public static var jsonBodySchema: [String: Any]? {
        [
            "type": "object", "required": ["head", "rows"], "additionalProperties": false,
            "properties": [
                "head": rowSchema(Head.recordKinds),
                "rows": ["type": "array", "items": rowSchema(Row.recordKinds)] as [String: Any],
            ] as [String: Any],
        ]
    }

    /// `.records`: the head, then the rows.
    public func reply(version: Int) -> Reply {
        var records = [head.record(version: version)]
        records.reserveCapacity(rows.count + 1)
        for row in rows { records.append(row.record(version: version)) }
        return .records(records)
    }

    /// The first record as the head, the rest as rows; `count` must agree.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        guard let first = records.first else { throw .badReply("\(command) sent no records") }
        guard final["count"] == String(records.count) else {
            throw .badReply("\(command) sent \(records.count) records but count=\(final["count"] ?? "none")")
        }
        head = try Head(record: first, version: version, context: command)
        var rows: [Row] = []
        rows.reserveCapacity(records.count - 1)
        for record in records.dropFirst() { rows.append(try Row(record: record, version: version, context: command)) }
        self.rows = rows
    }

    /// An example head and two rows.
    public static var example: HeadReply { HeadReply(Head.example, rows: [Row.example, Row.example]) }

    /// The head's and the rows' record types.
    public static var recordTypes: [any WireFields.Type] { Head.recordKinds + Row.recordKinds }
}

/// A row that is one of two records, told apart by whether the record carries `discriminator` (POSE RECORD's
/// skipped rows carry `skipped=yes`; recorded ones do not).
public enum OneOf<First: WireFields, Second: WireFields & Discriminated>: WireRow {
    /// A row of the first kind.
    case first(First)
    /// A row of the second kind, carrying `Second.discriminator`.
    case second(Second)

    /// The row's record.
    public func record(version: Int) -> Record {
        switch self {
        case .first(let value): value.record(version: version)
        case .second(let value): value.record(version: version)
        }
    }

    /// The second kind when the record has `Second.discriminator`, else the first.
    public init(record: Record, version: Int, context: String) throws(ProtocolError) {
        if record[Second.discriminator] != nil {
            self = .second(try Second(record: record, version: version, context: context))
        } else {
            self = .first(try First(record: record, version: version, context: context))
        }
    }

    /// The row's JSON object.
    public var json: [String: Any] {
        switch self {
        case .first(let value): value.json
        case .second(let value): value.json
        }
    }

    /// An example of the second kind (the walk's round trip then reads the discriminator back).
    public static var example: OneOf { .second(Second.example) }

    /// Both kinds.
    public static var recordKinds: [any WireFields.Type] { [First.self, Second.self] }
}

/// A record kind that a key present only in it tells apart from another (`OneOf`).
public protocol Discriminated: Sendable {
    /// The key only this kind of record carries.
    static var discriminator: String { get }
}
