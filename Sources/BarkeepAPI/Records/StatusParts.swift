import BarkeepCore
import BarkeepProtocol

/// The counts of findings of one row of STATUS (an owner, a screen, the unmapped findings): needing work by
/// severity, then proposed and in progress by severity, then blocked — `CompactRecords.workCounters`' order.
public struct WorkCountFields: WireFields, Equatable {
    /// Needing work, by severity (Core's order).
    public var needsWork = Array(repeating: 0, count: Severity.allCases.count)
    /// Proposed (untriaged), by severity.
    public var untriaged = Array(repeating: 0, count: Severity.allCases.count)
    /// Approved or applied, by severity.
    public var inProgress = Array(repeating: 0, count: Severity.allCases.count)
    /// Blocked on the SDK.
    public var blocked = 0

    /// No counts, filled by decoding.
    public init() {}

    /// The fields, in wire order.
    public static let fields: [Field<WorkCountFields>] =
        Severity.allCases.indices.map { index in
            Field(Severity.allCases[index].rawValue, \.needsWork[index], "Needing work, of this severity.")
        }
        + CompactRecords.stageKeys[0].indices.map { index in
            Field(CompactRecords.stageKeys[0][index], \.untriaged[index], "Proposed, of this severity.")
        }
        + CompactRecords.stageKeys[1].indices.map { index in
            Field(CompactRecords.stageKeys[1][index], \.inProgress[index], "Approved or applied, of this severity.")
        }
        + [Field("blocked", \.blocked, "Blocked on the SDK.")]
}

/// STATUS's `type=project` record.
public struct StatusProjectPart: WireFields, Equatable {
    /// The project's name.
    public var name = ""
    /// The iOS SDK the team builds with.
    public var sdk = ""
    /// The lowest iOS the app supports.
    public var deploymentTarget = ""
    /// The poses every screen must pass.
    public var requiredPoses: [String] = []
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusProjectPart>] = [
        Field("name", \.name, "The project's name."),
        Field("sdk", \.sdk, "The iOS SDK the team builds with."),
        Field("deployment-target", \.deploymentTarget, "The lowest iOS the app supports."),
        Field("required-poses", \.requiredPoses, "The poses every screen must pass."),
    ]
}

/// STATUS's `type=scan` record: the last run, `run` its number, then a `run` record's fields but `id`.
public struct StatusScanPart: WireFields, Equatable {
    /// The run's number.
    public var number = 0
    /// The run.
    public var run = RunRecord()
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusScanPart>] =
        [Field("run", \.number, "The last run's number.")]
        + Field.group(\.run, RunRecord.fields.filter { $0.key != "id" })

    /// Compares the run's fields.
    public static func == (lhs: StatusScanPart, rhs: StatusScanPart) -> Bool {
        lhs.number == rhs.number && lhs.record(version: 3) == rhs.record(version: 3)
    }
}

/// STATUS's `type=totals` record.
public struct StatusTotalsPart: WireFields, Equatable {
    /// Findings by status (Core's order).
    public var byStatus = Array(repeating: 0, count: FindingStatus.allCases.count)
    /// Findings needing work.
    public var needsWork = 0
    /// Of those, how many of each severity (Core's order), each finding once however many screens count it; nil
    /// from an older server, which does not send them.
    public var needsWorkBySeverity = [Int?](repeating: nil, count: Severity.allCases.count)
    /// Screens (of kind screen).
    public var screens = 0
    /// Those done.
    public var screensDone = 0
    /// Checklist steps done, over every row.
    public var stepsDone = 0
    /// Steps that apply.
    public var stepsApplicable = 0
    /// Required poses settled.
    public var posesPassed = 0
    /// Required poses.
    public var posesRequired = 0
    /// Findings no screen counts.
    public var unmapped = 0
    /// Verified findings a later scan still reports.
    public var verifiedStillReported = 0
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusTotalsPart>] = {
        let byStatus: [Field<StatusTotalsPart>] = FindingStatus.allCases.indices.map { index in
            Field(FindingStatus.allCases[index].rawValue, \.byStatus[index], "Findings of this status.")
        }
        let bySeverity: [Field<StatusTotalsPart>] = Severity.allCases.indices.map { index in
            Field(
                needsWorkKey + "-" + Severity.allCases[index].rawValue, \.needsWorkBySeverity[index],
                "Findings needing work of this severity, each once however many screens count it.")
        }
        let rest: [Field<StatusTotalsPart>] = [
            Field("screens", \.screens, "Screens."),
            Field("screens-done", \.screensDone, "Screens done."),
            Field("steps-done", \.stepsDone, "Checklist steps done."),
            Field("steps-applicable", \.stepsApplicable, "Checklist steps that apply."),
            Field("poses-passed", \.posesPassed, "Required poses settled."),
            Field("poses-required", \.posesRequired, "Required poses."),
            Field("unmapped", \.unmapped, "Findings no screen counts."),
            Field("verified-still-reported", \.verifiedStillReported, "Verified findings a later scan reports."),
        ]
        return byStatus + [Field(needsWorkKey, \.needsWork, "Findings needing work.")] + bySeverity + rest
    }()

    /// The key of the count of findings needing work, and the stem of its counts by severity (`needs-work-high`).
    static let needsWorkKey = "needs-work"
}

