import BarkeepCore
import BarkeepProtocol

extension KeyGlob: WireValue {
    /// A glob of screen keys (Core's rule).
    public init(wire: String) throws(ValueProblem) {
        guard let glob = KeyGlob(wire) else {
            throw ValueProblem(predicate: "is a glob of screen keys: 1 to 128 of A-Z a-z 0-9 . _ - * ?")
        }
        self = glob
    }
    /// The glob as written.
    public var wire: String { pattern }
    /// A JSON string holding a glob.
    public init(json: Any) throws(ValueProblem) { try self.init(wire: try String(json: json)) }
    /// The glob as written.
    public var json: Any { pattern }
    /// 1 to 128 characters.
    public static var schema: ValueSchema { .string(minLength: 1, maxLength: 128) }
    /// Every screen of a prefix.
    public static var example: KeyGlob {
        // A literal glob Core accepts.
        guard let glob = KeyGlob("Menu*") else { preconditionFailure("Menu* is a glob") }
        return glob
    }
}
