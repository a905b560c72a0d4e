import BarkeepCore
import BarkeepProtocol

/// EVENTS' `limit=`: at most this many events (`EventPage`).
public typealias EventLimit = PageLimit<EventPage>
/// FINDINGS' `limit=`: at most this many findings (`FindingPage`).
public typealias FindingLimit = PageLimit<FindingPage>

/// A page's `limit=`: at most this many records, 1 to `Bounds.maximumLimit`, checked when read from the wire or
/// JSON.
public struct PageLimit<Bounds: PageBounds>: WireValue, Equatable {
    /// The number of records.
    public var value: Int

    /// A limit of `value` records, unchecked.
    public init(_ value: Int) { self.value = value }

    /// A number from 1 to the largest page.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Int(wire) else { throw Self.problem }
        try self.init(checking: value)
    }
    /// Decimal.
    public var wire: String { String(value) }
    /// A JSON integer from 1 to the largest page.
    public init(json: Any) throws(ValueProblem) {
        guard let value = Int(jsonNumber: json) else { throw Self.problem }
        try self.init(checking: value)
    }
    /// The number.
    public var json: Any { value }
    /// An integer in range.
    public static var schema: ValueSchema { .integer(minimum: 1, maximum: Bounds.maximumLimit) }
    /// Ten records.
    public static var example: PageLimit { PageLimit(10) }

    private init(checking value: Int) throws(ValueProblem) {
        guard (1...Bounds.maximumLimit).contains(value) else { throw Self.problem }
        self.value = value
    }

    /// What a limit out of range, or not a number, is told.
    public static var problem: ValueProblem {
        ValueProblem(predicate: "must be a number from 1 to \(Bounds.maximumLimit)")
    }
}