/// STATUS's `type=blocked` record: the items an SDK would unblock.
public struct StatusBlockedPart: WireFields, Equatable {
    /// The SDK; `none` when no known SDK declares the symbols.
    public var sdk = ""
    /// How many items.
    public var items = 0
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusBlockedPart>] = [
        Field("sdk", \.sdk, "The SDK that would unblock them; none."),
        Field("items", \.items, "How many items."),
    ]
}

/// STATUS's `type=owner` record.
public struct StatusOwnerPart: WireFields, Equatable {
    /// The owner; absent for the rows no one owns.
    public var owner: String?
    /// The screens they own.
    public var screens = 0
    /// Those done.
    public var screensDone = 0
    /// Findings needing work on them.
    public var needsWork = 0
    /// The counts.
    public var work = WorkCountFields()
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusOwnerPart>] =
        [
            Field("owner", \.owner, "The owner."),
            Field("screens", \.screens, "The screens they own."),
            Field("screens-done", \.screensDone, "Those done."),
            Field("needs-work", \.needsWork, "Findings needing work on them."),
        ] + Field.group(\.work, WorkCountFields.fields)
}

/// STATUS's `type=selection` record: the listing asked for, and how many rows it matched and shows.
public struct StatusSelectionPart: WireFields, Equatable {
    /// Only this owner's rows.
    public var owner: String?
    /// Only rows not done (`yes`; absent otherwise).
    public var isNotDoneOnly: Bool?
    /// Only rows of this kind.
    public var kind: String?
    /// The order.
    public var sort = ""
    /// At most this many rows.
    public var limit: Int?
    /// Rows the filters matched.
    public var matched = 0
    /// Rows shown.
    public var shown = 0
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusSelectionPart>] = [
        Field("owner", \.owner, "Only this owner's rows."),
        Field("not-done", \.isNotDoneOnly, "yes: only rows not done."),
        Field("kind", \.kind, "Only rows of this kind."),
        Field("sort", \.sort, "The order."),
        Field("limit", \.limit, "At most this many rows."),
        Field("matched", \.matched, "Rows the filters matched."),
        Field("shown", \.shown, "Rows shown."),
    ]
}

/// STATUS's `type=screen` record: a row of the dashboard.
public struct StatusScreenPart: WireFields, Equatable {
    /// The key.
    public var key = ""
    /// `area` for the app area, `component`; absent for a screen.
    public var kind: String?
    /// Its title.
    public var title: String?
    /// Who owns it.
    public var owner: String?
    /// The counts.
    public var work = WorkCountFields()
    /// Checklist steps done.
    public var stepsDone = 0
    /// Steps that apply.
    public var stepsApplicable = 0
    /// Required poses settled.
    public var posesPassed = 0
    /// Required poses.
    public var posesRequired = 0
    /// Required poses failed; nil: none.
    public var failedPoses: [String]?
    /// Required poses without a result; nil: none.
    public var missingPoses: [String]?
    /// Whether it is done.
    public var isDone = false
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusScreenPart>] =
        [
            Field("key", \.key, "The key."),
            Field("kind", \.kind, "area or component; absent for a screen."),
            Field("title", \.title, "Its title."),
            Field("owner", \.owner, "Who owns it."),
        ] + Field.group(\.work, WorkCountFields.fields) + [
            Field("steps-done", \.stepsDone, "Checklist steps done."),
            Field("steps-applicable", \.stepsApplicable, "Steps that apply."),
            Field("poses-passed", \.posesPassed, "Required poses settled."),
            Field("poses-required", \.posesRequired, "Required poses."),
            Field("failed-poses", \.failedPoses, "Required poses failed."),
            Field("missing-poses", \.missingPoses, "Required poses without a result."),
            Field("done", \.isDone, "yes or no."),
        ]
}

/// STATUS's `type=unmapped` record: the findings no screen counts.
public struct StatusUnmappedPart: WireFields, Equatable {
    /// The counts.
    public var work = WorkCountFields()
    /// An empty record, filled by decoding.
    public init() {}
    /// docs/protocol.md's name for it.
    public static let recordName: String? = "STATUS"
    /// The fields, in wire order.
    public static let fields: [Field<StatusUnmappedPart>] = Field.group(\.work, WorkCountFields.fields)
}
