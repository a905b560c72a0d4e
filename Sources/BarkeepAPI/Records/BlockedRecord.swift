import BarkeepCore
import BarkeepProtocol
import Foundation

/// A record of BLOCKED: the SDK that would bring a symbol an item waits for (`none`: no SDK declares it), the
/// symbol, then the item's `finding` fields. An item waiting for several symbols has a record for each.
public struct BlockedRecord: WireFields, Equatable {
    /// The SDK that declares the symbol; `none` when no SDK does.
    public var sdk = ""
    /// The symbol; absent when the item waits for no one symbol.
    public var symbol: String?
    /// The item.
    public var finding = FindingRecord()

    /// An empty record, filled by decoding.
    public init() {}

    /// The record of `finding`, waiting for `symbol` that `sdk` declares.
    public init(sdk: String, symbol: String?, finding: FindingRecord) {
        self.sdk = sdk
        self.symbol = symbol
        self.finding = finding
    }

    /// What `sdk` says when no SDK declares the symbol.
    public static let noSDK = "none"

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "blocked"

    /// The fields, in wire order.
    public static let fields: [Field<BlockedRecord>] =
        [
            Field("sdk", \.sdk, "The SDK that declares the symbol; none when no SDK does."),
            Field("symbol", \.symbol, "The symbol the item waits for."),
        ] + Field.group(\.finding, FindingRecord.fields)

    /// The object `barkeep blocked --json` prints: {sdk, symbol, id, title, rule, screen, status, reason}, null
    /// where absent.
    public var listJSON: [String: Any] {
        [
            "sdk": sdk, "symbol": symbol ?? NSNull(), "id": finding.id, "title": finding.title ?? NSNull(),
            "rule": finding.rule ?? NSNull(), "screen": finding.screen, "status": finding.status.rawValue,
            "reason": finding.reason ?? NSNull(),
        ]
    }

    /// The JSON Schema of `listJSON`: exactly its members.
    public static var listJSONSchema: [String: Any] {
        JSONBodySchema.closed(memberSchemas(["sdk", "symbol", "id", "title", "rule", "screen", "status", "reason"]))
    }
}
