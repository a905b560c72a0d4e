import BarkeepCore
import BarkeepProtocol

/// What a number in a project names, for the words of its refusal (`a run is named by its number …`).
public protocol NumberedNoun: Sendable {
    /// The noun (`run`, `item`).
    static var noun: String { get }
}

/// The number of a run or an item in its project (RUN SHOW, ITEM SET, ITEM REMOVE): a `ProjectNumber` refused in
/// its noun's words.
public struct NumberOf<Noun: NumberedNoun>: WireValue, Equatable {
    /// The number.
    public var value: Int

    /// The number `value`.
    public init(_ value: Int) { self.value = value }

    /// Why a text is not such a number, as the server words it.
    public static var problem: ValueProblem {
        ValueProblem("a \(Noun.noun) is named by its number in the project: 1 to \(FindingNumber.maximum)")
    }

    /// Decimal digits, 1 to 2147483647.
    public init(wire: String) throws(ValueProblem) {
        guard let number = try? ProjectNumber(wire: wire) else { throw Self.problem }
        value = number.value
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer, 1 to 2147483647.
    public init(json: Any) throws(ValueProblem) {
        guard let number = try? ProjectNumber(json: json) else { throw Self.problem }
        value = number.value
    }
    /// The number.
    public var json: Any { value }
    /// An integer of 1 or more.
    public static var schema: ValueSchema { ProjectNumber.schema }
    /// A number past the byte cache of small ones.
    public static var example: NumberOf { NumberOf(ProjectNumber.example.value) }
}

/// A run's number in its project.
public typealias RunNumber = NumberOf<RunNoun>
/// An item's number in its project.
public typealias ItemNumber = NumberOf<ItemNoun>

/// Runs, as numbers name them.
public enum RunNoun: NumberedNoun {
    /// `run`.
    public static let noun = "run"
}

/// Items, as numbers name them (the server has always said "a item").
public enum ItemNoun: NumberedNoun {
    /// `item`, after the article `a`, as the server words it.
    public static let noun = "item"
}
