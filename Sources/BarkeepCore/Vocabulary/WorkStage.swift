/// Where a finding that needs work stands in the team's hands: the dashboard counts each stage apart, so that the
/// triage queue does not hide behind the work already under way.
public enum WorkStage: String, Sendable, CaseIterable {
    /// Found and awaiting a decision (`proposed`).
    case untriaged
    /// Triaged and being fixed (`approved`, `applied`).
    case inProgress = "in-progress"
    /// Waiting for an SDK the team does not build with yet (`blocked`).
    case blocked

    /// The stage of a finding of `status`; nil when the status needs no work.
    public init?(_ status: FindingStatus) {
        switch status {
        case .proposed: self = .untriaged
        case .approved, .applied: self = .inProgress
        case .blocked: self = .blocked
        case .verified, .declined, .kept, .falsePositive, .fixed: return nil
        }
    }

    /// The statuses of the stage, in `FindingStatus.allCases` order.
    public var statuses: [FindingStatus] { FindingStatus.allCases.filter { WorkStage($0) == self } }
}
