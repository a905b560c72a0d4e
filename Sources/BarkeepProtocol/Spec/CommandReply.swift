/// What a command answers, typed: the server encodes it into the reply's bytes, the CLI decodes the reply into it
/// (the one layer that reads reply fields by key), and its JSON view is the CLI's `--json`, MCP's structured
/// content and the HTTP API's body.
public protocol CommandReply: Sendable {
    /// The reply the server sends at protocol `version`.
    func reply(version: Int) -> Reply
    /// Reads a reply as the client got it: its records and the fields of its `OK` line. `command` names it in errors.
    init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError)
    /// A value with every field set, for the spec walk's round trips.
    static var example: Self { get }
    /// Checks the text after `OK` as a whole, for a reply whose final line is not `key=value` fields (`OK PONG`).
    static func check(finalText: String, command: String) throws(ProtocolError)
    /// The types of the records it sends (the docs name and describe each).
    static var recordTypes: [any WireFields.Type] { get }
    /// The type of the fields its `OK` line carries besides `count`; nil: none.
    static var summaryType: (any WireFields.Type)? { get }
    /// Its JSON view when its command shapes none of its own (`CommandRequest.jsonBody(of:)`): records as objects by
    /// JSON name.
    var jsonBody: Any { get }
    /// The JSON Schema of `jsonBody`, from its fields; nil where none is declared yet (the OpenAPI document then
    /// says "an object or array").
    static var jsonBodySchema: [String: Any]? { get }
}

extension CommandReply {
    /// Fields only: nothing to check beyond them.
    public static func check(finalText: String, command: String) throws(ProtocolError) {}
    /// No records.
    public static var recordTypes: [any WireFields.Type] { [] }
    /// No fields on the `OK` line.
    public static var summaryType: (any WireFields.Type)? { nil }
    /// None declared.
    public static var jsonBodySchema: [String: Any]? { nil }

    /// The JSON Schema of one record of `types`: the type's, or one of several.
    static func rowSchema(_ types: [any WireFields.Type]) -> [String: Any] {
        types.count == 1 ? types[0].jsonSchema : ["oneOf": types.map { $0.jsonSchema }]
    }
}

/// Records of one type, then `OK count=N`.
public struct RecordsReply<Row: WireRow>: CommandReply {
    /// The records, in order.
    public var rows: [Row]

    /// A reply of `rows`.
    public init(_ rows: [Row]) { self.rows = rows }

    /// `.records`, one record per row.
    public func reply(version: Int) -> Reply { .records(rows.map { $0.record(version: version) }) }

    /// Each record read as a row; `count` must agree.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        var rows: [Row] = []
        rows.reserveCapacity(records.count)
        for record in records { rows.append(try Row(record: record, version: version, context: command)) }
        guard final["count"] == String(rows.count) else {
            throw .badReply("\(command) sent \(rows.count) records but count=\(final["count"] ?? "none")")
        }
        self.rows = rows
    }

    /// The rows' JSON objects.
    public var json: [[String: Any]] { rows.map(\.json) }

    /// The rows' JSON objects, an array.
    public var jsonBody: Any { json }

    /// An array of the row's objects.
    public static var jsonBodySchema: [String: Any]? { ["type": "array", "items": rowSchema(Row.recordKinds)] }

    /// The row's record types.
    public static var recordTypes: [any WireFields.Type] { Row.recordKinds }

    /// Two example rows.
    public static var example: RecordsReply<Row> { RecordsReply([Row.example, Row.example]) }
}

/// No records; the fields of one value on the `OK` line (`OK revoked=NAME`).
public struct OKReply<Summary: WireFields>: CommandReply {
    /// The fields.
    public var summary: Summary

    /// A reply of `summary`.
    public init(_ summary: Summary) { self.summary = summary }

    /// `OK key=value …`.
    public func reply(version: Int) -> Reply {
        let record = summary.record(version: version)
        return .ok(record.fields.map { "\($0.key)=\(Quoting.quoteValue($0.value))" }.joined(separator: " "))
    }

    /// The `OK` line's fields read as `Summary`; a record before it is a bad reply.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        guard records.isEmpty else { throw .badReply("\(command) sent records before OK") }
        summary = try Summary(reading: { final[$0] }, version: version, context: command)
    }

    /// An example summary.
    public static var example: OKReply<Summary> { OKReply(Summary.example) }

    /// The summary's JSON object.
    public var jsonBody: Any { summary.json }

    /// The summary's schema.
    public static var jsonBodySchema: [String: Any]? { Summary.jsonSchema }

    /// The `OK` line's fields.
    public static var summaryType: (any WireFields.Type)? { Summary.self }
}

/// A record of a reply: a `WireFields` value, or a row that is one of two records (`OneOf`).
public protocol WireRow: Sendable {
    /// The record sent at protocol `version`.
    func record(version: Int) -> Record
    /// Reads a record as the client got it; `context` names the command in errors.
    init(record: Record, version: Int, context: String) throws(ProtocolError)
    /// The row as a JSON object.
    var json: [String: Any] { get }
    /// An example row.
    static var example: Self { get }
    /// The record types a row may be.
    static var recordKinds: [any WireFields.Type] { get }
}

extension WireFields {
    /// The type itself.
    public static var recordKinds: [any WireFields.Type] { [Self.self] }

    /// A value with every field set to its type's example, optional ones included: for the walk's round trips.
    public static var example: Self {
        var value = Self()
        for field in fields { field.setExample(&value) }
        return value
    }
}
