import BarkeepCore
import BarkeepProtocol
import Foundation

/// A row of FINDING SET's and FINDING ASSIGN's reply: the finding's record with what happened to it.
public struct FindingChangeRecord: WireFields {
    /// The finding, as it is now (or would be, for a dry run).
    public var finding = FindingRecord()
    /// `changed`, `would-change`, `unchanged` or `refused`.
    public var change = ""
    /// The value before.
    public var from: String?
    /// The value after.
    public var to: String?
    /// Why the change is not allowed, when refused.
    public var refusal: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "finding"

    /// The fields, in wire order: the finding's, then the change's.
    public static let fields: [Field<FindingChangeRecord>] =
        Field.group(\.finding, FindingRecord.fields) + [
            Field("change", \.change, "changed, would-change (dry run), unchanged or refused."),
            Field("from", \.from, "The value before."),
            Field("to", \.to, "The value after."),
            Field("refusal", \.refusal, "Why the change is not allowed, when refused."),
        ]

    /// The JSON object of the row in `barkeep finding set --json` (and the bulk MCP tools): the finding as `barkeep
    /// findings --json` prints it, with `change`, `from`, `to` and `refusal` (null when absent).
    public var listJSON: [String: Any] {
        var object = finding.listJSON
        object["change"] = change
        object["from"] = from ?? NSNull()
        object["to"] = to ?? NSNull()
        object["refusal"] = refusal ?? NSNull()
        return object
    }

    /// The JSON Schema of `listJSON`: the finding's members and the change's.
    public static var listJSONSchema: [String: Any] {
        JSONBodySchema.amended(FindingRecord.listJSONSchema, memberSchemas(["change", "from", "to", "refusal"]))
    }

    /// The bulk object of `barkeep finding set|assign --json` (`BulkChangeReply.bulkJSON`): the counts and the rows.
    public static var bulkJSONSchema: [String: Any] {
        var members = BulkChangeSummary.memberSchemas(["changed", "unchanged", "refused"])
        members["dry_run"] = BulkChangeSummary.memberSchema("dry_run")
        members["findings"] = JSONBodySchema.array(listJSONSchema)
        return JSONBodySchema.closed(members)
    }

    /// The JSON Schema of FINDING SET's and FINDING ASSIGN's body: one finding's object or the bulk object.
    public static var changeBodySchema: [String: Any] {
        ["anyOf": [FindingRecord.listJSONSchema, bulkJSONSchema]]
    }
}
