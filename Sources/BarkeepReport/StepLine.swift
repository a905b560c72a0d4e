import BarkeepCore
import BarkeepProtocol

/// One checklist step of a screen: a `type=step` record of `SCREEN SHOW`.
public struct StepLine: Sendable, Equatable, RecordDecodable {
    /// `step`.
    public static let recordType = "step"

    /// The screen's key.
    public var screen: String
    /// The step's number, 1 to 12.
    public var step: Int
    /// The step's key (`container`).
    public var key: String
    /// The state that counts.
    public var state: StepState
    /// The state a person set, when it differs in meaning (`done` while a finding reopened the step).
    public var recorded: StepState?
    /// Ids of the open findings that keep the step from being done.
    public var blockers: [String]

    /// A step line.
    public init(
        screen: String, step: Int, key: String, state: StepState, recorded: StepState? = nil, blockers: [String] = []
    ) {
        self.screen = screen
        self.step = step
        self.key = key
        self.state = state
        self.recorded = recorded
        self.blockers = blockers
    }

    /// Reads a `step` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        screen = try fields.string("screen")
        step = try fields.count("step")
        guard ChecklistStep.numbers.contains(step) else {
            throw .badValue(
                record: Self.recordType, key: "step", value: String(step),
                expected:
                    "a step number from \(ChecklistStep.numbers.lowerBound) to \(ChecklistStep.numbers.upperBound)")
        }
        key = try fields.string("key")
        state = try fields.choice("state", as: StepState.self)
        if fields.optionalString("recorded") != nil {
            recorded = try fields.choice("recorded", as: StepState.self)
        } else {
            recorded = nil
        }
        blockers = fields.list("blockers")
    }

    /// Groups step lines by screen key, each screen's steps by number.
    public static func byScreen(_ lines: [StepLine]) -> [String: [StepLine]] {
        Dictionary(grouping: lines, by: \.screen).mapValues { $0.sorted { $0.step < $1.step } }
    }
}
