import BarkeepCore
import BarkeepProtocol
import Foundation

/// A scanned commit's committer time (`commit-time=`): strict ISO 8601 with an offset, as git's `%cI` prints it
/// (Core's CommitTime reads it); sent as given.
public struct CommitTimeText: WireValue, Hashable {
    /// The text, as given.
    public var text: String
    /// The time it names.
    public var date: Date

    /// Today's refusal of a time that is not one.
    static let refusal = ValueProblem(predicate: "must be an ISO 8601 time with an offset (2026-11-30T10:00:00+01:00)")

    /// Parses `wire` with Core's CommitTime.
    public init(wire: String) throws(ValueProblem) {
        guard let date = CommitTime.parse(wire) else { throw Self.refusal }
        text = wire
        self.date = date
    }
    /// The text.
    public var wire: String { text }
    /// A JSON string holding such a time.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw Self.refusal }
        try self.init(wire: text)
    }
    /// The text.
    public var json: Any { text }
    /// A non-empty string.
    public static var schema: ValueSchema { .string(minLength: 1) }
    /// 30 November 2026, 10:00 at +01:00.
    public static var example: CommitTimeText {
        let text = "2026-11-30T10:00:00+01:00"
        return CommitTimeText(text: text, date: CommitTime.parse(text) ?? Date(timeIntervalSince1970: 0))
    }

    private init(text: String, date: Date) {
        self.text = text
        self.date = date
    }
}
