import BarkeepProtocol

/// The commands of this noun declared by a spec: STEP SET, STEPS and CHECKLIST, as they are converted.
public enum StepAPI {
    /// The requests, in the order docs/protocol.md gives them.
    public static let all: [any CommandRequest.Type] = [
        StepSetRequest.self, StepsRequest.self, ChecklistRequest.self,
    ]
}
