import BarkeepCore
import BarkeepProtocol

/// What a number in a project numbers (a run, a finding), for the refusal of a number that cannot be one.
public protocol NumberedInProject: Sendable {
    /// The noun, after `a`: `run`, `finding`.
    static var noun: String { get }
}

/// Runs are numbered from 1 in each project.
public enum RunNumbering: NumberedInProject {
    /// `run`.
    public static let noun = "run"
}

/// Findings and items share one numbering in each project.
public enum FindingNumbering: NumberedInProject {
    /// `finding`.
    public static let noun = "finding"
}

/// A run's or a finding's number in its project: 1 to 2147483647 (numbers are 32-bit in the database), sent bare.
public struct ProjectNumber<Kind: NumberedInProject>: WireValue, Hashable {
    /// The number.
    public var value: Int

    /// The number `value`, which the caller knows to be in range (a number read from a reply, or parsed).
    public init(_ value: Int) { self.value = value }

    /// Decimal digits naming 1 to 2147483647; anything else is refused as the protocol always refused it.
    public init(wire: String) throws(ValueProblem) {
        guard let number = Int32(wire), number > 0 else { throw Self.refusal }
        value = Int(number)
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer from 1 to 2147483647.
    public init(json: Any) throws(ValueProblem) {
        guard let number = JSONInteger.value(json) else { throw ValueProblem(predicate: "must be an integer") }
        guard (1...FindingNumber.maximum).contains(number) else { throw Self.refusal }
        value = number
    }
    /// The number.
    public var json: Any { value }
    /// An integer of at least 1 (the upper bound is checked on reading, as the tools always did).
    public static var schema: ValueSchema { .integer(minimum: 1) }
    /// 7.
    public static var example: ProjectNumber { ProjectNumber(7) }

    /// `a finding is named by its number in the project: 1 to 2147483647`.
    static var refusal: ValueProblem {
        ValueProblem("a \(Kind.noun) is named by its number in the project: 1 to \(FindingNumber.maximum)")
    }
}
