/// Where a finding stands in the audit. The raw values are those stored in the database and shown to users.
public enum FindingStatus: String, Sendable, CaseIterable, Codable {
    /// Found and awaiting a decision.
    case proposed
    /// The team agreed to fix it.
    case approved
    /// The fix is in the code.
    case applied
    /// The fix was checked on the device.
    case verified
    /// The fix needs an SDK the team does not build with yet.
    case blocked
    /// The team decided not to fix it (a reason is required).
    case declined
    /// Kept as it is on purpose (a reason is required).
    case kept
    /// Not a real problem.
    case falsePositive = "false_positive"
    /// The scanner no longer reports it.
    case fixed

    /// Whether the finding still needs work: these count towards the dashboard's open totals.
    public var needsWork: Bool {
        switch self {
        case .proposed, .approved, .applied, .blocked: true
        case .verified, .declined, .kept, .falsePositive, .fixed: false
        }
    }

    /// Human verdicts that a scan never changes, whether the finding is still reported or not.
    public var isSticky: Bool {
        switch self {
        case .declined, .kept, .falsePositive: true
        default: false
        }
    }

    /// Whether setting this status requires a reason.
    public var requiresReason: Bool {
        switch self {
        case .declined, .kept, .blocked: true
        default: false
        }
    }
}
