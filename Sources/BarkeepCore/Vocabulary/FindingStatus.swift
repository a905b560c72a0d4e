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
    /// Not a real problem (a reason is required: the verdict an auditor most needs explained).
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
        case .declined, .kept, .falsePositive, .blocked: true
        default: false
        }
    }

    /// Whether every finding stored in this status holds a reason: the schema's CHECK. The statuses that need a
    /// reason to be set, but for false_positive, which needed none before and whose older findings may have none.
    public var isStoredWithReason: Bool {
        requiresReason && self != .falsePositive
    }

    /// The statuses a person sets that need a reason, for help texts: `declined, kept and false_positive` (blocked
    /// needs one too, but only the SDK rules set it).
    public static var verdictsNeedingReason: String {
        QuantityText.conjunction(allCases.filter { $0.requiresReason && $0 != .blocked }.map(\.rawValue))
    }
}
