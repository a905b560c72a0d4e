import BarkeepCore
import BarkeepProtocol

extension StepState: WireEnum {
    /// `todo`, `done` or `not_applicable`; refused as STEP SET words it (`a step state is todo, done, …`).
    public init(wire: String) throws(ValueProblem) {
        guard let state = StepState(rawValue: wire) else {
            throw ValueProblem("a step state is " + StepState.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = state
    }
}
