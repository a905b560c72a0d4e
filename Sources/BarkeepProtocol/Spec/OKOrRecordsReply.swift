import BarkeepCore

/// A reply of one of two forms (SCREEN REMOVE): the fields of one value on the `OK` line alone (`OK removed=KEY
/// findings=N`), or records with a summary before `count` (`OK findings= removed= count=N`). The client tells them
/// apart by `count`, which only the second carries.
public enum OKOrRecordsReply<Single: WireFields, Row: WireRow, Summary: WireFields>: CommandReply {
    /// The `OK` line's fields alone.
    case ok(Single)
    /// Records, and the summary's fields before `count`.
    case records([Row], summary: Summary)

    /// The fields' JSON object, or the records' and summary's as `SummarizedReply` gives them.
    public var jsonBody: Any {
        switch self {
        case .ok(let single): single.json
        case .records(let rows, let summary): SummarizedReply(rows, summary: summary).jsonBody
        }
    }

    /// `.ok` with the fields, or `.summarizedRecords`.
    public func reply(version: Int) -> Reply {
        switch self {
        case .ok(let single): OKReply(single).reply(version: version)
        case .records(let rows, let summary):
            SummarizedReply(rows, summary: summary).reply(version: version)
        }
    }

    /// The second form when the `OK` line has `count`, else the first.
    public init(records: [Record], final: [String: String], version: Int, command: String) throws(ProtocolError) {
        guard final["count"] != nil else {
            self = .ok(try OKReply<Single>(records: records, final: final, version: version, command: command).summary)
            return
        }
        let reply = try SummarizedReply<Row, Summary>(
            records: records, final: final, version: version, command: command)
        guard let summary = reply.summary else { throw .badReply("\(command) sent records without a summary") }
        self = .records(reply.rows, summary: summary)
    }

    /// The single form's object, or the records' as `SummarizedReply` gives them.
    public static var jsonBodySchema: [String: Any]? {
        guard let records = SummarizedReply<Row, Summary>.jsonBodySchema else { return Single.jsonSchema }
        return ["anyOf": [Single.jsonSchema, records]]
    }

    /// The rows' record types.
    public static var recordTypes: [any WireFields.Type] { Row.recordKinds }
    /// The summary's fields (the single form's are documented beside them).
    public static var summaryType: (any WireFields.Type)? { Summary.self }

    /// Two example rows and an example summary.
    public static var example: OKOrRecordsReply { .records([Row.example, Row.example], summary: Summary.example) }
}
