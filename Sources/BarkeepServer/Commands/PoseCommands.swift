import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

/// POSE RECORD, POSE HISTORY and POSES: pose verification results, their history and the matrix.
enum PoseCommands {
    static let all: [Command] = [record, history, matrix]

    /// `POSE RECORD` (PoseRecordRequest) records one result; with several poses, a glob or `dry-run=yes` it records
    /// the result for every pose listed on the screen, or on every screen the glob matches (components and the app
    /// area skipped, `skipped=yes why=…`), one record per screen and pose with the result it replaces (`from=`).
    static let record = Command(PoseRecordRequest.self) { request, input throws(CommandError) in
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

    static let history = Command(PoseHistoryRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            let history = try PoseStore.history(
                project: request.project, screen: request.screen, pose: request.pose?.rawValue, on: connection)
            return CommandResult(PoseHistoryRequest.Reply(history.map(PoseResultRecord.init)), version: version)
        }
    }

    static let matrix = Command(PosesRequest.self) { request, input in
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
