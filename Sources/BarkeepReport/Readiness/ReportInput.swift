import BarkeepAPI
import BarkeepCore

/// Everything the readiness report is made from: the typed replies the CLI collects, the status and the findings
/// read once into the report's views.
public struct ReportInput: Sendable, Equatable {
    /// The dashboard's status (`STATUS PROJECT`).
    public var status: ProjectStatusReply
    /// The project's findings (`FINDINGS PROJECT`), in any order: the report sorts them.
    public var findings: [ReportFinding]
    /// The pose matrix (`POSES PROJECT`).
    public var poses: [PoseResultRecord]
    /// Each screen's checklist steps (`STEPS PROJECT`) by screen key, each screen's by number; a screen without an
    /// entry is taken to have every step still applying.
    public var steps: [String: [StepRecord]]
    /// The burndown (`BURNDOWN PROJECT`), oldest first.
    public var burndown: [BurndownPoint]
    /// The project's screens, components and app area (`SCREEN LIST PROJECT`): which components each screen uses.
    /// Without them a component's findings are listed under the component's own key.
    public var screens: [ScreenRecord]
    /// The failed poses' uploaded screenshots the HTML report embeds, by the name a pose result holds
    /// (`sha256:HEX`); empty for Markdown.
    public var screenshots: [String: EmbeddedScreenshot] = [:]
    /// How many failed poses' uploaded screenshots are not embedded: past `ScreenshotLimit.reportEmbeddedBytes` in
    /// all, too large to fetch inline, or gone.
    public var screenshotsLeftOut = 0

    /// The report's input.
    public init(
        status: ProjectStatusReply, findings: [ReportFinding], poses: [PoseResultRecord],
        steps: [String: [StepRecord]] = [:],
        burndown: [BurndownPoint] = [], screens: [ScreenRecord] = []
    ) {
        self.status = status
        self.findings = findings
        self.poses = poses
        self.steps = steps
        self.burndown = burndown
        self.screens = screens
    }

    /// The input of the typed replies the CLI collects: `STATUS`'s parts, `FINDINGS`' and `POSES`' rows, the
    /// records of `STEPS`, the burndown as BURNDOWN's records carry it, `SCREEN LIST`'s rows.
    public init(
        status: StatusParts, findings: [FindingRecord], poses: [PoseResultRecord], steps: [StepRecord] = [],
        burndown: [BurndownPoint] = [], screens: [ScreenRecord] = []
    ) throws(ReportError) {
        var views: [ReportFinding] = []
        views.reserveCapacity(findings.count)
        for finding in findings { views.append(try ReportFinding(finding)) }
        self.init(
            status: try ProjectStatusReply(status), findings: views, poses: poses, steps: Self.byScreen(steps),
            burndown: burndown, screens: screens)
    }

    /// Step records by screen key, each screen's by number.
    public static func byScreen(_ steps: [StepRecord]) -> [String: [StepRecord]] {
        Dictionary(grouping: steps, by: \.screen).mapValues { $0.sorted { $0.step < $1.step } }
    }
}
