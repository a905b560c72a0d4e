/// Where a checklist step of a screen stands, as a person set it.
public enum StepState: String, Sendable, CaseIterable, Codable {
    /// Still to do (every step starts here).
    case todo
    /// Done.
    case done
    /// Does not apply to this screen.
    case notApplicable = "not_applicable"
}

/// The result of verifying a screen in one pose.
public enum PoseResult: String, Sendable, CaseIterable, Codable {
    /// It looked right.
    case passed
    /// It did not: a screenshot and the finding it maps to say how.
    case failed
    /// Not verified, for a stated reason (a device-only pose on a simulator).
    case notRun = "not_run"
    /// The pose cannot apply to this screen (a debug screen that never rotates), for a stated reason: it counts as
    /// settled, like passed.
    case notApplicable = "not_applicable"

    /// Whether the result settles a required pose: passed, or not applicable.
    public var isSettled: Bool { self == .passed || self == .notApplicable }

    /// What the required poses counted by `isSettled` are called where a count is shown (`6/10 settled`): not
    /// "passed", since one that does not apply is settled without having passed.
    public static let settledWord = "settled"
}

/// A finding of a screen that still needs work.
public struct OpenFinding: Sendable, Equatable {
    /// Its number in the project.
    public var number: Int
    /// How people name it: `DUO007 Sources/Inbox.swift:12`, or a manual item's title.
    public var label: String
    /// Its status (one that needs work).
    public var status: FindingStatus
    /// The scanner rule, for scanner findings.
    public var rule: String?
    /// The checklist step it belongs to, if any.
    public var step: Int?

    /// A finding needing work.
    public init(number: Int, label: String, status: FindingStatus, rule: String? = nil, step: Int? = nil) {
        self.number = number
        self.label = label
        self.status = status
        self.rule = rule
        self.step = step
    }

    /// `12 (DUO007 Sources/Inbox.swift:12)`.
    public var reference: String { "\(number) (\(label))" }
}

/// Everything that decides whether one screen is done.
public struct ScreenFacts: Sendable, Equatable {
    /// Its findings that need work (FindingStatus.needsWork) as loaded: all of them for one screen, or only one per
    /// step that one keeps open when a whole project is summed up.
    public var openFindings: [OpenFinding]
    /// How many of its findings need work (at least `openFindings.count`).
    public var openFindingCount: Int
    /// The checklist.
    public var checklist: [ChecklistStep]
    /// The states people set, by step number; a step without one is `todo`.
    public var stepStates: [Int: StepState]
    /// The poses the project requires, in order.
    public var requiredPoses: [String]
    /// The latest result of each pose recorded for the screen.
    public var latestPoses: [String: PoseResult]

    /// The facts of a screen.
    public init(
        openFindings: [OpenFinding],
        openFindingCount: Int? = nil,
        checklist: [ChecklistStep],
        stepStates: [Int: StepState],
        requiredPoses: [String],
        latestPoses: [String: PoseResult]
    ) {
        self.openFindings = openFindings
        self.openFindingCount = max(openFindingCount ?? openFindings.count, openFindings.count)
        self.checklist = checklist
        self.stepStates = stepStates
        self.requiredPoses = requiredPoses
        self.latestPoses = latestPoses
    }
}

/// One step of a screen: what a person set, and what it really is once open findings are taken into account.
public struct StepStatus: Sendable, Equatable {
    /// The step.
    public var step: ChecklistStep
    /// The state a person set (`todo` when none).
    public var recorded: StepState
    /// Open findings of the step's rules (or items of the step): while one is open the step cannot be done.
    public var blockers: [OpenFinding]

    /// A step's standing.
    public init(step: ChecklistStep, recorded: StepState, blockers: [OpenFinding]) {
        self.step = step
        self.recorded = recorded
        self.blockers = blockers
    }

    /// The state that counts: a step recorded as done with an open finding of its rules is not done.
    public var effective: StepState { Self.effective(recorded: recorded, blocked: !blockers.isEmpty) }

    /// The state that counts of a step recorded as `recorded`, with (`blocked`) or without an open finding of it.
    public static func effective(recorded: StepState, blocked: Bool) -> StepState {
        recorded == .done && blocked ? .todo : recorded
    }
}

