import BarkeepCore
import BarkeepProtocol
import BarkeepStore

extension ScreenCommands {
    /// `SCREEN USES PROJECT SCREEN COMPONENT [remove=yes]`: the screen uses the component (its key, or a glob), or
    /// no longer does.
    static let uses = Command(
        "SCREEN USES", positional: 3...3, arguments: [.project, .screenKey], keys: ["remove"], minimumRole: .writer
    ) {
        input throws(CommandError) in
        let (project, screen, component) = (input.argument(0), input.argument(1), input.argument(2))
        let isRemoving = try yesNo(input.keyword("remove"), key: "remove")
        let actor = input.session.actor
        return .database { connection in
            let updated = try ScreenStore.setUses(
                project: project, screen: screen, component: component, isRemoving: isRemoving, actor: actor,
                on: connection)
            return CommandResult(.records([updated.record]))
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
