import BarkeepCore
import BarkeepProtocol

/// FINDINGS' `after=`: the number of the finding a page starts after (the previous page's `next`), 1 to
/// `FindingNumber.maximum`; it need not exist.
public struct FindingCursor: WireValue, Equatable {
    /// The number.
    public var value: Int

    /// The cursor after finding `value`, unchecked.
    public init(_ value: Int) { self.value = value }

    /// Decimal digits, 1 to 2147483647: a finding's number (ProjectNumber's form), worded as a cursor.
    public init(wire: String) throws(ValueProblem) {
        do throws(ValueProblem) {
            value = try ProjectNumber(wire: wire).value
        } catch {
            throw Self.problem
        }
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer, 1 to 2147483647.
    public init(json: Any) throws(ValueProblem) {
        do throws(ValueProblem) {
            value = try ProjectNumber(json: json).value
        } catch {
            throw Self.problem
        }
    }
    /// The number.
    public var json: Any { value }
    /// An integer in range.
    public static var schema: ValueSchema { .integer(minimum: 1, maximum: FindingNumber.maximum) }
    /// A page after finding 500.
    public static var example: FindingCursor { FindingCursor(500) }

    /// What a cursor out of range, or not a number, is told.
    public static var problem: ValueProblem {
        ValueProblem(predicate: "must be a finding's number, 1 to \(FindingNumber.maximum) (the previous page's next)")
    }
}
