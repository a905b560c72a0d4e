/// Where a finding came from.
public enum FindingSource: String, Sendable, CaseIterable, Codable {
    /// A scanner run reported it.
    case scanner
    /// Someone added it by hand: an audit item, or the item a failed pose created.
    case manual
}

/// What changes a finding's status.
public enum StatusChanger: Sendable, Equatable {
    /// A scan run: new findings are proposed, absent ones fixed, fixed ones that come back reopened.
    case scanner
    /// A person, with `finding set`, holding a role.
    case person(Role)
    /// A pose that passes verifies the item a failed result of that pose on that screen created.
    case pose
    /// The project's SDK: an item needing a symbol it lacks is blocked, and unblocked when it has it.
    case sdk
}

/// Why a status change is refused, and how the caller should report it.
public struct TransitionRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// How a refusal is reported.
    public enum Kind: Sendable, Equatable {
        /// The request names a change that never makes sense (`BADARG`).
        case invalid
        /// The finding's state keeps it from that change now (`CONFLICT`).
        case conflict
        /// The role may not make it (`FORBIDDEN`).
        case forbidden
    }

    /// How it is reported.
    public var kind: Kind
    /// What to tell the user.
    public var message: String

    /// A refusal.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// The audit's status machine, as the seeds' recommendations use it: proposed → approved → applied → verified, plus
/// blocked (on the SDK), declined, kept, false_positive, and fixed (set by the scanner). One pure type says which
/// change each changer may make; the store, the server and the CLI ask it rather than keep lists of their own.
///
/// A person (writer or admin) may:
/// - approve or apply any finding that is not blocked or fixed (also to take back a verdict, or to rework a
///   verified one);
/// - mark verified a finding whose fix is applied, or a scanner finding the scanner no longer reports (fixed);
/// - decline, keep (both with a reason) or mark false positive any finding, whatever its status.
///
/// Only the SDK blocks and unblocks; only a scan fixes and reopens; a passing pose verifies the open item that a
/// failed result of the same pose on the same screen created.
public enum FindingLifecycle {
    /// The statuses a person may set, in the order the docs list them.
    public static let personStatuses: [FindingStatus] = [
        .approved, .applied, .verified, .declined, .kept, .falsePositive,
    ]

    /// The statuses a person may set, as help texts list them: `approved, applied, … or false_positive`.
    public static var personStatusesText: String { QuantityText.alternatives(personStatuses.map(\.rawValue)) }

    /// The statuses a scan leaves as they are, as help texts list them: `declined, kept and false_positive`.
    public static var stickyStatusesText: String { QuantityText.conjunction(stickyStatuses.map(\.rawValue)) }

    /// The statuses a scan leaves as they are whether the finding is reported or not.
    public static let stickyStatuses: [FindingStatus] = FindingStatus.allCases.filter(\.isSticky)

    /// The statuses that still need work: the dashboard's open findings.
    public static let needsWorkStatuses: [FindingStatus] = FindingStatus.allCases.filter(\.needsWork)

    /// The statuses of an item that the SDK re-examines when it moves (blocks or unblocks): every status but a
    /// verdict and fixed.
    public static let sdkReexamined: [FindingStatus] = FindingStatus.allCases.filter { !$0.isSticky && $0 != .fixed }

    /// The statuses a passing pose verifies its item from.
    public static let poseVerifiable: [FindingStatus] = [.proposed, .approved, .applied]

    /// How a finding marked verified that a scan after its verification still reports is shown wherever its status
    /// is (`findings`, `finding show`, the report): `verified, still reported in run 7`, `run` being the latest run
    /// that reported it. A scan never changes a verified finding it still reports (the verdict is a person's); it
    /// marks it, once, with a `finding.persisted` event (`SyncPlan.verifiedReported`), and the mark goes when
    /// the finding leaves verified.
    public static func verifiedStillReported(inRun run: String) -> String {
        "\(FindingStatus.verified.rawValue), still reported in run \(run)"
    }

    /// Why `changer` may not move a finding of `source` from `from` to `to` (`reason` given or not); nil when it may.
    /// `label` names the finding in messages (`finding 12`).
    public static func refusal(
        from: FindingStatus,
        to: FindingStatus,
        source: FindingSource,
        reason: String?,
        by changer: StatusChanger,
        label: String
    ) -> TransitionRefusal? {
        switch changer {
        case .person(let role):
            return personRefusal(from: from, to: to, source: source, reason: reason, role: role, label: label)
        case .scanner:
            let allowed =
                source == .scanner
                && ((to == .fixed && from != .fixed && !from.isSticky) || (to == .proposed && from == .fixed))
            return allowed ? nil : TransitionRefusal(.invalid, "a scan does not move \(label) to \(to.rawValue)")
        case .pose:
            let allowed = source == .manual && to == .verified && poseVerifiable.contains(from)
            return allowed ? nil : TransitionRefusal(.invalid, "a pose does not move \(label) to \(to.rawValue)")
        case .sdk:
            let allowed = (to == .blocked && from != .blocked) || (from == .blocked && to != .blocked)
            return allowed ? nil : TransitionRefusal(.invalid, "the SDK does not move \(label) to \(to.rawValue)")
        }
    }

    private static func personRefusal(
        from: FindingStatus,
        to: FindingStatus,
        source: FindingSource,
        reason: String?,
        role: Role,
        label: String
    ) -> TransitionRefusal? {
        guard role >= .writer else { return TransitionRefusal(.forbidden, "a reader cannot change \(label)") }
        guard personStatuses.contains(to) else {
            return TransitionRefusal(
                .invalid,
                "a finding can be set to " + personStatuses.map(\.rawValue).joined(separator: ", ")
                    + ", not \(to.rawValue)")
        }
        if to.requiresReason && (reason ?? "").isEmpty {
            return TransitionRefusal(.invalid, "\(to.rawValue) needs a reason")
        }
        // A verdict may be given on any finding, whatever its status.
        if to.isSticky || to == from { return nil }
        switch from {
        case .blocked:
            // Approving it by hand would hide that it cannot be built yet.
            return TransitionRefusal(
                .conflict,
                "\(label) is blocked; it unblocks when the project's SDK has what it needs (barkeep sdk set), or it "
                    + "can be declined, kept or marked false_positive")
        case .fixed:
            guard to == .verified, source == .scanner else {
                return TransitionRefusal(
                    .conflict,
                    "\(label) is fixed; it can only be verified, declined, kept or marked false_positive")
            }
            return nil
        default:
            guard to == .verified, from != .applied else { return nil }
            return TransitionRefusal(
                .conflict, "\(label) is \(from.rawValue): its fix must be applied before it is verified")
        }
    }
}
