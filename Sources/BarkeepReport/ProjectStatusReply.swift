import BarkeepCore
import BarkeepProtocol
import Foundation

/// Everything the team dashboard shows, read from the typed records of a `STATUS PROJECT` reply.
///
/// The reply holds one `type=project`, at most one `type=scan`, one `type=totals`, any number of `type=blocked`,
/// `type=owner` and `type=screen` records, at most one `type=selection`, and one `type=unmapped`. Records of other
/// types are ignored (a later server may add some), as are unknown keys. The server's side of the same data is
/// BarkeepStore's `ProjectStatus`; this is its decoding on the client.
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

    /// Reads the records of a `STATUS PROJECT` reply.
    public init(records: [Record]) throws(ReportError) {
        var project: ProjectInfo?
        var scan: ScanSummary?
        var totals: StatusTotals?
        var unmapped: UnmappedStatus?
        var blocked: [BlockedGroupRecord] = []
        var screens: [ScreenStatusRecord] = []
        var owners: [OwnerStatus] = []
        var selection: StatusSelection?
        for record in records {
            guard let type = record["type"] else { throw .missingField(record: "status", key: "type") }
            switch type {
            case ProjectInfo.recordType:
                guard project == nil else { throw .duplicateRecord(type: type) }
                project = try ProjectInfo(record: record)
            case ScanSummary.recordType:
                guard scan == nil else { throw .duplicateRecord(type: type) }
                scan = try ScanSummary(record: record)
            case StatusTotals.recordType:
                guard totals == nil else { throw .duplicateRecord(type: type) }
                totals = try StatusTotals(record: record)
            case UnmappedStatus.recordType:
                guard unmapped == nil else { throw .duplicateRecord(type: type) }
                unmapped = try UnmappedStatus(record: record)
            case BlockedGroupRecord.recordType:
                blocked.append(try BlockedGroupRecord(record: record))
            case ScreenStatusRecord.recordType:
                screens.append(try ScreenStatusRecord(record: record))
            case OwnerStatus.recordType:
                owners.append(try OwnerStatus(record: record))
            case StatusSelection.recordType:
                guard selection == nil else { throw .duplicateRecord(type: type) }
                selection = try StatusSelection(record: record)
            default:
                continue
            }
        }
        guard let project else { throw .missingRecord(type: ProjectInfo.recordType) }
        guard let totals else { throw .missingRecord(type: StatusTotals.recordType) }
        guard let unmapped else { throw .missingRecord(type: UnmappedStatus.recordType) }
        self.init(
            project: project, scan: scan, totals: totals, blocked: blocked, screens: screens, unmapped: unmapped,
            owners: owners, selection: selection)
    }

    /// Findings needing work by severity, over every screen and the unmapped bucket.
    public var needsWorkBySeverity: SeverityCounts {
        screens.reduce(unmapped.needsWork) { $0 + $1.needsWork }
    }
}

/// The project and the toolchain it builds with: the `type=project` record.
public struct ProjectInfo: Sendable, Equatable, RecordDecodable {
    /// `project`.
    public static let recordType = "project"

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

    /// Reads a `project` record (typed or not).
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        name = try fields.string("name")
        sdk = try fields.version("sdk")
        deploymentTarget = try fields.version("deployment-target")
        requiredPoses = fields.list("required-poses")
    }
}

/// The latest scan run: the `type=scan` record.
public struct ScanSummary: Sendable, Equatable, RecordDecodable {
    /// `scan`.
    public static let recordType = "scan"

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

    /// A scan.
    public init(
        run: Int64, tool: String, toolVersion: String? = nil, commit: String? = nil, ingested: Date,
        filesScanned: Int? = nil, lifecycle: String? = nil, new: Int? = nil, fixed: Int? = nil,
        reopened: Int? = nil, unchanged: Int? = nil, moved: Int? = nil
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
    }

    /// Reads a `type=scan` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        run = try fields.identifier("run")
        tool = try fields.string("tool")
        toolVersion = fields.optionalString("tool-version")
        commit = fields.optionalString("commit")
        ingested = try fields.time("ingested")
        filesScanned = try fields.optionalCount("files-scanned")
        lifecycle = fields.optionalString("lifecycle")
        new = try fields.optionalCount("new")
        fixed = try fields.optionalCount("fixed")
        reopened = try fields.optionalCount("reopened")
        unchanged = try fields.optionalCount("unchanged")
        moved = try fields.optionalCount("moved")
    }

    /// The run's sync counts that were sent, in the order `new fixed reopened unchanged moved`.
    public var counts: [(name: String, count: Int)] {
        [("new", new), ("fixed", fixed), ("reopened", reopened), ("unchanged", unchanged), ("moved", moved)]
            .compactMap { name, count in count.map { (name, $0) } }
    }
}

/// Counts over the whole project: the `type=totals` record.
public struct StatusTotals: Sendable, Equatable, RecordDecodable {
    /// `totals`.
    public static let recordType = "totals"

    /// Findings per status (every status has a count, zero included).
    public var byStatus: [FindingStatus: Int]
    /// Findings needing work (proposed, approved, applied or blocked).
    public var needsWork: Int
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
        byStatus: [FindingStatus: Int] = [:], needsWork: Int = 0, screens: Int = 0, screensDone: Int = 0,
        stepsDone: Int = 0, stepsApplicable: Int = 0, posesPassed: Int = 0, posesRequired: Int = 0, unmapped: Int = 0,
        verifiedStillReported: Int = 0
    ) {
        self.byStatus = byStatus
        self.needsWork = needsWork
        self.screens = screens
        self.screensDone = screensDone
        self.stepsDone = stepsDone
        self.stepsApplicable = stepsApplicable
        self.posesPassed = posesPassed
        self.posesRequired = posesRequired
        self.unmapped = unmapped
        self.verifiedStillReported = verifiedStillReported
    }

    /// Reads a `type=totals` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        var byStatus: [FindingStatus: Int] = [:]
        for status in FindingStatus.allCases {
            byStatus[status] = try fields.count(status.rawValue)
        }
        self.byStatus = byStatus
        needsWork = try fields.count("needs-work")
        screens = try fields.count("screens")
        screensDone = try fields.count("screens-done")
        stepsDone = try fields.count("steps-done")
        stepsApplicable = try fields.count("steps-applicable")
        posesPassed = try fields.count("poses-passed")
        posesRequired = try fields.count("poses-required")
        unmapped = try fields.count("unmapped")
        verifiedStillReported = try fields.optionalCount("verified-still-reported") ?? 0
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
public struct BlockedGroupRecord: Sendable, Equatable, RecordDecodable {
    /// `blocked`.
    public static let recordType = "blocked"

    /// The SDK that would unblock them, nil when no known SDK declares the symbol (`sdk=none`).
    public var sdk: SDKVersion?
    /// How many blocked items wait for it.
    public var items: Int

    /// A group.
    public init(sdk: SDKVersion?, items: Int) {
        self.sdk = sdk
        self.items = items
    }

    /// Reads a `type=blocked` record.
    public init(record: Record) throws(ReportError) {
        let fields = RecordFields(record: record, type: Self.recordType)
        let sdk = try fields.string("sdk")
        if sdk == "none" {
            self.sdk = nil
        } else {
            self.sdk = try fields.version("sdk")
        }
        items = try fields.count("items")
    }

    /// `the iOS 27.1 SDK`, or `no SDK yet`.
    public var sdkName: String { sdk.map { "the iOS \($0) SDK" } ?? "no SDK yet" }
}
