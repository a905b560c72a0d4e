import BarkeepCore
import Foundation

/// One pose result as recorded (append-only: the current result of a pose is its latest record).
public struct PoseRecord: Sendable, Equatable {
    /// The record's id.
    public var id: Int64
    /// The screen's key.
    public var screen: String
    /// The pose (a `Pose` raw value).
    public var pose: String
    /// passed, failed or not_run.
    public var result: PoseResult
    /// The screenshot showing a failure.
    public var screenshot: String?
    /// The number of the finding a failure maps to.
    public var finding: Int?
    /// Why it was not run.
    public var reason: String?
    /// The build verified.
    public var build: String?
    /// The device or simulator used.
    public var device: String?
    /// Who recorded it.
    public var actor: String
    /// When.
    public var recordedAt: Date

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        screen = try row.decode("screen")
        pose = try row.decode("pose")
        result = PoseResult(rawValue: try row.decode("result")) ?? .notRun
        screenshot = try row.decodeIfPresent("screenshot")
        finding = try row.decodeIfPresent("finding")
        reason = try row.decodeIfPresent("reason")
        build = try row.decodeIfPresent("build")
        device = try row.decodeIfPresent("device")
        actor = try row.decode("actor")
        recordedAt = try row.decode("recorded_at")
    }
}

/// A pose result to record.
public struct NewPoseResult: Sendable, Equatable {
    /// The screen's key.
    public var screen: String
    /// The pose (a `Pose` raw value).
    public var pose: String
    /// The result.
    public var result: PoseResult
    /// The screenshot (required for failed).
    public var screenshot: String?
    /// The number of the finding (or item) a failure maps to.
    public var finding: Int?
    /// Or the title of an item to create for it.
    public var itemTitle: String?
    /// Why it was not run (required for not_run).
    public var reason: String?
    /// The build.
    public var build: String?
    /// The device or simulator.
    public var device: String?

    /// A result to record.
    public init(
        screen: String,
        pose: String,
        result: PoseResult,
        screenshot: String? = nil,
        finding: Int? = nil,
        itemTitle: String? = nil,
        reason: String? = nil,
        build: String? = nil,
        device: String? = nil
    ) {
        self.screen = screen
        self.pose = pose
        self.result = result
        self.screenshot = screenshot
        self.finding = finding
        self.itemTitle = itemTitle
        self.reason = reason
        self.build = build
        self.device = device
    }
}

/// What recording a result over many screens did to one screen and pose.
public struct PoseRecordOutcome: Sendable, Equatable {
    /// The row's key.
    public var screen: String
    /// The row's kind.
    public var kind: ScreenKind
    /// The pose (every pose asked for, joined by commas, when the row was skipped).
    public var pose: String
    /// The result recorded (that would be, in a dry run); nil when the row was skipped.
    public var record: PoseRecord?
    /// The pose's latest result before, if any.
    public var previous: PoseResult?
    /// Why the row was skipped (a component, the app area).
    public var reason: String?
}

/// One cell of the screens × required poses matrix: the latest result, or none.
public struct PoseCell: Sendable, Equatable {
    /// The screen's key.
    public var screen: String
    /// The pose.
    public var pose: String
    /// The latest record; nil when the pose was never recorded for the screen.
    public var latest: PoseRecord?
}

/// Pose verification: recording results (append-only) and reading the matrix and the history.
public enum PoseStore {
    static let columns = """
        r.id, s.key AS screen, r.pose, r.result, r.screenshot,
        (SELECT f.number FROM findings f WHERE f.id = r.finding_id) AS finding, r.reason, r.build, r.device, r.actor,
        r.recorded_at
        """

