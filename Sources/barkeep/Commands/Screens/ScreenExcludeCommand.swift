import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep screen exclude PROJECT PATH[,PATH…] [--why TEXT] [--undo]`, or `--list`: the paths excluded from the
/// audit, which say why the findings there that no glob takes are unmapped.
struct ScreenExcludeCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "exclude",
        abstract: "Exclude directories or files from the audit, or (--undo) include them again (writer).",
        discussion: """
            A finding that no screen's, component's or app area's glob takes is unmapped; in an excluded path (a
            directory and everything under it, or a file) it says so: findings --screen unmapped gives it the
            reason excluded, not no-glob. Nothing else changes: a glob still takes the files it matches. barkeep
            screen discover --apply excludes the directories it leaves out (tests, previews, watchOS and widget
            targets, --exclude). Paths are relative to the directory the scanner runs in, comma-separated.
            --list prints the excluded paths (reader). Each change is a screen.excluded event.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("path", optional: true, help: "Paths, comma-separated (omit with --list)."),
            .option("why", valueName: "TEXT", help: "Why they are left out of the audit."),
            .flag("undo", help: "Include them again."),
            .flag("list", help: "List the excluded paths."),
        ]
    )

    let project: String
    let paths: String?
    let why: String?
    let isUndoing: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        paths = parsed.value("path")
        why = parsed.value("why")
        isUndoing = parsed.flag("undo")
        guard parsed.flag("list") == (paths == nil) else {
            throw UsageError("give the PATHS to exclude, or --list", commandPath: parsed.commandPath)
        }
        if isUndoing && why != nil {
            throw UsageError("--undo includes paths again: it takes no --why", commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        guard let paths else {
            let exclusions = try context.send(ScreenExclusionsRequest(project: project)).rows
            if context.isJSON {
                try Output.json(exclusions.map(\.listJSON))
            } else if exclusions.isEmpty {
                print("No path is excluded.")
            } else {
                Output.table(
                    ["PATH", "WHY", "BY", "WHEN"],
                    exclusions.map { [$0.path, $0.why ?? "-", $0.actor, String($0.excluded.prefix(16))] })
            }
            return
        }
        let request = ScreenExcludeRequest(project: project, paths: [paths], why: why, isUndoing: isUndoing)
        let changed = try context.send(request).rows
        if context.isJSON {
            try Output.json([isUndoing ? "included" : "excluded": changed.map(\.listJSON)])
        } else if changed.isEmpty {
            print(isUndoing ? "Nothing changed." : "Already excluded: nothing changed.")
        } else {
            let listed = Output.plain(changed.map(\.path).joined(separator: ", "))
            print(isUndoing ? "Included again: \(listed)." : "Excluded from the audit: \(listed).")
        }
    }
}
