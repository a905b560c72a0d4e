import BarkeepCore
import BarkeepProtocol
import Foundation

/// `barkeep screen discover PROJECT SOURCE-DIR [--apply]`: proposes a screen for each source file that declares
/// SwiftUI views or UIKit view controllers and, with `--apply`, creates those the project does not have yet.
struct ScreenDiscoverCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "discover",
        abstract:
            "Propose a screen per file of SwiftUI views or UIKit view controllers; --apply creates them (writer).",
        discussion: """
            Reads the .swift, .h and .m files under SOURCE-DIR (not hidden directories, .build, DerivedData, Pods,
            Carthage, build or node_modules) and proposes one screen for each file declaring a SwiftUI View or a
            UIViewController subclass, the file's path relative to SOURCE-DIR as its glob: give the directory the
            scanner runs in, so that the globs match the paths of its findings. A header and its .m share the glob
            Dir/Name.*. Base view controllers that others derive from are not screens. A proposal whose key or glob
            the project has already is marked exists and left alone, so running it again creates only what is
            missing. With --json prints an array of objects with key, glob, types and status (new, exists, created).
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("source-dir", help: "The checkout's sources: the directory the scanner runs in."),
            .flag("apply", help: "Create the proposed screens the project does not have yet (writer)."),
        ]
    )

    let project: String
    let sourceDirectory: String
    let isApplying: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        sourceDirectory = parsed.value("source-dir") ?? ""
        isApplying = parsed.flag("apply")
    }

    /// What became of a proposal: `new` (not in the project yet), `exists` (its key or glob is) or `created`.
    private enum Status: String {
        case new
        case exists
        case created
    }

    func run(_ context: CLIContext) throws {
        let proposals: [ProposedScreen]
        do {
            let types = try ScreenDiscovery.findViewTypes(inDirectory: sourceDirectory)
            proposals = ScreenDiscovery.propose(types)
        } catch {
            throw CLIError.badInput(error.description)
        }
        // One connection for the list and every add: a large app proposes hundreds of screens.
        let client = try context.connect()
        let existing: [Record]
        do {
            existing = try client.send(Request(verb: "SCREEN", arguments: ["LIST", project])).records
        } catch {
            throw context.explained(error)
        }
        guard !proposals.isEmpty else {
            if context.isJSON {
                try Output.json([Any]())
            } else {
                print("No SwiftUI views or UIKit view controllers under \(sourceDirectory).")
            }
            return
        }

        let keys = Set(existing.compactMap { $0["key"] })
        let globs = Set(existing.flatMap { ($0["paths"] ?? "").split(separator: ",").map(String.init) })
        var statuses = proposals.map { keys.contains($0.key) || globs.contains($0.glob) ? Status.exists : .new }

        if isApplying {
            for index in proposals.indices where statuses[index] == .new {
                var request = Request(verb: "SCREEN", arguments: ["ADD", project, proposals[index].key])
                request.keywordList = [("path", proposals[index].glob)]
                do {
                    _ = try client.send(request)
                    statuses[index] = .created
                } catch .server(.conflict, _) {
                    // Another run created it (or took its glob) since the list: it exists.
                    statuses[index] = .exists
                } catch {
                    throw context.explained(error)
                }
            }
        }

        if context.isJSON {
            try Output.json(
                zip(proposals, statuses).map { proposal, status in
                    [
                        "key": proposal.key, "glob": proposal.glob, "types": proposal.types,
                        "status": status.rawValue,
                    ] as [String: Any]
                }
            )
            return
        }
        Output.table(
            ["KEY", "GLOB", "STATUS", "TYPES"],
            zip(proposals, statuses).map { proposal, status in
                [proposal.key, proposal.glob, status.rawValue, proposal.types.joined(separator: ", ")]
            }
        )
        print("")
        let created = statuses.filter { $0 == .created }.count
        let new = statuses.filter { $0 == .new }.count
        let exists = statuses.filter { $0 == .exists }.count
        if isApplying {
            print("Created \(Output.count(created, "screen")); skipped \(exists) that exist already.")
        } else if new == 0 {
            print("The project has every proposed screen already.")
        } else {
            print(
                "\(Output.count(new, "new screen")). Create them with: barkeep screen discover "
                    + "\(Self.shellWord(project)) \(Self.shellWord(sourceDirectory)) --apply"
            )
        }
    }

    /// `word` as a shell reads it back: as it is when it holds only safe characters, else single-quoted.
    private static func shellWord(_ word: String) -> String {
        let safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:@%+=,-"
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
