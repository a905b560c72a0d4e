import BarkeepCore
import BarkeepProtocol

extension ScreenKind: WireEnum {
    /// One of the kinds; refused as SCREEN LIST's `kind=` words it (`must be screen, component, area`).
    public init(wire: String) throws(ValueProblem) {
        guard let kind = ScreenKind(rawValue: wire) else {
            throw ValueProblem(predicate: "must be " + ScreenKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = kind
    }
}
