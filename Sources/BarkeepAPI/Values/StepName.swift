import BarkeepCore
import BarkeepProtocol

/// A checklist step as a request names it: its number or its key (`7`, `overflow`). The daemon resolves it (a step
/// the checklist lacks is its refusal); JSON takes the number as an integer too.
public struct StepName: WireValue, Equatable {
    /// The text: a number or a key.
    public var text: String

    /// The step named by `text`.
    public init(_ text: String) { self.text = text }

    /// Any text: the daemon resolves it.
    public init(wire: String) throws(ValueProblem) { text = wire }
    /// The text.
    public var wire: String { text }
    /// A step's number (an integer) or its key (a string).
    public init(json: Any) throws(ValueProblem) {
        if let number = json as? Int, !(json is Bool) {
            text = String(number)
        } else if let key = json as? String {
            text = key
        } else {
            throw ValueProblem(predicate: "must be a step's number or its key")
        }
    }
    /// The number as an integer, else the key.
    public var json: Any { Int(text).map { $0 as Any } ?? text }
    /// A number of the checklist's, or one of its keys (Core's ChecklistStep).
    public static var schema: ValueSchema {
        .anyOf(
            [
                .integer(minimum: ChecklistStep.numbers.lowerBound, maximum: ChecklistStep.numbers.upperBound),
                .string(values: ChecklistStep.all.map(\.key)),
            ], descriptions: ["The step's number.", "The step's key."])
    }
    /// The last step, by key.
    public static var example: StepName { StepName(ChecklistStep.all.last?.key ?? "1") }
}
