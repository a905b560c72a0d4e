import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore

extension ScreenCommands {
    /// `SCREEN USES PROJECT KEY COMPONENT[,COMPONENT…] [remove=yes]`: the screen or component KEY uses each
    /// component (its key, or a glob), or no longer does; one transaction.
    static let uses = Command(ScreenUsesRequest.self) { request, input in
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let updated = try ScreenStore.setUses(
                project: request.project, user: request.screen, components: request.components,
                isRemoving: request.isRemoving ?? false, actor: actor, on: connection)
            return CommandResult(ScreenUsesRequest.Reply([ScreenRecord(updated)]), version: version)
        }
    }

    /// `SCREEN EXCLUDE PROJECT PATH[,PATH…] [why=TEXT] [undo=yes]`: the paths (directories or files) are excluded
    /// from the audit, or no longer; an `exclusion` record per path changed.
    static let exclude = Command(ScreenExcludeRequest.self) { request, input throws(CommandError) in
        let isUndoing = request.isUndoing ?? false
        if isUndoing && request.why != nil { throw CommandError(.badArgument, "undo=yes takes no why=") }
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            let changed = try ScreenStore.exclude(
                project: request.project, paths: request.paths, why: request.why, isUndoing: isUndoing, actor: actor,
                on: connection)
            var summary = ExclusionSummary()
            if isUndoing { summary.included = changed.count } else { summary.excluded = changed.count }
            return CommandResult(
                ScreenExcludeRequest.Reply(changed.map(ExclusionRecord.init), summary: summary), version: version)
        }
    }

    /// `SCREEN EXCLUSIONS PROJECT`: the paths excluded from the audit, by path.
    static let exclusions = Command(ScreenExclusionsRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            CommandResult(
                ScreenExclusionsRequest.Reply(
                    try ScreenStore.exclusions(project: request.project, on: connection).map(ExclusionRecord.init)),
                version: version)
        }
    }

    /// `SCREEN DISMISS PROJECT KEY [undo=yes]`: discovery no longer proposes KEY, or again does.
    static let dismiss = Command(ScreenDismissRequest.self) { request, input in
        let isUndoing = request.isUndoing ?? false
        let actor = input.session.actor
        let version = input.session.protocolVersion
        return .database { connection in
            try ScreenStore.dismiss(
                project: request.project, key: request.key, isUndoing: isUndoing, actor: actor, on: connection)
            var dismissed = ScreenDismissed()
            if isUndoing { dismissed.undismissed = request.key } else { dismissed.dismissed = request.key }
            return CommandResult(ScreenDismissRequest.Reply(dismissed), version: version)
        }
    }

    /// `SCREEN DISMISSALS PROJECT`: the keys discovery does not propose.
    static let dismissals = Command(ScreenDismissalsRequest.self) { request, input in
        let version = input.session.protocolVersion
        return .database { connection in
            CommandResult(
                ScreenDismissalsRequest.Reply(
                    try ScreenStore.dismissals(project: request.project, on: connection).map(DismissalRecord.init)),
                version: version)
        }
    }

    /// A screen's poses as `SCREEN SET poses=` gives them: a list, `none`, or `project` for the project's.
    static func poseRequirement(_ text: String?) throws(CommandError) -> PoseRequirement? {
        switch text {
        case nil: return nil
        case "project": return .project
        case "none": return .poses([])
        default: return .poses(try ProjectCommands.poseList(text) ?? [])
        }
    }
}

extension ExclusionRecord {
    /// The exclusion's record.
    init(_ exclusion: ScreenExclusion) {
        self.init()
        path = exclusion.path
        why = exclusion.why
        actor = exclusion.actor
        excluded = exclusion.excludedAt.postgresText
    }
}

extension DismissalRecord {
    /// The dismissal's record.
    init(_ dismissal: ScreenDismissal) {
        self.init()
        key = dismissal.key
        actor = dismissal.actor
        dismissed = dismissal.dismissedAt.postgresText
    }
}
