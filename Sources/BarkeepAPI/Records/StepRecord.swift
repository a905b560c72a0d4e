import BarkeepCore
import BarkeepProtocol

/// One checklist step of a screen: a `step` record of STEPS, SCREEN SHOW and STEP SET.
public struct StepRecord: WireFields, Equatable {
    /// The screen's key.
    public var screen = ""
    /// The step's number.
    public var step = 0
    /// The step's key (`container`).
    public var key = ""
    /// The state that counts.
    public var state = StepState.todo
    /// The state a person set.
    public var recorded = StepState.todo
    /// The open findings that keep it from being done, by number; nil when none.
    public var blockers: [String]?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it.
    public static let recordName: String? = "step"

    /// The fields, in wire order.
    public static let fields: [Field<StepRecord>] = [
        Field("screen", \.screen, "The screen's key."),
        Field("step", \.step, "The step's number."),
        Field("key", \.key, "The step's key."),
        Field("state", \.state, "What counts."),
        Field("recorded", \.recorded, "What a person set."),
        Field("blockers", \.blockers, "The open findings that keep it from being done; absent: none."),
    ]
}
