import BarkeepCore
import BarkeepProtocol
import BarkeepStore

extension ScreenCommands {
    /// `SCREEN USES PROJECT KEY COMPONENT[,COMPONENT…] [remove=yes]`: the screen or component KEY uses each
    /// component (its key, or a glob), or no longer does; one transaction.
    static let uses = Command(
        "SCREEN USES", positional: 3...3, arguments: [.project, .screenKey], keys: ["remove"], minimumRole: .writer
    ) {
        input throws(CommandError) in
        let (project, screen) = (input.argument(0), input.argument(1))
        let components = input.argument(2).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy({ !$0.isEmpty }), components.count <= maximumUses else {
            throw CommandError(
                .badArgument, "COMPONENT is a key or a glob, or up to \(maximumUses) of them comma-separated")
        }
        let isRemoving = try yesNo(input.keyword("remove"), key: "remove")
        let actor = input.session.actor
        return .database { connection in
            let updated = try ScreenStore.setUses(
                project: project, user: screen, components: components, isRemoving: isRemoving, actor: actor,
                on: connection)
            return CommandResult(.records([updated.record]))
        }
    }

    /// The most components one `SCREEN USES` names.
    static let maximumUses = 1_000

    /// `SCREEN EXCLUDE PROJECT PATH[,PATH…] [why=TEXT] [undo=yes]`: the paths (directories or files) are excluded
    /// from the audit, or no longer; an `exclusion` record per path changed.
    static let exclude = Command(
        "SCREEN EXCLUDE", positional: 2...2, arguments: [.project], keys: ["why", "undo"], minimumRole: .writer
    ) {
        input throws(CommandError) in
        let project = input.argument(0)
        let paths = input.argument(1).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let isUndoing = try yesNo(input.keyword("undo"), key: "undo")
        let why = input.keyword("why")
        if isUndoing && why != nil { throw CommandError(.badArgument, "undo=yes takes no why=") }
        let actor = input.session.actor
        return .database { connection in
            let changed = try ScreenStore.exclude(
                project: project, paths: paths, why: why, isUndoing: isUndoing, actor: actor, on: connection)
            return CommandResult(
                .summarizedRecords(
                    changed.map(\.record),
                    summary: Record([isUndoing ? "included" : "excluded": String(changed.count)])))
        }
    }

    /// `SCREEN EXCLUSIONS PROJECT`: the paths excluded from the audit, by path.
    static let exclusions = Command("SCREEN EXCLUSIONS", positional: 1...1, minimumRole: .reader) { input in
        let project = input.argument(0)
        return .database { connection in
            CommandResult(.records(try ScreenStore.exclusions(project: project, on: connection).map(\.record)))
        }
    }

    /// `SCREEN DISMISS PROJECT KEY [undo=yes]`: discovery no longer proposes KEY, or again does.
    static let dismiss = Command(
        "SCREEN DISMISS", positional: 2...2, arguments: [.project, .screenKey], keys: ["undo"], minimumRole: .writer
    ) {
        input throws(CommandError) in
        let (project, key) = (input.argument(0), input.argument(1))
        let isUndoing = try yesNo(input.keyword("undo"), key: "undo")
        let actor = input.session.actor
        return .database { connection in
            try ScreenStore.dismiss(project: project, key: key, isUndoing: isUndoing, actor: actor, on: connection)
            return CommandResult(.ok([isUndoing ? "undismissed" : "dismissed": key]))
        }
    }

    /// `SCREEN DISMISSALS PROJECT`: the keys discovery does not propose.
    static let dismissals = Command("SCREEN DISMISSALS", positional: 1...1, minimumRole: .reader) { input in
        let project = input.argument(0)
        return .database { connection in
            CommandResult(
                .records(
                    try ScreenStore.dismissals(project: project, on: connection).map { dismissal in
                        Record([
                            "key": dismissal.key, "actor": dismissal.actor,
                            "dismissed": dismissal.dismissedAt.postgresText,
                        ])
                    }))
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

    /// `yes` or `no` (absent: no).
    static func yesNo(_ text: String?, key: String) throws(CommandError) -> Bool {
        switch text {
        case nil, "no": return false
        case "yes": return true
        default: throw CommandError(.badArgument, "\(key) must be yes or no")
        }
    }
}

extension ScreenExclusion {
    /// The exclusion as an `exclusion` record.
    var record: Record {
        Record(["path": path, "why": why, "actor": actor, "excluded": excludedAt.postgresText])
    }
}
