import BarkeepProtocol
import Foundation

/// The latest result of a pose in the pose matrix: Core's `PoseResult` as it comes on the wire, or `none` when
/// nothing was ever recorded (RecordDecodingTests holds the two lists together).
public enum PoseCellResult: String, Sendable, CaseIterable {
    /// It looked right.
    case passed
    /// It did not.
    case failed
    /// Not verified, for a stated reason.
    case notRun = "not_run"
    /// It cannot apply to the screen, for a stated reason: settled, like passed.
    case notApplicable = "not_applicable"
    /// Never recorded (`none` on the wire; not `.none`, which would read as an absent optional).
    case noResult = "none"
}

/// One screen × pose cell of the matrix: a record of `POSES PROJECT`.
public struct PoseCellRecord: Sendable, Equatable, RecordDecodable {
    /// `pose`.
    public static let recordType = "pose"

    /// The screen's key.
    public var screen: String
    /// The pose (`P3`).
    public var pose: String
    /// Its latest result.
    public var result: PoseCellResult
    /// Why it was not run (or other words the tester left).
    public var reason: String?
    /// The screenshot of a failure.
    public var screenshot: String?
    /// The finding a failure maps to.
    public var finding: String?
    /// The device it was verified on.
    public var device: String?
    /// When the result was recorded.
    public var recorded: Date?

    /// A cell.
    public init(
        screen: String, pose: String, result: PoseCellResult, reason: String? = nil, screenshot: String? = nil,
        finding: String? = nil, device: String? = nil, recorded: Date? = nil
    ) {
        self.screen = screen
        self.pose = pose
        self.result = result
        self.reason = reason
        self.screenshot = screenshot
        self.finding = finding
        self.device = device
        self.recorded = recorded
    }

    /// Reads a `pose` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        screen = try fields.string("screen")
        pose = try fields.string("pose")
        result = try fields.choice("result", as: PoseCellResult.self)
        reason = fields.optionalString("reason")
        screenshot = fields.optionalString("screenshot")
        finding = fields.optionalString("finding")
        device = fields.optionalString("device")
        recorded = try fields.optionalTime("recorded")
    }
}
