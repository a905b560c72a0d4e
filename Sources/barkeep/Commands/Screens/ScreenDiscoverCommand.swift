import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepDiscovery
import BarkeepProtocol
import Foundation

/// `barkeep screen discover PROJECT SOURCE-DIR [--root DIR] [--exclude GLOB …] [--apply]`: proposes the screens of
/// an app's sources with why each is one and the components it uses, lists the other view types and the app's own
/// files and, with `--apply`, creates the proposed screens the project does not have yet.
struct ScreenDiscoverCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "discover",
        abstract: "Propose the screens of the app's sources, with their reasons and components; --apply creates them.",
        discussion: """
            Reads the .swift, .h and .m files under SOURCE-DIR (not hidden directories, .build, DerivedData, Pods,
            Carthage, build or node_modules, nor what an --exclude glob matches) and tells screens from components.
            A SwiftUI view or view controller (also of another framework's controller: TabmanViewController) is a
            screen when it declares bars (.toolbar, .navigationTitle, navigationItem, title = …), hosts a
            NavigationStack or TabView, or is shown by other code: a sheet, cover, popover, navigation destination,
            NavigationLink, tab, navigation or scene root, a pushed or presented controller. Every other view type
            is a component, UIKit views and cells always: each screen lists the components it creates, registers or
            names, directly or through others. The files of one directory sharing a name up to a + are one screen,
            with the globs Dir/Name.* and Dir/Name+*.swift (Dir/Name+* with Objective-C) and the files elsewhere
            that extend its types. Paths and globs are relative to --root, the directory the scanner runs in
            (default: SOURCE-DIR, which must be inside it). App delegates, the @main App, Info.plist and project
            files are listed as the app's files. A proposal whose key or a glob the project has already is marked
            exists and left alone, so running it again creates only what is missing; one the team dismissed
            (barkeep screen dismiss, or a removed screen) is marked dismissed and never created. --apply also adds
            the components the screens it creates use (kind component, one per group of files, keyed by its main
            type) with those uses, the unused components whose files hold unmapped findings, the app's files to the
            app area, and excludes the directories it leaves out; it ends by saying what it created, by kind. A file
            belongs to its main type (named like the file, else its first type): a screen declared in a file whose
            main type is not a screen is listed apart, not proposed. Test directories (Tests, …Tests) and watchOS
            or widget targets are left out, and counted. With --json prints an object with screens (key, globs,
            types, reasons, uses, status: new, exists, dismissed or created), components (name, key, kind, file,
            globs, used_by, base), app_files, embedded_screens (name, file, main_type, reasons), left_out
            (directory, reason, files) and, with --apply, applied (screens, components, existing, app_files,
            excluded).
            """,
        arguments: [
            .positional("project", help: "The project."),
            .positional("source-dir", help: "The app's sources: the directory the scanner runs in, or one inside it."),
            .option("root", valueName: "DIR", help: "The directory the scanner runs in (default: SOURCE-DIR)."),
            .option(
                "exclude", valueName: "GLOB", repeatable: true,
                help: "Leave out files (or directories) matching GLOB, relative to the root (repeatable)."),
            .flag("apply", help: "Create the proposed screens the project does not have yet (writer)."),
        ]
    )

    /// What it reads to propose screens, and what `--apply` sends to create them.
    static let requests: [String]? = [
        "SCREEN LIST", "SCREEN DISMISSALS", "SCREEN ADD", "SCREEN USES", "SCREEN SET", "SCREEN EXCLUDE", "FINDINGS",
    ]

    let project: String
    let sourceDirectory: String
    let root: String?
    let excluded: [String]
    let isApplying: Bool

    init(_ parsed: ParsedCommand) throws(UsageError) {
        project = parsed.value("project") ?? ""
        sourceDirectory = parsed.value("source-dir") ?? ""
        root = parsed.value("root")
        excluded = parsed.values("exclude")
        isApplying = parsed.flag("apply")
    }

    /// What became of a proposal: `new` (not in the project yet), `exists` (its key or a glob is), `dismissed` (the
    /// team does not want it: barkeep screen dismiss, or a removed screen) or `created`.
    private enum Status: String {
        case new
        case exists
        case dismissed
        case created
    }

    func run(_ context: CLIContext) throws {
        let result: DiscoveryResult
        do {
            result = try ScreenDiscovery.discover(sourceDirectory: sourceDirectory, root: root, excluding: excluded)
        } catch {
            throw CLIError.badInput(error.description)
        }
        // One connection for the list and every add: a large app proposes hundreds of screens.
        let client = try context.connect()
        let existing: [ScreenRecord]
        let dismissed: Set<String>
        do {
            existing = try client.send(ScreenListRequest(project: project)).rows
            dismissed = Set(try client.send(ScreenDismissalsRequest(project: project)).rows.map(\.key))
        } catch {
            throw context.explained(error)
        }

        let keys = Set(existing.map(\.key))
        let globs = Set(existing.flatMap(\.paths))
        let proposals = result.screens
        var statuses = proposals.map { proposal in
            if dismissed.contains(proposal.key) { return Status.dismissed }
            return keys.contains(proposal.key) || proposal.globs.contains(where: globs.contains) ? .exists : .new
        }
        var applied = Applied()
        if isApplying {
            do {
                for index in proposals.indices where statuses[index] == .new {
                    statuses[index] = try add(
                        proposals[index].key, kind: .screen, globs: proposals[index].globs, client)
                }
                let created = zip(proposals, statuses).filter { $0.1 == .created }.map(\.0)
                applied = try applyComponents(of: created, result: result, keys: keys, globs: globs, client)
                applied.screens = created.count
                applied.existing += statuses.filter { $0 == .exists }.count
                applied.appFiles = try applyAppFiles(result.appFiles, globs: globs, client)
                applied.excluded = try applyExclusions(result.leftOut, client)
            } catch let error as CLIError {
                throw context.explained(error)
            }
        }

        if context.isJSON {
            var object = Self.json(result, statuses: statuses.map(\.rawValue))
            if isApplying { object["applied"] = applied.json }
            try Output.json(object)
        } else {
            printReport(result, statuses: statuses, applied: applied)
        }
    }

    /// Adds a screen or component; `exists` when another run created it (or took a glob) since the list.
    private func add(_ key: String, kind: AddableScreenKind, globs: [String], _ client: Client) throws -> Status {
        do {
            _ = try client.send(ScreenAddRequest(project: project, key: key, paths: globs, kind: kind))
            return .created
        } catch {
            guard case .server(.conflict, _) = error else { throw error }
            return .exists
        }
    }

    /// What `--apply` created, by kind, and what it found there already.
    private struct Applied {
        /// Screens created.
        var screens = 0
        /// Components created.
        var components = 0
        /// Proposed screens and needed components the project had already (by key or glob).
        var existing = 0
        /// App files added to the app area.
        var appFiles = 0
        /// Left-out directories newly excluded from the audit.
        var excluded = 0

        /// The `applied` object of `--json`.
        var json: [String: Any] {
            [
                "screens": screens, "components": components, "existing": existing, "app_files": appFiles,
                "excluded": excluded,
            ]
        }
    }

    /// The components the screens created now use: one per key (``ProposedComponent/key``), each added unless the
    /// project has it, and each screen's uses recorded in one request. Screens that existed before keep the uses
    /// the team gave them. Returns how many components it created and how many it found there already.
    private func applyComponents(
        of screens: [ProposedScreen],
        result: DiscoveryResult,
        keys: Set<String>,
        globs: Set<String>,
        _ client: Client
    ) throws -> Applied {
        var applied = Applied()
        let needed = Set(screens.flatMap { $0.uses.map(\.key) })
        // The components the uses can name: those the project has, by key, and those added now.
        var present = keys.intersection(needed)
        applied.existing += present.count
        // A component declared in a proposed screen's own files is part of that screen already.
        var tried = Set(result.screens.map(\.key))
        for component in result.components
        where needed.contains(component.key) && !present.contains(component.key) && tried.insert(component.key).inserted
        {
            guard !component.globs.contains(where: globs.contains), Names.isValidScreenKey(component.key) else {
                continue
            }
            switch try add(component.key, kind: .component, globs: component.globs, client) {
            case .created:
                present.insert(component.key)
                applied.components += 1
            default:
                applied.existing += 1
            }
        }
        for screen in screens {
            let used = Set(screen.uses.map(\.key)).intersection(present).subtracting([screen.key]).sorted()
            // One request per screen, in bounded lists: the wire takes up to ScreenUsesRequest.maximumUses at once.
            for start in stride(from: 0, to: used.count, by: 500) {
                let list = Array(used[start..<min(used.count, start + 500)])
                do {
                    _ = try client.send(ScreenUsesRequest(project: project, screen: screen.key, components: list))
                } catch {
                    // A component that could not be added (its glob is a screen's): nothing to use.
                    guard case .server(let code, _) = error, code == .notFound || code == .badArgument else {
                        throw error
                    }
                }
            }
        }
        applied.components += try applyUnusedComponents(result, skipping: tried, globs: globs, client)
        return applied
    }

    /// The components no screen uses whose files hold findings no screen counts, added (kind component) so that
    /// those findings say why they are unmapped (`unused-component`) and the team can say who uses them. Returns how
    /// many it added.
    private func applyUnusedComponents(
        _ result: DiscoveryResult, skipping taken: Set<String>, globs: Set<String>, _ client: Client
    ) throws -> Int {
        var candidates: [String: [String]] = [:]
        let used = Set(result.screens.flatMap { $0.uses.map(\.key) })
        for component in result.components
        where component.usedBy.isEmpty && !taken.contains(component.key) && !used.contains(component.key)
            && Names.isValidScreenKey(component.key) && !component.globs.contains(where: globs.contains)
        {
            candidates[component.key] = candidates[component.key] ?? component.globs
        }
        guard !candidates.isEmpty else { return 0 }
        var filters = FindingFilters()
        (filters.screen, filters.status) = (AuditArea.unmapped, FindingQuery.allWord)
        let files = try client.send(FindingsRequest(project: project, filters: filters)).rows.compactMap(\.file)
        let keys = candidates.keys.sorted()
        let attribution = ScreenAttribution(
            keys.enumerated().flatMap { index, key in candidates[key, default: []].map { (Int64(index), $0) } })
        let owning = Set(files.compactMap { attribution.screen(for: $0) }).sorted()
        var added = 0
        for index in owning {
            let key = keys[Int(index)]
            if try add(key, kind: .component, globs: candidates[key] ?? [], client) == .created { added += 1 }
        }
        return added
    }

    /// The directories discovery left out as not the iPhone app's, excluded from the audit so that their unmapped
    /// findings say why (`SCREEN EXCLUDE`, `why=` the rule). Returns how many it newly excluded.
    private func applyExclusions(_ leftOut: [LeftOutDirectory], _ client: Client) throws -> Int {
        var count = 0
        for reason in Set(leftOut.map(\.reason)).sorted(by: { $0.rawValue < $1.rawValue }) {
            let paths = leftOut.filter { $0.reason == reason }.map(\.directory).filter { Names.isValidGlob($0) }
            for start in stride(from: 0, to: paths.count, by: 200) {
                let list = Array(paths[start..<min(paths.count, start + 200)])
                let request = ScreenExcludeRequest(project: project, paths: list, why: reason.rawValue)
                count += try client.send(request).summary?.excluded ?? 0
            }
        }
        return count
    }

    /// The app's own files the app area does not cover yet, added to it; returns how many.
    private func applyAppFiles(_ files: [String], globs: Set<String>, _ client: Client) throws -> Int {
        let attribution = ScreenAttribution(globs.enumerated().map { (Int64($0.offset), $0.element) })
        let missing = files.filter { !globs.contains($0) && attribution.screen(for: $0) == nil }
        guard !missing.isEmpty else { return 0 }
        var request = ScreenSetRequest(project: project, key: AuditArea.app)
        request.addPaths = missing
        do {
            _ = try client.send(request)
            return missing.count
        } catch {
            // A file another screen's glob names exactly stays that screen's.
            guard case .server(.conflict, _) = error else { throw error }
            return 0
        }
    }

    /// The `--json` object: `screens`, `components`, `app_files`, `embedded_screens` and `left_out`.
    static func json(_ result: DiscoveryResult, statuses: [String]) -> [String: Any] {
        [
            "screens": zip(result.screens, statuses).map { screen, status in
                [
                    "key": screen.key, "globs": screen.globs, "types": screen.types, "reasons": screen.reasons,
                    "uses": screen.uses.map { ["name": $0.name, "key": $0.key, "globs": $0.globs] as [String: Any] },
                    "status": status,
                ] as [String: Any]
            },
            "components": result.components.map { component in
                [
                    "name": component.name, "key": component.key, "kind": Self.kindName(component.kind),
                    "file": component.file, "globs": component.globs, "used_by": component.usedBy,
                    "base": component.isBaseClass,
                ] as [String: Any]
            },
            "app_files": result.appFiles,
            "embedded_screens": result.embeddedScreens.map { screen in
                [
                    "name": screen.name, "file": screen.file, "main_type": screen.mainType,
                    "reasons": screen.reasons,
                ] as [String: Any]
            },
            "left_out": result.leftOut.map { directory in
                [
                    "directory": directory.directory, "reason": directory.reason.rawValue,
                    "files": directory.files,
                ] as [String: Any]
            },
        ]
    }

    /// How `--json` names a view type's kind.
    static func kindName(_ kind: ViewType.Kind) -> String {
        switch kind {
        case .swiftUIView: "view"
        case .viewController: "controller"
        case .swiftUIPart: "part"
        case .uiKitView: "uikit-view"
        }
    }

    private func printReport(_ result: DiscoveryResult, statuses: [Status], applied: Applied) {
        for (screen, status) in zip(result.screens, statuses) {
            print(Output.bold(screen.key) + " (\(status.rawValue))")
            for (label, values) in [
                ("globs", screen.globs), ("types", screen.types), ("reasons", screen.reasons),
                ("uses", screen.uses.map(\.name)),
            ] where !values.isEmpty {
                print(
                    "  \(label):" + String(repeating: " ", count: 8 - label.count)
                        + Output.plain(values.joined(separator: ", ")))
            }
        }
        if result.screens.isEmpty {
            let count = Output.count(result.components.count, "view type")
            print("No screens among the \(count) under \(sourceDirectory).")
        }
        let unused = result.components.filter(\.usedBy.isEmpty)
        if !unused.isEmpty {
            print("")
            print("Components no screen uses:")
            for component in unused {
                print(
                    Output.plain("  \(component.name)  \(component.file)")
                        + (component.isBaseClass ? "  (base class)" : ""))
            }
        }
        if !result.embeddedScreens.isEmpty {
            print("")
            print("Screens in a file another type owns (not proposed; give each a file of its own to propose it):")
            for screen in result.embeddedScreens {
                print(
                    Output.plain(
                        "  \(screen.name)  \(screen.file) (owned by \(screen.mainType))  "
                            + screen.reasons.joined(separator: ", ")))
            }
        }
        if !result.appFiles.isEmpty {
            print("")
            print("App files: " + Output.plain(result.appFiles.joined(separator: ", ")))
        }
        if !result.leftOut.isEmpty {
            let tests = result.leftOut.filter { $0.reason == .tests }
            let targets = result.leftOut.filter { $0.reason == .otherTarget }
            let previews = result.leftOut.filter { $0.reason == .previews }
            let excludedByGlob = result.leftOut.filter { $0.reason == .excluded }
            print("")
            print("Left out, not the iPhone app's:")
            for (group, rule) in [
                (targets, "watchOS or widget targets (an @main file beside WatchKit, ClockKit or Widget code)"),
                (tests, "test directories (named Tests or …Tests)"),
                (previews, "preview and gallery directories (Preview Content, Previews, Gallery, Demo, Demos)"),
                (excludedByGlob, "paths --exclude matches"),
            ] where !group.isEmpty {
                let count = Output.count(group.reduce(0) { $0 + $1.files }, "file")
                print(
                    "  \(count) of \(rule): "
                        + Output.plain(group.map(\.directory).joined(separator: ", ")))
            }
        }
        guard !result.screens.isEmpty || isApplying else { return }
        print("")
        let new = statuses.filter { $0 == .new }.count
        let dismissed = statuses.filter { $0 == .dismissed }.count
        if isApplying {
            print(Self.appliedLine(applied, dismissed: dismissed))
        } else if new == 0 {
            print("The project has every proposed screen already.")
        } else {
            let options =
                (root.map { [" --root", Self.shellWord($0)] } ?? [])
                + excluded.flatMap { [" --exclude", Self.shellWord($0)] }
            print(
                "\(Output.count(new, "new screen")). Create them with: barkeep screen discover "
                    + "\(Self.shellWord(project)) \(Self.shellWord(sourceDirectory))"
                    + options.joined(separator: " ").replacingOccurrences(of: "  ", with: " ") + " --apply"
            )
        }
    }

    /// What `--apply` did, in one line: `Created 48 screens and 13 components; 2 already existed.`
    private static func appliedLine(_ applied: Applied, dismissed: Int) -> String {
        var line =
            "Created \(Output.count(applied.screens, "screen")) and \(Output.count(applied.components, "component"))"
        var also: [String] = []
        if applied.existing > 0 { also.append("\(applied.existing) already existed") }
        if dismissed > 0 { also.append("\(dismissed) dismissed") }
        if applied.appFiles > 0 { also.append("\(Output.count(applied.appFiles, "app file")) added to the app area") }
        if applied.excluded > 0 {
            also.append("\(applied.excluded) left-out director\(applied.excluded == 1 ? "y" : "ies") excluded")
        }
        if !also.isEmpty { line += "; " + QuantityText.conjunction(also) }
        return line + "."
    }

    /// `word` as a shell reads it back: as it is when it holds only safe characters, else single-quoted.
    private static func shellWord(_ word: String) -> String {
        let safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:@%+=,-"
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
