import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// Everything the team dashboard shows: the view of a typed `STATUS` reply (BarkeepAPI's `StatusParts`), built once,
/// its versions and times read into Core's types.
///
/// The reply holds one `type=project`, at most one `type=scan`, one `type=totals`, any number of `type=blocked`,
/// `type=owner` and `type=screen` records, one `type=selection`, and one `type=unmapped`; BarkeepAPI's decoding
/// reads them (records of other types and unknown keys are passed over there).
public struct ProjectStatusReply: Sendable, Equatable {
    /// The project and its toolchain.
    public var project: ProjectInfo
    /// The latest scan, nil before the first.
    public var scan: ScanSummary?
    /// Counts over the whole project.
    public var totals: StatusTotals
    /// Blocked items per SDK that would unblock them, in the reply's order.
    public var blocked: [BlockedGroupRecord]
    /// One line per screen, in the reply's order (the server sends them by key unless asked otherwise).
    public var screens: [ScreenStatusRecord]
    /// One line per owner of screens, nobody last; only the owner asked for when the reply is filtered by owner.
    public var owners: [OwnerStatus]
    /// Which rows the reply holds; nil from a server that does not say (every row, by key).
    public var selection: StatusSelection?
    /// Findings needing work that no screen owns.
    public var unmapped: UnmappedStatus

    /// A status from its parts.
    public init(
        project: ProjectInfo, scan: ScanSummary? = nil, totals: StatusTotals, blocked: [BlockedGroupRecord] = [],
        screens: [ScreenStatusRecord] = [], unmapped: UnmappedStatus = UnmappedStatus(), owners: [OwnerStatus] = [],
        selection: StatusSelection? = nil
    ) {
        self.project = project
        self.scan = scan
        self.totals = totals
        self.blocked = blocked
        self.screens = screens
        self.unmapped = unmapped
        self.owners = owners
        self.selection = selection
    }

    /// The dashboard of a typed `STATUS` reply's parts, its versions and times read once.
    public init(_ parts: StatusParts) throws(ReportError) {
        self.init(
            project: try ProjectInfo(parts.project), scan: try parts.scans.first.map(ScanSummary.init),
            totals: StatusTotals(parts.totals), blocked: try parts.blocked.map(BlockedGroupRecord.init),
            screens: try parts.screens.map(ScreenStatusRecord.init), unmapped: UnmappedStatus(parts.unmapped),
            owners: parts.owners.map(OwnerStatus.init), selection: StatusSelection(parts.selection))
    }

}

/// The project and the toolchain it builds with: the `type=project` record.
public struct ProjectInfo: Sendable, Equatable {
    /// The `type=` word of its STATUS record.
    static let recordType = StatusParts.typeWord(of: StatusProjectPart.self) ?? ""

    /// The project's name.
    public var name: String
    /// The iOS SDK the team builds with.
    public var sdk: SDKVersion
    /// The lowest iOS version the app runs on.
    public var deploymentTarget: SDKVersion
    /// The poses every screen must pass, in order.
    public var requiredPoses: [String]

    /// A project.
    public init(name: String, sdk: SDKVersion, deploymentTarget: SDKVersion, requiredPoses: [String]) {
        self.name = name
        self.sdk = sdk
        self.deploymentTarget = deploymentTarget
        self.requiredPoses = requiredPoses
    }

    /// The project of STATUS's `type=project` part.
    init(_ part: StatusProjectPart) throws(ReportError) {
        name = part.name
        sdk = try ReportValues.version(part.sdk, record: Self.recordType, key: "sdk")
        deploymentTarget = try ReportValues.version(
            part.deploymentTarget, record: Self.recordType, key: "deployment-target")
        requiredPoses = part.requiredPoses
    }
}

/// The latest scan run: the `type=scan` record.
public struct ScanSummary: Sendable, Equatable {
    /// The `type=` word of its STATUS record.
    static let recordType = StatusParts.typeWord(of: StatusScanPart.self) ?? ""

    /// The run number.
    public var run: Int64
    /// The scanner (`duo_scan`).
    public var tool: String
    /// Its version.
    public var toolVersion: String?
    /// The commit scanned (hexadecimal).
    public var commit: String?
    /// When the scan was ingested.
    public var ingested: Date
    /// How many files the scanner read.
    public var filesScanned: Int?
    /// The app lifecycle the scanner saw (`scene`, `app-delegate`, …).
    public var lifecycle: String?
    /// Findings the run saw for the first time.
    public var new: Int?
    /// Findings the run no longer saw.
    public var fixed: Int?
    /// Fixed findings the run saw again.
    public var reopened: Int?
    /// Findings still present.
    public var unchanged: Int?
    /// Present findings whose line changed.
    public var moved: Int?
    /// Of the moved findings, those whose file was renamed.
    public var renamed: Int?
    /// Present findings whose text changed.
    public var changed: Int?

    /// A scan.
    public init(
        run: Int64, tool: String, toolVersion: String? = nil, commit: String? = nil, ingested: Date,
        filesScanned: Int? = nil, lifecycle: String? = nil, new: Int? = nil, fixed: Int? = nil,
        reopened: Int? = nil, unchanged: Int? = nil, moved: Int? = nil, renamed: Int? = nil, changed: Int? = nil
    ) {
        self.run = run
        self.tool = tool
        self.toolVersion = toolVersion
        self.commit = commit
        self.ingested = ingested
        self.filesScanned = filesScanned
        self.lifecycle = lifecycle
        self.new = new
        self.fixed = fixed
        self.reopened = reopened
        self.unchanged = unchanged
        self.moved = moved
        self.renamed = renamed
        self.changed = changed
    }

