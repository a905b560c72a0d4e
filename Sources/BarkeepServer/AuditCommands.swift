import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// ITEM ADD, ITEM SET, ITEM REMOVE, SDK SET, BLOCKED, POSE RECORD, POSE HISTORY and POSES.
enum AuditCommands {
    static let all: [Command] = [item, itemSet, itemRemove, sdk, blocked, pose, poseHistory, poses]

    static let severities = Severity.allCases.map(\.rawValue)

    static let item = Command(
        "ITEM ADD",
        positional: 1...1,
        keys: ["severity", "sdk"],
        requiredKeys: ["screen", "step", "title"],
        repeatableKeys: ["needs"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let project = input.argument(0)
        let stepText = input.keyword("step") ?? ""
        let title = try itemTitle(input.keyword("title") ?? "")
        let severity = try itemSeverity(input.keyword("severity") ?? Severity.medium.rawValue)
        let needs = try itemNeeds(input.keywords("needs"))
        let sdk = try version(input.keyword("sdk"), key: "sdk")
        let screen = input.keyword("screen") ?? ""
        let actor = input.session.actor
        return .database { connection in
            let newItem = NewItem(
                screen: screen, step: try ItemStore.step(stepText), title: title, needs: needs,
                severity: severity, sdkForUnknown: sdk)
            return CommandResult(
                .records([try ItemStore.add(newItem, to: project, actor: actor, on: connection).record]))
        }
    }

    static let itemSet = Command(
        "ITEM SET",
        positional: 2...2,
        keys: ["title", "step", "severity", "sdk"],
        repeatableKeys: ["needs"],
        minimumRole: .writer
    ) { input throws(CommandError) in
        let (project, number) = (input.argument(0), try FindingCommands.number(input.argument(1), of: "item"))
        let needsGiven = input.request.keywordList.contains { $0.key == "needs" }
        let changes = ItemChanges(
            title: try input.keyword("title").map { text throws(CommandError) in try itemTitle(text) },
            step: input.keyword("step"),
            severity: try input.keyword("severity").map { text throws(CommandError) in try itemSeverity(text) },
            // needs= with no value clears them.
            needs: needsGiven ? try itemNeeds(input.keywords("needs").filter { !$0.isEmpty }) : nil,
            sdkForUnknown: try version(input.keyword("sdk"), key: "sdk"))
        guard !changes.isEmpty else {
            throw CommandError(.badArgument, "ITEM SET needs title=, step=, severity= or needs=")
        }
        let actor = input.session.actor
        return .database { connection in
            CommandResult(
                .records([
                    try ItemStore.update(project: project, number: number, changes, actor: actor, on: connection).record
                ]))
        }
    }

    static let itemRemove = Command("ITEM REMOVE", positional: 2...2, minimumRole: .writer) {
        input throws(CommandError) in
        let (project, number) = (input.argument(0), try FindingCommands.number(input.argument(1), of: "item"))
        let actor = input.session.actor
        return .database { connection in
            try ItemStore.remove(project: project, number: number, actor: actor, on: connection)
            return CommandResult(.ok(["removed": String(number)]))
        }
    }

    private static func itemTitle(_ title: String) throws(CommandError) -> String {
        guard !title.isEmpty, title.utf8.count <= 500 else {
            throw CommandError(.badArgument, "title must be 1 to 500 bytes")
        }
        return title
    }

    private static func itemSeverity(_ severity: String) throws(CommandError) -> String {
        guard severities.contains(severity) else {
            throw CommandError(.badArgument, "severity must be one of " + severities.joined(separator: ", "))
        }
        return severity
    }

    private static func itemNeeds(_ needs: [String]) throws(CommandError) -> [String] {
        for symbol in needs where !Names.isValidSymbol(symbol) {
            throw CommandError(
                .badArgument,
                "needs must be an SDK symbol (letters, digits, '_', '.', ':', '(' or ')'), not \(ValueExcerpt.quoted(symbol))"
            )
        }
        return needs
    }

    static let sdk = Command("SDK SET", positional: 2...2, minimumRole: .admin) { input throws(CommandError) in
        let project = input.argument(0)
        guard let version = try version(input.argument(1), key: "the SDK") else {
            throw CommandError(.badArgument, "SDK SET needs a version")
        }
        let actor = input.session.actor
        return .database { connection in
            let update = try SDKStore.setSDK(project: project, to: version, actor: actor, on: connection)
            return CommandResult(
                .summarizedRecords(
                    update.itemChanges.map(\.record),
                    summary: Record([
                        "sdk": update.project.sdk, "previous": update.previous.sdk,
                        "unblocked": String(update.itemChanges.filter { $0.to != .blocked }.count),
                        "blocked": String(update.itemChanges.filter { $0.to == .blocked }.count),
                    ])
                )
            )
        }
    }

    static let blocked = Command("BLOCKED", positional: 1...1, minimumRole: .reader) { input in
        let project = input.argument(0)
        return .database { connection in
            CommandResult(
                .records(
                    try SDKStore.blocked(project: project, on: connection).map { entry in
                        Record([
                            "sdk": entry.sdk?.description ?? "none",
                            "symbol": entry.symbol.isEmpty ? nil : entry.symbol,
                        ]).merging(entry.finding.record)
                    }
                )
            )
        }
    }

    /// `POSE RECORD` (PoseRecordRequest) records one result; with several poses, a glob or `dry-run=yes` it records
    /// the result for every pose listed on the screen, or on every screen the glob matches (components and the app
    /// area skipped, `skipped=yes why=…`), one record per screen and pose with the result it replaces (`from=`).
    static let pose = Command(PoseRecordRequest.self) { request, input throws(CommandError) in
        let selection: ScreenSelection
        if let screen = request.screen {
            guard request.screens == nil else {
                throw CommandError(.badArgument, "give a screen key or screens=, not both")
            }
            selection = .key(screen)
        } else {
            guard let text = request.screens else {
                throw CommandError(.badArgument, "name the screens: a key, or one of screens=")
            }
            guard let glob = KeyGlob(text) else {
                throw CommandError(.badArgument, PoseRecordRequest.globProblem.message)
            }
            selection = .keys(glob)
        }
        let poses = request.poses.poses.map(\.rawValue)
        guard let first = poses.first else { throw CommandError(.badArgument, "POSE RECORD needs a pose") }
        let new = NewPoseResult(
            screen: request.screen ?? "", pose: first, result: request.result, screenshot: request.screenshot,
            finding: request.finding?.value, itemTitle: request.item, reason: request.reason, build: request.build,
            device: request.device)
        let (project, actor, isDryRun) = (request.project, input.session.actor, request.isDryRun)
        let version = input.session.protocolVersion
        guard !selection.isSingleKey || poses.count > 1 || isDryRun else {
            return .database { connection in
                let record = try PoseStore.record(new, project: project, actor: actor, on: connection)
                return CommandResult(
                    PoseRecordRequest.Reply([.first(PoseRecordedRow(PoseResultRecord(record)))], summary: nil),
                    version: version)
            }
        }
        return .database { connection in
            let outcomes = try PoseStore.record(
                new, poses: poses, screens: selection, project: project, actor: actor, isDryRun: isDryRun,
                on: connection)
            let rows = outcomes.map { outcome -> PoseRecordRow in
                guard let record = outcome.record else {
                    return .second(
                        PoseSkippedRow(
                            screen: outcome.screen, kind: outcome.kind, poses: outcome.pose, why: outcome.reason ?? ""))
                }
                return .first(
                    PoseRecordedRow(
                        PoseResultRecord(record), kind: outcome.kind, from: PoseCellResult(outcome.previous)))
            }
            let summary = PoseRecordSummary(
                recorded: outcomes.filter { $0.record != nil }.count,
                skipped: Set(outcomes.filter { $0.record == nil }.map(\.screen)).count, isDryRun: isDryRun)
            return CommandResult(PoseRecordRequest.Reply(rows, summary: summary), version: version)
        }
    }

    static let poseHistory = Command(PoseHistoryRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let history = try PoseStore.history(
                project: request.project, screen: request.screen, pose: request.pose?.rawValue, on: connection)
            return CommandResult(PoseHistoryRequest.Reply(history.map(PoseResultRecord.init)), version: version)
        }
    }

