import BarkeepCore
import BarkeepProtocol
import Foundation

extension Date: WireValue {
    /// A UTC time as the protocol writes it (`2026-11-29T12:00:00.123456Z`, the fraction optional).
    public init(wire: String) throws(ValueProblem) {
        guard let date = Timestamp.date(wire, .utc) else {
            throw ValueProblem(predicate: "must be a UTC time like 2026-11-29T12:00:00Z")
        }
        self = date
    }

    /// ISO 8601 in UTC to the microsecond (Core's Timestamp).
    public var wire: String { Timestamp.text(self) }

    /// A JSON string holding such a time.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a UTC time as a string") }
        try self.init(wire: text)
    }

    /// The protocol's text.
    public var json: Any { wire }
    /// A string.
    public static var schema: ValueSchema { .string() }
    /// A time with microseconds.
    public static var example: Date { Timestamp.date(microseconds: 1_796_040_000_123_456) }
}
