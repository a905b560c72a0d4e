import BarkeepCore
import BarkeepProtocol

/// A listing's `limit=`: at most this many rows, 1 to `ScreenListing.maximumLimit` (checked when read from the wire
/// or JSON, so a CLI that builds one unchecked still hears the daemon's refusal).
public struct RowLimit: WireValue, Equatable {
    /// The number of rows.
    public var value: Int

    /// A limit of `value` rows, unchecked.
    public init(_ value: Int) { self.value = value }

    /// A number from 1 to the largest limit.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Int(wire), (1...ScreenListing.maximumLimit).contains(value) else { throw Self.problem }
        self.value = value
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer from 1 to the largest limit.
    public init(json: Any) throws(ValueProblem) {
        guard let value = Int(jsonNumber: json), (1...ScreenListing.maximumLimit).contains(value) else {
            throw Self.problem
        }
        self.value = value
    }
    /// The number.
    public var json: Any { value }
    /// An integer in range.
    public static var schema: ValueSchema { .integer(minimum: 1, maximum: ScreenListing.maximumLimit) }
    /// Ten rows.
    public static var example: RowLimit { RowLimit(10) }

    private static var problem: ValueProblem {
        ValueProblem(predicate: "must be a number from 1 to \(ScreenListing.maximumLimit)")
    }
}
