import BarkeepCore

/// The records of a reply keyed by `type=` (SCREEN SHOW, MINE), declared part by part: each part holds records of
/// one `WireFields` type, written with `type=NAME` first, the parts in the order `parts` lists them.
public protocol TypedParts: Sendable {
    /// No records, filled by decoding.
    init()
    /// Its parts, in wire order.
    static var parts: [TypedPart<Self>] { get }
}

extension TypedParts {
    /// The records at protocol `version`, part after part, each starting with `type=NAME`: the reply's record lines
    /// (a streamed reply sends those of each page's value).
    public func records(version: Int) -> [Record] {
        var records: [Record] = []
        for part in Self.parts { part.append(self, version, &records) }
        return records
    }

    /// The `type=` word of the part holding `record` records (for messages about them); nil when no part does.
    public static func typeWord(of record: any WireFields.Type) -> String? {
        parts.first { ObjectIdentifier($0.recordType) == ObjectIdentifier(record) }?.type
    }
}

/// One part of a typed reply: the `type=` word its records carry, the record type, and where the parts value holds
/// it (exactly one record, or any number).
public struct TypedPart<Parts>: Sendable {
    /// The word after `type=`.
    public let type: String
    /// The records' type (docs/protocol.md describes its fields).
    public let recordType: any WireFields.Type
    /// Whether a reply always holds exactly one such record.
    public let isSingle: Bool

    let append: @Sendable (Parts, Int, inout [Record]) -> Void
    let read: @Sendable (inout Parts, Record, Int, String) throws(ProtocolError) -> Void
    let setExample: @Sendable (inout Parts) -> Void

    /// Exactly one record of type `type=NAME`, at `path`.
    public static func one<R: WireFields>(_ type: String, _ path: WritableKeyPath<Parts, R> & Sendable) -> TypedPart {
        TypedPart(
            type: type, recordType: R.self, isSingle: true,
            append: { parts, version, records in records.append(Self.record(parts[keyPath: path], type, version)) },
            read: { parts, record, version, context throws(ProtocolError) in
                parts[keyPath: path] = try R(record: record, version: version, context: context)
            },
            setExample: { parts in parts[keyPath: path] = R.example })
    }

    /// A record of type `type=NAME` per element of the list at `path`, in order.
    public static func many<R: WireFields>(_ type: String, _ path: WritableKeyPath<Parts, [R]> & Sendable) -> TypedPart
    {
        TypedPart(
            type: type, recordType: R.self, isSingle: false,
            append: { parts, version, records in
                for value in parts[keyPath: path] { records.append(Self.record(value, type, version)) }
            },
            read: { parts, record, version, context throws(ProtocolError) in
                parts[keyPath: path].append(try R(record: record, version: version, context: context))
            },
            setExample: { parts in parts[keyPath: path] = [R.example, R.example] })
    }

    /// `type=NAME`, then the value's fields.
    private static func record<R: WireFields>(_ value: R, _ type: String, _ version: Int) -> Record {
        var record = Record()
        record.append("type", type)
        value.append(to: &record, version: version)
        return record
    }
}

/// A reply of records keyed by `type=`: the parts of `Parts`, then `OK` with `Summary`'s fields before `count`
/// (`OK name=ana count=N`; `NoFields`: `OK count=N`). The parts' records are read through their own types; a record
/// of a type no part declares is passed over (a later server may add one, as it may add keys).
@dynamicMemberLookup
public struct TypedReply<Parts: TypedParts, Summary: WireFields>: CommandReply {
    /// The records, part by part.
    public var parts: Parts
    /// The `OK` line's fields.
    public var summary: Summary

    /// A reply of `parts` and `summary`.
    public init(_ parts: Parts, summary: Summary) {
        self.parts = parts
        self.summary = summary
    }

    /// `{"records": [each record's fields as text], "summary": {…}}`: a command with typed parts shapes its own.
    public var jsonBody: Any {
        let records = parts.records(version: ProtocolVersion.current).map { $0.json() }
        return ["records": records, "summary": summary.json] as [String: Any]
    }

    /// A part, by its name in `Parts` (`reply.screen`, `reply.findings`).
    public subscript<Value>(dynamicMember path: WritableKeyPath<Parts, Value>) -> Value {
        get { parts[keyPath: path] }
        set { parts[keyPath: path] = newValue }
    }

    /// The parts' records, then `OK` with the summary's fields (if any) and `count`.
    public func reply(version: Int) -> Reply {
        let records = parts.records(version: version)
        let summary = summary.record(version: version)
        return summary.fields.isEmpty ? .records(records) : .summarizedRecords(records, summary: summary)
    }

    /// Each record read into the part its `type=` names; a part of one record must have exactly one, `count` must
    /// agree, and the summary is read from the `OK` line.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        guard final["count"] == String(records.count) else {
            throw .badReply("\(command) sent \(records.count) records but count=\(final["count"] ?? "none")")
        }
        let declared = Parts.parts
        var parts = Parts()
        var seen: Set<String> = []
        for record in records {
            guard let type = record["type"] else { throw .badReply("\(command) sent a record without type=") }
            guard let part = declared.first(where: { $0.type == type }) else { continue }
            if part.isSingle && seen.contains(type) { throw .badReply("\(command) sent two type=\(type) records") }
            seen.insert(type)
            try part.read(&parts, record, version, "\(command) type=\(type)")
        }
        for part in declared where part.isSingle && !seen.contains(part.type) {
            throw .badReply("\(command) sent no type=\(part.type) record")
        }
        self.parts = parts
        summary = try Summary(reading: { final[$0] }, version: version, context: command)
    }

    /// Every part set to its example (two records each for a list), and an example summary.
    public static var example: TypedReply {
        var parts = Parts()
        for part in Parts.parts { part.setExample(&parts) }
        return TypedReply(parts, summary: Summary.example)
    }

    /// The parts' record types, in order.
    public static var recordTypes: [any WireFields.Type] { Parts.parts.map(\.recordType) }

    /// The summary's fields; nil when it has none.
    public static var summaryType: (any WireFields.Type)? { Summary.fields.isEmpty ? nil : Summary.self }
}

extension TypedReply where Summary == NoFields {
    /// A reply of `parts` and `OK count=N`.
    public init(_ parts: Parts) { self.init(parts, summary: NoFields()) }
}

/// No fields: the summary of a reply whose `OK` line carries only `count`.
public struct NoFields: WireFields {
    /// The only value.
    public init() {}
    /// None.
    public static let fields: [Field<NoFields>] = []
}