    /// The scan of STATUS's `type=scan` part.
    init(_ part: StatusScanPart) throws(ReportError) {
        let run = part.run
        self.init(
            run: Int64(part.number), tool: run.tool, toolVersion: ReportValues.nonEmpty(run.toolVersion),
            commit: ReportValues.nonEmpty(run.commit),
            ingested: try ReportValues.time(run.ingested, record: Self.recordType, key: "ingested"),
            filesScanned: run.filesScanned, lifecycle: ReportValues.nonEmpty(run.lifecycle), new: run.new,
            fixed: run.fixed, reopened: run.reopened, unchanged: run.unchanged, moved: run.moved, renamed: run.renamed,
            changed: run.changed)
    }

    /// The run's sync counts that were sent, each with what it counts, in the order `new fixed reopened unchanged
    /// moved`, `in renamed files` (of the moved, only when some were), `changed`: what the dashboard's scan line and
    /// the web page's last scan show.
    public var counts: [(name: String, count: Int)] {
        [
            ("new", new), ("fixed", fixed), ("reopened", reopened), ("unchanged", unchanged), ("moved", moved),
            ("in renamed files", renamed.flatMap { $0 > 0 ? $0 : nil }), ("changed", changed),
        ]
        .compactMap { name, count in count.map { (name, $0) } }
    }
}

/// Counts over the whole project: the `type=totals` record.
public struct StatusTotals: Sendable, Equatable {
    /// The `type=` word of its STATUS record.
    static let recordType = StatusParts.typeWord(of: StatusTotalsPart.self) ?? ""

    /// Findings per status (every status has a count, zero included).
    public var byStatus: [FindingStatus: Int]
    /// Findings needing work (proposed, approved, applied or blocked).
    public var needsWork: Int
    /// Of those, how many of each severity, each finding once (a component's finding counts under every screen that
    /// uses it, but once here); nil from a server that does not send them.
    public var needsWorkBySeverity: SeverityCounts?
    /// Screens of the project.
    public var screens: Int
    /// Screens that are done.
    public var screensDone: Int
    /// Checklist steps done, over every screen.
    public var stepsDone: Int
    /// Checklist steps that apply, over every screen.
    public var stepsApplicable: Int
    /// Required poses settled (passed or not applicable), over every screen.
    public var posesPassed: Int
    /// Required poses, over every screen.
    public var posesRequired: Int
    /// Findings needing work that no screen owns.
    public var unmapped: Int
    /// Verified findings that a scan after their verification still reports (among `byStatus[.verified]`); 0 from a
    /// server that does not send the count.
    public var verifiedStillReported: Int

    /// Totals.
    public init(
        byStatus: [FindingStatus: Int] = [:], needsWork: Int = 0, needsWorkBySeverity: SeverityCounts? = nil,
        screens: Int = 0, screensDone: Int = 0,
        stepsDone: Int = 0, stepsApplicable: Int = 0, posesPassed: Int = 0, posesRequired: Int = 0, unmapped: Int = 0,
        verifiedStillReported: Int = 0
    ) {
        self.byStatus = byStatus
        self.needsWork = needsWork
        self.needsWorkBySeverity = needsWorkBySeverity
        self.screens = screens
        self.screensDone = screensDone
        self.stepsDone = stepsDone
        self.stepsApplicable = stepsApplicable
        self.posesPassed = posesPassed
        self.posesRequired = posesRequired
        self.unmapped = unmapped
        self.verifiedStillReported = verifiedStillReported
    }

    /// The totals of STATUS's `type=totals` part.
    init(_ part: StatusTotalsPart) {
        var byStatus: [FindingStatus: Int] = [:]
        for (status, count) in zip(FindingStatus.allCases, part.byStatus) { byStatus[status] = count }
        self.init(
            byStatus: byStatus, needsWork: part.needsWork,
            needsWorkBySeverity: part.needsWorkBySeverity.contains(nil)
                ? nil : SeverityCounts(part.needsWorkBySeverity.map { $0 ?? 0 }),
            screens: part.screens, screensDone: part.screensDone,
            stepsDone: part.stepsDone, stepsApplicable: part.stepsApplicable, posesPassed: part.posesPassed,
            posesRequired: part.posesRequired, unmapped: part.unmapped,
            verifiedStillReported: part.verifiedStillReported)
    }

    /// The statuses with a nonzero count, in the order of `FindingStatus.allCases`.
    public var nonzeroStatuses: [(status: FindingStatus, count: Int)] {
        FindingStatus.allCases.compactMap { status in
            let count = byStatus[status] ?? 0
            return count > 0 ? (status, count) : nil
        }
    }
}

/// Blocked items waiting for one SDK: a `type=blocked` record.
public struct BlockedGroupRecord: Sendable, Equatable {
    /// The `type=` word of its STATUS record.
    static let recordType = StatusParts.typeWord(of: StatusBlockedPart.self) ?? ""

    /// The SDK that would unblock them, nil when no known SDK declares the symbol (`sdk=none`).
    public var sdk: SDKVersion?
    /// How many blocked items wait for it.
    public var items: Int

    /// A group.
    public init(sdk: SDKVersion?, items: Int) {
        self.sdk = sdk
        self.items = items
    }

    /// The group of STATUS's `type=blocked` part: `sdk=none` when no known SDK declares the symbols.
    init(_ part: StatusBlockedPart) throws(ReportError) {
        sdk = part.sdk == "none" ? nil : try ReportValues.version(part.sdk, record: Self.recordType, key: "sdk")
        items = part.items
    }

    /// `the iOS 27.1 SDK`, or `no SDK yet`.
    public var sdkName: String { sdk.map { "the iOS \($0) SDK" } ?? "no SDK yet" }
}