    /// Records a result, after checking the recording rules (PoseRecording): nothing is stored when one is broken.
    /// A failure with `itemTitle` creates that item on the screen first and maps the failure to it. A component (or
    /// the app area) takes no pose results: `invalid`, naming the screens that use the component.
    public static func record(
        _ new: NewPoseResult,
        project projectName: String,
        actor: String,
        on connection: PostgresConnection
    ) throws -> PoseRecord {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            // A key names one screen or is refused (notFound, or why the row takes no results).
            let picked = try ScreenStore.pick(
                .key(new.screen), for: [.poseResults], project: project, on: connection, hint: usersHint)
            return try insert(new, screen: picked.rows[0], project: project, actor: actor, on: connection)
        }
    }

    /// Records `new`'s result for every pose of `poses` on every row `selection` picks, in one transaction under
    /// the project's lock, each as `record` records one; a component or the app area it picks is skipped with why
    /// (refused when named by its key). Picking none is `notFound`; a result breaking a recording rule stores
    /// nothing. `isDryRun` stores nothing and reports what would be. Returns a result per screen and pose, by key, and
    /// one per skipped row.
    public static func record(
        _ new: NewPoseResult,
        poses: [String],
        screens selection: ScreenSelection,
        project projectName: String,
        actor: String,
        isDryRun: Bool = false,
        on connection: PostgresConnection
    ) throws -> [PoseRecordOutcome] {
        try ScanStore.withLockedProject(projectName, on: connection) { project, connection in
            let (picked, treatments) = try ScreenStore.pick(
                selection, for: [.poseResults], project: project, on: connection, hint: usersHint)
            var latest: [String: PoseResult] = [:]
            for row in try connection.query(
                """
                SELECT DISTINCT ON (r.screen_id, r.pose) s.key, r.pose, r.result
                FROM pose_results r JOIN screens s ON s.id = r.screen_id
                WHERE r.project_id = $1 AND s.key = ANY($2::text[]) AND r.pose = ANY($3::text[])
                ORDER BY r.screen_id, r.pose, r.recorded_at DESC, r.id DESC
                """,
                [project.id, picked.map(\.key), poses]
            ) {
                let key: String = try row.decode("key")
                let pose: String = try row.decode("pose")
                latest[key + " " + pose] = PoseResult(rawValue: try row.decode("result"))
            }
            return try connection.undoing(if: isDryRun) {
                var outcomes: [PoseRecordOutcome] = []
                for (screen, treatment) in zip(picked, treatments) {
                    guard !treatment.isSkipped else {
                        // Once per row, naming every pose it was not recorded in.
                        outcomes.append(
                            PoseRecordOutcome(
                                screen: screen.key, kind: screen.kind, pose: poses.joined(separator: ","),
                                record: nil, previous: nil, reason: treatment.reason))
                        continue
                    }
                    for pose in poses {
                        var one = new
                        (one.screen, one.pose) = (screen.key, pose)
                        let record = try insert(one, screen: screen, project: project, actor: actor, on: connection)
                        outcomes.append(
                            PoseRecordOutcome(
                                screen: screen.key, kind: screen.kind, pose: pose, record: record,
                                previous: latest[screen.key + " " + pose], reason: nil))
                    }
                }
                return outcomes
            }
        }
    }

    /// Where a result that `screen` cannot take belongs: the screens using a component.
    private static func usersHint(_ screen: Screen) -> String {
        guard screen.kind == .component else { return "" }
        // A component's result would show nowhere: say where to record it instead.
        return screen.uses.isEmpty
            ? " (no screen uses it yet)" : "; record the result for \(screen.uses.joined(separator: ", "))"
    }

    /// Records a result for `screen`, which takes pose results, inside the caller's transaction.
    private static func insert(
        _ new: NewPoseResult,
        screen: Screen,
        project: Project,
        actor: String,
        on connection: PostgresConnection
    ) throws -> PoseRecord {
        guard let pose = Pose(rawValue: new.pose) else {
            throw StoreError.invalid("unknown pose \(ValueExcerpt.quoted(new.pose)): poses are \(Pose.range)")
        }
        if let problem = PoseRecording.problem(
            pose: new.pose, result: new.result, isDeviceOnly: pose.isDeviceOnly, screenshot: new.screenshot,
            hasFinding: new.finding != nil || !(new.itemTitle ?? "").isEmpty, reason: new.reason,
            device: new.device)
        {
            throw StoreError.invalid(problem)
        }
        var findingID: Int64?
        if let number = new.finding, new.result == .failed {
            findingID = try mappedFinding(number, screen: (screen.id, screen.key), project: project, on: connection)
        } else if let title = new.itemTitle, !title.isEmpty, new.result == .failed {
            findingID = try ItemStore.insert(
                NewItem(screen: new.screen, step: nil, title: title, createdByPose: new.pose), project: project,
                actor: actor, on: connection
            ).id
        }
        // Only a failure maps to a finding.
        if new.result != .failed { findingID = nil }
        // `sha256:HEX` names an uploaded screenshot, which must be stored (and stays, locked, until this commits).
        let uploaded = new.screenshot.flatMap(PoseRecording.uploadedScreenshotHash)
        if let uploaded, try ScreenshotStore.header(uploaded, isLocked: true, on: connection) == nil {
            throw StoreError.notFound(
                "no screenshot \(PoseRecording.uploadedScreenshot(uploaded)) is stored: upload it first (SCREENSHOT PUT)"
            )
        }
        guard
            let id = try connection.queryValue(
                """
                INSERT INTO pose_results (project_id, screen_id, pose, result, screenshot, finding_id, reason, build,
                                          device, actor, screenshot_sha256)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id
                """,
                [
                    project.id, screen.id, new.pose, new.result.rawValue, nonEmpty(new.screenshot), findingID,
                    nonEmpty(new.reason), nonEmpty(new.build), nonEmpty(new.device), actor, uploaded,
                ],
                as: Int64.self
            )
        else { throw StoreError.invalid("the result was not recorded") }
        try EventLog.append(
            [
                NewEvent(
                    projectID: project.id, project: project.name, kind: .poseRecorded,
                    subject: "\(new.screen) \(new.pose)", to: new.result.rawValue,
                    reason: nonEmpty(new.reason) ?? nonEmpty(new.screenshot), actor: actor, findingID: findingID,
                    screen: screen.key
                )
            ],
            on: connection
        )
        if new.result == .passed {
            try verifyItems(of: new.pose, screen: screen.id, project: project, actor: actor, on: connection)
        }
        guard
            let row = try connection.query(
                "SELECT \(columns) FROM pose_results r JOIN screens s ON s.id = r.screen_id WHERE r.id = $1", [id]
            ).first
        else { throw StoreError.notFound("pose result \(id) vanished") }
        return try PoseRecord(row: row)
    }

    /// The row id of finding `number`, which a failure of a pose of `screen` may map to: a finding or item of that
    /// screen, or of a component it uses, that still needs work.
    private static func mappedFinding(
        _ number: Int,
        screen: (id: Int64, key: String),
        project: Project,
        on connection: PostgresConnection
    ) throws -> Int64 {
        guard
            let row = try connection.query(
                """
                SELECT f.id, f.status, s.key AS screen,
                       EXISTS (SELECT 1 FROM screen_uses u WHERE u.screen_id = $3 AND u.component_id = f.screen_id)
                           AS is_used
                FROM findings f LEFT JOIN screens s ON s.id = f.screen_id
                WHERE f.project_id = $1 AND f.number = $2
                """,
                [project.id, number, screen.id]
            ).first
        else { throw StoreError.notFound("no finding \(number) in project '\(project.name)'") }
        let owner: String? = try row.decodeIfPresent("screen")
        let isUsed: Bool = try row.decode("is_used")
        guard owner == screen.key || isUsed else {
            throw StoreError.invalid(
                "finding \(number) belongs to \(owner.map { "screen \($0)" } ?? "no screen (unmapped)"), not to "
                    + "\(screen.key): a failed pose maps to a finding or item of its screen or of a component it uses")
        }
        let status = FindingStatus(rawValue: try row.decode("status")) ?? .proposed
        guard status.needsWork else {
            throw StoreError.invalid(
                "finding \(number) is \(status.rawValue): a failed pose maps to a finding or item that needs work "
                    + "(or give --item TITLE to add one)")
        }
        return try row.decode("id")
    }

    /// A pose that passes on a screen verifies the open items that failures of that pose there created, an event
    /// each.
    private static func verifyItems(
        of pose: String,
        screen: Int64,
        project: Project,
        actor: String,
        on connection: PostgresConnection
    ) throws {
        let verified = try connection.query(
            """
            WITH open AS (
                SELECT id, status FROM findings
                WHERE project_id = $1 AND screen_id = $2 AND created_by_pose = $3 AND status = ANY($4::text[])
                FOR UPDATE
            )
            UPDATE findings f SET status = $5, reason = NULL, updated_at = now()
            FROM open WHERE f.id = open.id
            RETURNING f.id, f.title, open.status AS previous
            """,
            [
                project.id, screen, pose, FindingLifecycle.poseVerifiable.map(\.rawValue),
                FindingStatus.verified.rawValue,
            ]
        )
        try EventLog.append(
            try verified.map { row in
                NewEvent(
                    projectID: project.id, project: project.name, kind: .findingStatus,
                    subject: try row.decode("title"), from: try row.decode("previous"),
                    to: FindingStatus.verified.rawValue, reason: "pose \(pose) passed", actor: actor,
                    findingID: try row.decode("id"))
            },
            on: connection)
    }

    /// The matrix: each screen (or only `screen`) × each required pose, with the latest result; screens by key,
    /// poses in the project's order.
    public static func matrix(
        project projectName: String,
        screen: String?,
        on connection: PostgresConnection
    ) throws -> [PoseCell] {
        let project = try ProjectStore.require(projectName, on: connection)
        var screenID: Int64?
        if let screen { screenID = try ScreenStore.require(screen, projectID: project.id, on: connection).id }
        var latest: [String: PoseRecord] = [:]
        for row in try connection.query(
            """
            SELECT DISTINCT ON (r.screen_id, r.pose) \(columns)
            FROM pose_results r JOIN screens s ON s.id = r.screen_id
            WHERE r.project_id = $1 AND ($2::bigint IS NULL OR r.screen_id = $2)
            ORDER BY r.screen_id, r.pose, r.id DESC
            """,
            [project.id, screenID]
        ) {
            let record = try PoseRecord(row: row)
            latest[record.screen + " " + record.pose] = record
        }
        let screens = try connection.query(
            "SELECT \(ScreenStore.columns) FROM screens s WHERE s.project_id = $1 AND ($2::bigint IS NULL OR s.id = $2) "
                + "ORDER BY s.key",
            [project.id, screenID]
        ).map(Screen.init(row:))
        // Each screen against the poses it must pass (a component or the area has none unless given some).
        return screens.flatMap { screen in
            screen.requiredPoses(of: project).map { pose in
                PoseCell(screen: screen.key, pose: pose, latest: latest[screen.key + " " + pose])
            }
        }
    }

    /// Every result recorded for a screen (or one pose of it), oldest first.
    public static func history(
        project projectName: String,
        screen: String,
        pose: String?,
        on connection: PostgresConnection
    ) throws -> [PoseRecord] {
        let project = try ProjectStore.require(projectName, on: connection)
        let screen = try ScreenStore.require(screen, projectID: project.id, on: connection)
        return try connection.query(
            """
            SELECT \(columns) FROM pose_results r JOIN screens s ON s.id = r.screen_id
            WHERE r.screen_id = $1 AND ($2::text IS NULL OR r.pose = $2) ORDER BY r.id
            """,
            [screen.id, pose]
        ).map(PoseRecord.init(row:))
    }

    private static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
}