    static let poses = Command(PosesRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let cells = try PoseStore.matrix(project: request.project, screen: request.screen, on: connection)
            return CommandResult(PosesRequest.Reply(cells.map(PoseResultRecord.init)), version: version)
        }
    }

    /// A pose (Core's `Pose`, any case), upper-cased.
    static func poseName(_ text: String) throws(CommandError) -> String {
        guard let pose = Pose(text) else {
            throw CommandError(.badArgument, "unknown pose \(ValueExcerpt.quoted(text)): poses are \(Pose.range)")
        }
        return pose.rawValue
    }

    /// A version as given, checked, in its canonical form.
    static func version(_ text: String?, key: String) throws(CommandError) -> SDKVersion? {
        guard let text else { return nil }
        guard let version = SDKVersion(text) else {
            throw CommandError(.badArgument, "\(key) must be a version such as 27.1, not \(ValueExcerpt.quoted(text))")
        }
        return version
    }
}

extension PoseResultRecord {
    /// The `pose` record of a result recorded.
    init(_ record: PoseRecord) {
        self.init()
        screen = record.screen
        pose = Pose(record.pose) ?? .p1
        result = PoseCellResult(record.result)
        screenshot = record.screenshot
        finding = record.finding.map(ProjectNumber.init)
        reason = record.reason
        build = record.build
        device = record.device
        actor = record.actor
        recorded = record.recordedAt.postgresText
    }

    /// The `pose` record of a cell of the matrix: its latest result, or `result=none` alone.
    init(_ cell: PoseCell) {
        guard let latest = cell.latest else {
            self.init()
            screen = cell.screen
            pose = Pose(cell.pose) ?? .p1
            return
        }
        self.init(latest)
    }
}

extension ItemChange {
    /// The change as an `item` record.
    var record: Record {
        Record([
            "id": String(number), "title": title, "screen": screen ?? AuditArea.unmapped, "from": from.rawValue,
            "to": to.rawValue, "reason": reason, "gate": gate?.description,
        ])
    }
}
