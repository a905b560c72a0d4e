import BarkeepAPI
import BarkeepCore
import BarkeepProtocol

/// One screen's line of the dashboard: a `type=screen` record of `STATUS`.
public struct ScreenStatusRecord: Sendable, Equatable {
    /// The `type=` word of its STATUS record.
    static let recordType = StatusParts.typeWord(of: StatusScreenPart.self) ?? ""

    /// The screen's key (`Inbox`).
    public var key: String
    /// A screen, or the app area (`app`).
    public var kind: ScreenKind
    /// Its title, if it has one.
    public var title: String?
    /// Who owns it, if anyone was named.
    public var owner: String?
    /// Its findings needing work, by severity.
    public var needsWork: SeverityCounts
    /// Of those, the untriaged ones (proposed).
    public var untriaged: SeverityCounts
    /// Of those, the ones in progress (approved or applied).
    public var inProgress: SeverityCounts
    /// How many of its items are blocked on an SDK.
    public var blocked: Int
    /// Checklist steps done.
    public var stepsDone: Int
    /// Checklist steps that apply (not marked not applicable).
    public var stepsApplicable: Int
    /// Required poses whose latest result is passed.
    public var posesPassed: Int
    /// Poses the project requires.
    public var posesRequired: Int
    /// Required poses whose latest result is failed, in the project's pose order.
    public var failedPoses: [String]
    /// Required poses without a result, or last recorded not run.
    public var missingPoses: [String]
    /// Whether the screen is done (no finding needs work, every step done or not applicable, every pose passed).
    public var isDone: Bool

    /// A screen's line.
    public init(
        key: String, kind: ScreenKind = .screen, title: String? = nil, owner: String? = nil,
        needsWork: SeverityCounts = SeverityCounts(), untriaged: SeverityCounts = SeverityCounts(),
        inProgress: SeverityCounts = SeverityCounts(), blocked: Int = 0,
        stepsDone: Int = 0, stepsApplicable: Int = 0, posesPassed: Int = 0, posesRequired: Int = 0,
        failedPoses: [String] = [], missingPoses: [String] = [], isDone: Bool = false
    ) {
        self.key = key
        self.kind = kind
        self.title = title
        self.owner = owner
        self.needsWork = needsWork
        self.untriaged = untriaged
        self.inProgress = inProgress
        self.blocked = blocked
        self.stepsDone = stepsDone
        self.stepsApplicable = stepsApplicable
        self.posesPassed = posesPassed
        self.posesRequired = posesRequired
        self.failedPoses = failedPoses
        self.missingPoses = missingPoses
        self.isDone = isDone
    }

    /// The line of STATUS's `type=screen` part.
    init(_ part: StatusScreenPart) throws(ReportError) {
        guard !part.key.isEmpty else {
            throw .badValue(record: Self.recordType, key: "key", value: part.key, expected: "a screen key")
        }
        self.init(
            key: part.key, kind: part.kind.flatMap(ScreenKind.init(rawValue:)) ?? .screen,
            title: ReportValues.nonEmpty(part.title), owner: ReportValues.nonEmpty(part.owner),
            needsWork: SeverityCounts(part.work.needsWork), untriaged: SeverityCounts(part.work.untriaged),
            inProgress: SeverityCounts(part.work.inProgress), blocked: part.work.blocked, stepsDone: part.stepsDone,
            stepsApplicable: part.stepsApplicable, posesPassed: part.posesPassed, posesRequired: part.posesRequired,
            failedPoses: part.failedPoses ?? [], missingPoses: part.missingPoses ?? [], isDone: part.isDone)
    }
}

/// The findings needing work that no screen owns: the `type=unmapped` record of `STATUS`.
public struct UnmappedStatus: Sendable, Equatable {
    /// Unmapped findings needing work, by severity.
    public var needsWork: SeverityCounts
    /// Of those, the untriaged ones (proposed).
    public var untriaged: SeverityCounts
    /// Of those, the ones in progress (approved or applied).
    public var inProgress: SeverityCounts
    /// How many of them are blocked on an SDK.
    public var blocked: Int

    /// The unmapped bucket.
    public init(
        needsWork: SeverityCounts = SeverityCounts(), untriaged: SeverityCounts = SeverityCounts(),
        inProgress: SeverityCounts = SeverityCounts(), blocked: Int = 0
    ) {
        self.needsWork = needsWork
        self.untriaged = untriaged
        self.inProgress = inProgress
        self.blocked = blocked
    }

    /// The bucket of STATUS's `type=unmapped` part.
    init(_ part: StatusUnmappedPart) {
        self.init(
            needsWork: SeverityCounts(part.work.needsWork), untriaged: SeverityCounts(part.work.untriaged),
            inProgress: SeverityCounts(part.work.inProgress), blocked: part.work.blocked)
    }

    /// Whether anything is unmapped: the dashboard shows the bucket only then.
    public var isEmpty: Bool { needsWork.total == 0 && blocked == 0 }
}
