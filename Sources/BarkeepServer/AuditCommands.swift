import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// ITEM ADD, ITEM SET, ITEM REMOVE, SDK SET, BLOCKED, POSE RECORD, POSE HISTORY and POSES.
enum AuditCommands {
    static let all: [Command] = [item, itemSet, itemRemove, sdk, blocked, pose, poseHistory, poses]

    static let item = Command(ItemAddRequest.self) { request, input in
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let newItem = NewItem(
                screen: request.screen, step: try ItemStore.step(request.step.text), title: request.title,
                needs: request.needs.map(\.name), severity: (request.severity ?? .medium).rawValue,
                sdkForUnknown: request.sdk)
            let item = try ItemStore.add(newItem, to: request.project, actor: actor, on: connection)
            return CommandResult(ItemAddRequest.Reply([FindingRecord(item)]), version: version)
        }
    }

    static let itemSet = Command(ItemSetRequest.self) { request, input throws(CommandError) in
        let changes = ItemChanges(
            title: request.title, step: request.step, severity: request.severity?.rawValue,
            needs: request.neededSymbols,
            sdkForUnknown: request.sdk)
        guard !changes.isEmpty else {
            throw CommandError(.badArgument, "ITEM SET needs title=, step=, severity= or needs=")
        }
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let item = try ItemStore.update(
                project: request.project, number: request.number.value, changes, actor: actor, on: connection)
            return CommandResult(ItemSetRequest.Reply([FindingRecord(item)]), version: version)
        }
    }

    static let itemRemove = Command(ItemRemoveRequest.self) { request, input in
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            try ItemStore.remove(project: request.project, number: request.number.value, actor: actor, on: connection)
            return CommandResult(ItemRemoveRequest.Reply(ItemRemoved(removed: request.number.value)), version: version)
        }
    }

    static let sdk = Command(SDKSetRequest.self) { request, input in
        let sdk = request.version.version
        let (actor, version) = (input.session.actor, input.session.protocolVersion)
        return .database { connection in
            let update = try SDKStore.setSDK(project: request.project, to: sdk, actor: actor, on: connection)
            let changes = update.itemChanges.map(ItemChangeRecord.init)
            return CommandResult(
                SDKSetRequest.Reply(
                    changes,
                    summary: SDKChange(sdk: update.project.sdk, previous: update.previous.sdk, changes: changes)),
                version: version)
        }
    }

    static let blocked = Command(BlockedRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let blocked = try SDKStore.blocked(project: request.project, on: connection).map { entry in
                BlockedRecord(
                    sdk: entry.sdk?.description ?? BlockedRecord.noSDK,
                    symbol: entry.symbol.isEmpty ? nil : entry.symbol,
                    finding: FindingRecord(entry.finding))
            }
            return CommandResult(BlockedRequest.Reply(blocked), version: version)
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

extension ItemChangeRecord {
    /// The `item` record of a change.
    init(_ change: ItemChange) {
        self.init()
        id = change.number
        title = change.title
        screen = change.screen ?? AuditArea.unmapped
        from = change.from
        to = change.to
        reason = change.reason
        gate = change.gate
    }
}

extension FindingRecord {
    /// The `finding` record of a finding or an item.
    init(_ finding: Finding) {
        self.init()
        id = finding.number
        project = finding.project
        source = finding.source
        rule = finding.rule
        severity = finding.severity
        identity = finding.identity
        file = finding.file
        line = finding.line
        snippet = finding.snippet
        status = finding.status
        reason = finding.reason
        screen = finding.screen ?? AuditArea.unmapped
        title = finding.title
        message = finding.message
        firstSeenRun = finding.firstSeenRun
        lastSeenRun = finding.lastSeenRun
        step = finding.step
        needs = finding.needs.isEmpty ? nil : finding.needs
        gate = finding.gate
        tier = finding.tier
        assignee = finding.assignee
        stillReportedRun = finding.isReportedAfterVerified ? finding.lastSeenRun : nil
        unmapped = finding.unmapped?.rawValue
        excluded = finding.excludedBy
    }
}
