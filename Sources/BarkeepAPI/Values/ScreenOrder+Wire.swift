import BarkeepCore
import BarkeepProtocol

extension ScreenOrder: WireEnum {
    /// One of the orders; refused as a listing's `sort=` words it (`must be key, work, owner`).
    public init(wire: String) throws(ValueProblem) {
        guard let order = ScreenOrder(rawValue: wire) else {
            throw ValueProblem(predicate: "must be " + ScreenOrder.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = order
    }
}
