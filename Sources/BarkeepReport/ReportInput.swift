import BarkeepCore
import BarkeepProtocol

/// Everything the readiness report is made from, each part decoded from one reply.
public struct ReportInput: Sendable, Equatable {
    /// The dashboard's status (`STATUS PROJECT`).
    public var status: ProjectStatusReply
    /// The project's findings (`FINDINGS PROJECT`), in any order: the report sorts them.
    public var findings: [ReportFinding]
    /// The pose matrix (`POSES PROJECT`).
    public var poses: [PoseCellRecord]
    /// Each screen's checklist steps (the `type=step` records of `SCREEN SHOW`) by screen key; a screen without an
    /// entry is taken to have every step still applying.
    public var steps: [String: [StepLine]]
    /// The burndown (`BURNDOWN PROJECT`), oldest first.
    public var burndown: [BurndownPoint]
    /// The project's screens, components and app area (`SCREEN LIST PROJECT`): which components each screen uses.
    /// Without them a component's findings are listed under the component's own key.
    public var screens: [ReportScreen]

    /// The report's input.
    public init(
        status: ProjectStatusReply, findings: [ReportFinding], poses: [PoseCellRecord],
        steps: [String: [StepLine]] = [:],
        burndown: [BurndownPoint] = [], screens: [ReportScreen] = []
    ) {
        self.status = status
        self.findings = findings
        self.poses = poses
        self.steps = steps
        self.burndown = burndown
        self.screens = screens
    }

    /// Reads the input from the replies the CLI collects: `STATUS`, `FINDINGS`, `POSES`, the checklist steps (the
    /// records of `STEPS`, or `SCREEN SHOW` replies one after the other: only their `type=step` records are read),
    /// `SCREEN LIST`; the burndown as BURNDOWN's records carry it.
    public init(
        statusReply: [Record], findingsReply: [Record], posesReply: [Record], stepsReply: [Record] = [],
        burndown: [BurndownPoint] = [], screensReply: [Record] = []
    ) throws(ReportError) {
        self.init(
            status: try ProjectStatusReply(records: statusReply), findings: try ReportFinding.decode(findingsReply),
            poses: try PoseCellRecord.decode(posesReply), steps: StepLine.byScreen(try StepLine.decode(stepsReply)),
            burndown: burndown, screens: try ReportScreen.decode(screensReply))
    }
}
