import BarkeepAPI
import BarkeepCore

/// One owner's screens: a `type=owner` record of `STATUS`.
public struct OwnerStatus: Sendable, Equatable {
    /// The owner; nil for the screens nobody owns.
    public var owner: String?
    /// How many screens they own.
    public var screens: Int
    /// How many of those are done.
    public var screensDone: Int
    /// Their findings needing work.
    public var needsWork: Int
    /// Of those, the untriaged ones, by severity.
    public var untriaged: SeverityCounts
    /// Of those, the ones in progress, by severity.
    public var inProgress: SeverityCounts
    /// Of those, the blocked ones.
    public var blocked: Int

    /// An owner's line.
    public init(
        owner: String?, screens: Int, screensDone: Int = 0, needsWork: Int = 0,
        untriaged: SeverityCounts = SeverityCounts(), inProgress: SeverityCounts = SeverityCounts(), blocked: Int = 0
    ) {
        self.owner = owner
        self.screens = screens
        self.screensDone = screensDone
        self.needsWork = needsWork
        self.untriaged = untriaged
        self.inProgress = inProgress
        self.blocked = blocked
    }

    /// The line of STATUS's `type=owner` part.
    init(_ part: StatusOwnerPart) {
        self.init(
            owner: ReportValues.nonEmpty(part.owner), screens: part.screens, screensDone: part.screensDone,
            needsWork: part.needsWork, untriaged: SeverityCounts(part.work.untriaged),
            inProgress: SeverityCounts(part.work.inProgress), blocked: part.work.blocked)
    }
}
