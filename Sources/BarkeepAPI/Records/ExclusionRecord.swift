import BarkeepProtocol
import Foundation

/// A path excluded from the audit: an `exclusion` record of SCREEN EXCLUDE and SCREEN EXCLUSIONS.
public struct ExclusionRecord: WireFields {
    /// The directory or file, relative to where the scanner runs.
    public var path = ""
    /// Why it is left out; nil: no reason given.
    public var why: String?
    /// Who excluded it.
    public var actor = ""
    /// When (the database's text).
    public var excluded = ""

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "exclusion"

    /// The fields, in wire order.
    public static let fields: [Field<ExclusionRecord>] = [
        Field("path", \.path, "The directory or file excluded."),
        Field("why", \.why, "Why it is left out of the audit; absent: no reason given."),
        Field("actor", \.actor, "Who excluded it."),
        Field("excluded", \.excluded, "When."),
    ]

    /// The CLI's `--json` object: every key, `why` null when not given.
    public var listJSON: [String: Any] {
        ["path": path, "why": why ?? NSNull(), "actor": actor, "excluded": excluded]
    }
}