/// Why a screen is not done.
public enum NotDoneReason: Sendable, Equatable, CustomStringConvertible {
    /// Findings of the screen need work: some of them, and how many in all.
    case findingsNeedWork([OpenFinding], total: Int)
    /// A checklist step is neither done nor not applicable.
    case stepOpen(StepStatus)
    /// A required pose has not passed: its latest result, or nil when none was recorded.
    case poseNotPassed(pose: String, result: PoseResult?)

    /// What the reason is about: `findings`, `step` or `pose`.
    public var topic: String {
        switch self {
        case .findingsNeedWork: "findings"
        case .stepOpen: "step"
        case .poseNotPassed: "pose"
        }
    }

    public var description: String {
        switch self {
        case .findingsNeedWork(let findings, let total):
            let shown = findings.prefix(5).map(\.reference).joined(separator: ", ")
            let more = total > min(findings.count, 5) ? ", and \(total - min(findings.count, 5)) more" : ""
            if total == 1 && !shown.isEmpty { return "finding \(shown) needs work" }
            return shown.isEmpty ? "\(total) findings need work" : "\(total) findings need work: \(shown)\(more)"
        case .stepOpen(let status):
            let name = "step \(status.step.number) (\(status.step.key))"
            guard status.recorded == .done, let first = status.blockers.first else { return "\(name) is to do" }
            return "\(name) is marked done but finding \(first.reference) of it is open"
        case .poseNotPassed(let pose, let result):
            switch result {
            case nil: return "pose \(pose) has no result"
            case .failed: return "pose \(pose) failed"
            case .notRun: return "pose \(pose) was not run"
            case .passed: return "pose \(pose) passed"
            case .notApplicable: return "pose \(pose) does not apply"
            }
        }
    }
}

/// The one rule for "done": a screen is done when no finding of it needs work, every checklist step is done or
/// not applicable, and every required pose has passed (its latest result).
public struct ScreenReadiness: Sendable, Equatable {
    /// Every step of the checklist for this screen.
    public var steps: [StepStatus]
    /// Its findings that need work, as loaded (see ScreenFacts).
    public var openFindings: [OpenFinding]
    /// How many of its findings need work.
    public var openFindingCount: Int
    /// The poses the project requires.
    public var requiredPoses: [String]
    /// The required poses whose latest result settles them: passed, or not applicable.
    public var passedPoses: [String]
    /// The latest result of each pose recorded.
    public var latestPoses: [String: PoseResult]
    /// Why the screen is not done, in the order findings, steps, poses; empty when it is done.
    public var reasons: [NotDoneReason]

    /// Whether the screen is done.
    public var isDone: Bool { reasons.isEmpty }

    /// Decides from the facts.
    public init(_ facts: ScreenFacts) {
        openFindings = facts.openFindings
        openFindingCount = facts.openFindingCount
        requiredPoses = facts.requiredPoses
        passedPoses = facts.requiredPoses.filter { facts.latestPoses[$0]?.isSettled == true }
        latestPoses = facts.latestPoses
        steps = facts.checklist.map { step in
            StepStatus(
                step: step,
                recorded: facts.stepStates[step.number] ?? .todo,
                blockers: step.blockers(among: facts.openFindings)
            )
        }
        var reasons: [NotDoneReason] = []
        if facts.openFindingCount > 0 {
            reasons.append(.findingsNeedWork(facts.openFindings, total: facts.openFindingCount))
        }
        reasons += steps.filter { $0.effective == .todo }.map(NotDoneReason.stepOpen)
        for pose in facts.requiredPoses where facts.latestPoses[pose]?.isSettled != true {
            reasons.append(.poseNotPassed(pose: pose, result: facts.latestPoses[pose]))
        }
        self.reasons = reasons
    }

    /// How many applicable steps are done, and how many steps apply (those not marked not applicable).
    public var stepCounts: (done: Int, applicable: Int) {
        let applicable = steps.filter { $0.effective != .notApplicable }
        return (applicable.filter { $0.effective == .done }.count, applicable.count)
    }
}
