import BarkeepCore
import BarkeepProtocol

/// A checklist step as a request names it: its number (`5`) or its key (`axis`). The store reads it
/// (`ItemStore.step`), refusing what names no step; JSON gives the number as an integer or the key as a string.
public struct ChecklistStepName: WireValue, Equatable {
    /// The text: a number or a key.
    public var text: String

    /// The step named by `text`.
    public init(_ text: String) { self.text = text }

    /// Any text (the store refuses what names no step, in its words).
    public init(wire: String) throws(ValueProblem) { text = wire }
    /// The text.
    public var wire: String { text }
    /// A step's number (an integer) or key (a string).
    public init(json: Any) throws(ValueProblem) {
        if let key = json as? String {
            text = key
        } else if let number = Int(jsonNumber: json) {
            text = String(number)
        } else {
            throw ValueProblem(predicate: "must be a checklist step: its number or its key")
        }
    }
    /// The number as an integer, or the key.
    public var json: Any { Int(text) ?? text }
    /// A step's number, or one of the keys.
    public static var schema: ValueSchema {
        .anyOf([
            .described(
                "The step's number.",
                .integer(minimum: ChecklistStep.numbers.lowerBound, maximum: ChecklistStep.numbers.upperBound)),
            .described("The step's key.", .string(values: ChecklistStep.all.map(\.key))),
        ])
    }
    /// The key of the last step.
    public static var example: ChecklistStepName {
        ChecklistStepName(ChecklistStep.all[ChecklistStep.all.count - 1].key)
    }
}
