import BarkeepCore
import BarkeepProtocol

/// One owner's screens: a `type=owner` record of `STATUS`.
public struct OwnerStatus: Sendable, Equatable, RecordDecodable {
    /// `owner`.
    public static let recordType = "owner"

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

    /// Reads a `type=owner` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        owner = fields.optionalString("owner")
        screens = try fields.count("screens")
        screensDone = try fields.count("screens-done")
        needsWork = try fields.count("needs-work")
        (untriaged, inProgress, blocked) = try fields.workStages()
    }
}
