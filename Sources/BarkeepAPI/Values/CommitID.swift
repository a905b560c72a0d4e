import BarkeepProtocol

/// The commit a scan was made of (`commit=`): 4 to 64 hexadecimal digits, kept as given (the daemon compares it in
/// lower case).
public struct CommitID: WireValue, Hashable {
    /// The digits, as given.
    public var text: String

    /// The commit `text`, which the caller knows to be 4 to 64 hexadecimal digits.
    public init(_ text: String) { self.text = text }

    /// 4 to 64 hexadecimal digits; anything else refused as INGEST always refused it.
    public init(wire: String) throws(ValueProblem) {
        guard (4...64).contains(wire.count), wire.allSatisfy(\.isHexDigit) else {
            throw ValueProblem(predicate: "must be a hexadecimal commit id")
        }
        text = wire
    }
    /// The digits.
    public var wire: String { text }
    /// A JSON string of such digits.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a hexadecimal commit id") }
        try self.init(wire: text)
    }
    /// The digits.
    public var json: Any { text }
    /// A string of 4 to 64 characters.
    public static var schema: ValueSchema { .string(minLength: 4, maxLength: 64) }
    /// A short commit id.
    public static var example: CommitID { CommitID("0123abc") }
}
