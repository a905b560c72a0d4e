import BarkeepCore
import BarkeepProtocol

/// SCREEN LIST's `kind=`: a screen, a component or the app area, refused in the listing's words (`kind must be
/// screen, component, area`).
public struct ListedScreenKind: WireValue, Equatable {
    /// The kind.
    public var kind: ScreenKind

    /// The kind `kind`.
    public init(_ kind: ScreenKind) { self.kind = kind }

    /// One of the kinds.
    public init(wire: String) throws(ValueProblem) {
        guard let kind = ScreenKind(rawValue: wire) else {
            throw ValueProblem(predicate: "must be " + ScreenKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.kind = kind
    }
    /// The kind's word.
    public var wire: String { kind.rawValue }
    /// A JSON string holding a kind.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else {
            throw ValueProblem(predicate: "must be " + ScreenKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        try self.init(wire: text)
    }
    /// The kind's word.
    public var json: Any { kind.rawValue }
    /// One of the kinds.
    public static var schema: ValueSchema { ScreenKind.schema }
    /// The app area.
    public static var example: ListedScreenKind { ListedScreenKind(ScreenKind.example) }
}
