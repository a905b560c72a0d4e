import BarkeepProtocol

/// A step of the audit checklist as CHECKLIST answers it: its number, key and the scanner rules that evidence it.
public struct ChecklistStepRecord: WireFields {
    /// The step's number.
    public var step = 0
    /// The step's key (`container`).
    public var key = ""
    /// The scanner rules whose open findings keep it from being done; nil when none.
    public var rules: [String]?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "checklist-step"

    /// The fields, in wire order.
    public static let fields: [Field<ChecklistStepRecord>] = [
        Field("step", \.step, "The step's number."),
        Field("key", \.key, "The step's key."),
        Field("rules", \.rules, "The scanner rules that evidence it; absent: none."),
    ]
}
