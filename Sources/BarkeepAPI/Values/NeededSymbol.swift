import BarkeepCore
import BarkeepProtocol

/// A value of ITEM SET's `needs=`: an SDK symbol, or no value, which says the item needs none.
public enum NeededSymbol: WireValue, Equatable {
    /// A symbol the fix needs.
    case symbol(SDKSymbol)
    /// `needs=` with no value: no symbol.
    case none

    /// A symbol, or no text.
    public init(wire: String) throws(ValueProblem) {
        self = wire.isEmpty ? .none : .symbol(try SDKSymbol(wire: wire))
    }
    /// The symbol, or no text.
    public var wire: String {
        switch self {
        case .symbol(let symbol): symbol.name
        case .none: ""
        }
    }
    /// A JSON string: a symbol, or empty.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be an SDK symbol") }
        try self.init(wire: text)
    }
    /// As on the wire.
    public var json: Any { wire }
    /// A string.
    public static var schema: ValueSchema { .string() }
    /// A symbol.
    public static var example: NeededSymbol { .symbol(SDKSymbol.example) }
}
