import BarkeepCore
import BarkeepProtocol

/// A symbol of the iOS SDK an item's fix needs (`axisBehavior`, `UIView.sizeThatFits(_:)`).
public struct SDKSymbol: WireValue, Equatable {
    /// The symbol.
    public var name: String

    /// The symbol `name` (checked when read from the wire or JSON).
    public init(_ name: String) { self.name = name }

    /// Letters, digits, `_`, `.`, `:`, `(` and `)`.
    public init(wire: String) throws(ValueProblem) {
        guard Names.isValidSymbol(wire) else {
            throw ValueProblem(
                predicate: "must be an SDK symbol (letters, digits, '_', '.', ':', '(' or ')'), not "
                    + ValueExcerpt.quoted(wire))
        }
        name = wire
    }
    /// The symbol.
    public var wire: String { name }
    /// A JSON string holding a symbol.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be an SDK symbol") }
        try self.init(wire: text)
    }
    /// The symbol.
    public var json: Any { name }
    /// A non-empty string.
    public static var schema: ValueSchema { .described("An SDK symbol (axisBehavior).", .string(minLength: 1)) }
    /// A symbol of the iOS 27 SDK.
    public static var example: SDKSymbol { SDKSymbol("axisBehavior") }
}
