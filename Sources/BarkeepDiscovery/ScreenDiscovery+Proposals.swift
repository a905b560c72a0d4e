import BarkeepCore

/// The files of one screen or component: those of one directory sharing a name up to any `+` (`Inbox.swift`,
/// `Inbox.h`, `Inbox.m`, `Inbox+Actions.swift`), and the files elsewhere that extend its types.
struct FileGroup {
    /// The directory, relative to the scanner root; empty at the root.
    var directory: String
    /// The shared name.
    var stem: String
    /// Whether Objective-C files are among them: their categories (`Inbox+Refresh.m`) are extension files too.
    var hasObjectiveC: Bool
    /// Files elsewhere extending its types, in path order.
    var extensionFiles: [String] = []

    /// `Dir/Name.*`, `Dir/Name+*.swift` (`Dir/Name+*` with Objective-C), then the extension files; `,` and
    /// control characters, which globs may not hold, replaced by `?`.
    var globs: [String] {
        let prefix = directory.isEmpty ? stem : directory + "/" + stem
        let own = [prefix + ".*", prefix + (hasObjectiveC ? "+*" : "+*.swift")]
        return (own + extensionFiles).map { glob in
            String(
                String.UnicodeScalarView(
                    glob.unicodeScalars.map { $0 == "," || $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
        }
    }
}

extension ScreenDiscovery {
    /// The group a file belongs to: its directory and its name without extension, cut at the first `+` after
    /// the first character.
    static func groupIdentity(of path: String) -> (id: String, directory: String, stem: String) {
        let split = splitPath(path)
        let stem = split.stem.dropFirst().firstIndex(of: "+").map { String(split.stem[..<$0]) } ?? split.stem
        return (split.directory.isEmpty ? stem : split.directory + "/" + stem, split.directory, stem)
    }

    /// Puts the results together: screens from the types with reasons, components from the others, groups and
    /// their globs, keys, uses and the app's files.
    static func assemble(
        types allTypes: [ViewType],
        files: [ScannedFile],
        evidence: Evidence,
        paths: [String]
    ) -> DiscoveryResult {
        let bases = baseClasses(of: allTypes)
        var groups: [String: FileGroup] = [:]
        var groupOfType: [String: String] = [:]
        for type in allTypes {
            let identity = groupIdentity(of: type.file)
            let isObjectiveC = language(of: type.file) == .objectiveC
            var group =
                groups[identity.id]
                ?? FileGroup(directory: identity.directory, stem: identity.stem, hasObjectiveC: false)
            group.hasObjectiveC = group.hasObjectiveC || isObjectiveC
            groups[identity.id] = group
            if groupOfType[type.name] == nil { groupOfType[type.name] = identity.id }
        }
        addExtensionFiles(files, types: allTypes, groupOfType: groupOfType, to: &groups)
        groups = groups.filter { $0.value.globs.allSatisfy { $0.utf8.count <= 1024 } }
        let types = allTypes.filter { groups[groupIdentity(of: $0.file).id] != nil }
        func globs(of name: String) -> [String] { groupOfType[name].flatMap { groups[$0]?.globs } ?? [] }

        // Reasons: own ones first, then those of the code showing the type, once each.
        var reasons: [String: [String]] = [:]
        for isOwn in [true, false] {
            for reason in evidence.reasons where reason.isOwn == isOwn && !bases.contains(reason.type) {
                if let owner = reason.tabViewOwner, evidence.pagedTabViewOwners.contains(owner) { continue }
                if reasons[reason.type]?.contains(reason.text) != true {
                    reasons[reason.type, default: []].append(reason.text)
                }
            }
        }
        // A controller uses the project classes it derives from (their code runs in each of their screens), and so
        // does a UIKit view; a view type uses the UIKit views its code names, directly or through other types.
        var edges = evidence.creations
        let classes = types.filter { $0.kind == .viewController || $0.kind == .uiKitView }
        let classNames = Set(classes.map(\.name))
        for type in classes {
            if let superclass = type.superclass, let base = resolveClass(superclass, from: type.name, in: classNames) {
                edges[type.name, default: []].insert(base)
            }
        }
        let created = Set(evidence.creations.values.joined())
        let targets = Set(
            types.filter {
                $0.kind == .uiKitView || ($0.kind != .viewController && !created.contains($0.name))
            }.map(\.name))
        for (user, views) in referenceUses(evidence.references, viewTypes: Set(types.map(\.name)), targets: targets) {
            edges[user, default: []].formUnion(views)
        }
        // A UIHostingController subclass that is a screen (shown, or with bars of its own) is the screen, and the
        // view it hosts its content; one that is not is the part of the view it hosts (a screen, `hosted by C`).
        for (controller, view) in evidence.hosts.sorted(by: { $0.key < $1.key }) where !bases.contains(controller) {
            guard reasons[controller] != nil else {
                edges[view, default: []].insert(controller)
                continue
            }
            edges[controller, default: []].insert(view)
            let shown = evidence.reasons.filter { $0.type == view && $0.source != nil }.map(\.text)
            reasons[view] = shown.isEmpty ? nil : reasons[view]?.filter(shown.contains)
        }
        // A toolbar's content, a view modifier and a UIKit view are parts of the views using them, whatever bars
        // they declare; a navigation controller is the container of the screens it shows; an overlay, and a generic
        // controller (a host of whatever view it is given), is a screen only with bars of its own.
        let controllers = types.filter { $0.kind == .viewController }
        let ownReasons = Set(evidence.reasons.filter(\.isOwn).map(\.type))
        let screenNames = Set(
            types.filter {
                $0.kind != .swiftUIPart && $0.kind != .uiKitView && reasons[$0.name] != nil
                    && !($0.kind == .viewController && derives($0, from: "UINavigationController", among: controllers))
                    && !((evidence.overlays.contains($0.name) || $0.kind == .viewController && $0.isGeneric)
                        && !ownReasons.contains($0.name))
            }.map(\.name))
        let uses = componentUses(of: screenNames, edges: edges)

        // One proposal per group holding a screen, in file order.
        // A group belongs to its main type: screens declared in a group whose main type is not a screen stay out.
        let mainTypes = mainTypes(of: files)
        var embedded: [EmbeddedScreen] = []
        var screenGroups: [(id: String, types: [String])] = []
        for type in types where screenNames.contains(type.name) {
            let id = groupIdentity(of: type.file).id
            if let main = mainTypes[id], !screenNames.contains(main) {
                if !embedded.contains(where: { $0.name == type.name }) {
                    embedded.append(
                        EmbeddedScreen(
                            name: type.name, file: type.file, mainType: main, reasons: reasons[type.name] ?? []))
                }
                continue
            }
            if let index = screenGroups.firstIndex(where: { $0.id == id }) {
                // The same type declared in two `#if` branches is one type of the group.
                if !screenGroups[index].types.contains(type.name) { screenGroups[index].types.append(type.name) }
            } else {
                screenGroups.append((id, [type.name]))
            }
        }
        let keys = proposalKeys(
            screenGroups.map { (groups[$0.id]?.directory ?? "", groups[$0.id]?.stem ?? "", $0.types) })
        let componentKeys = componentKeys(
            of: types.filter { !screenNames.contains($0.name) },
            screenGroups: Dictionary(
                zip(screenGroups.map(\.id), keys), uniquingKeysWith: { first, _ in first }),
            groups: groups, mainTypes: mainTypes)
        func componentKey(of name: String) -> String { componentKeys[name] ?? name }
        var usedBy: [String: [String]] = [:]
        let screens = zip(keys, screenGroups).map { key, group in
            let names = Set(group.types.flatMap { uses[$0] ?? [] }).sorted()
            for name in names { usedBy[name, default: []].append(key) }
            return ProposedScreen(
                key: key,
                globs: groups[group.id]?.globs ?? [],
                types: group.types,
                reasons: group.types.flatMap { type in
                    (reasons[type] ?? []).map { group.types.count > 1 ? "\(type): \($0)" : $0 }
                },
                uses: names.map { ComponentUse(name: $0, key: componentKey(of: $0), globs: globs(of: $0)) }
            )
        }.sorted { $0.key < $1.key }
        // A component declared in a screen's files is part of that screen.
        let screenKeys = Set(keys)
        var listed: Set<String> = []
        let components = types.filter { !screenNames.contains($0.name) && listed.insert($0.name).inserted }.map {
            let key = componentKey(of: $0.name)
            let users = Set((usedBy[$0.name] ?? []) + (screenKeys.contains(key) ? [key] : []))
            return ProposedComponent(
                name: $0.name, key: key, kind: $0.kind, file: $0.file, globs: globs(of: $0.name),
                usedBy: users.sorted(), isBaseClass: bases.contains($0.name))
        }.sorted { ($0.name, $0.file) < ($1.name, $1.file) }
        return DiscoveryResult(
            screens: screens, components: components, appFiles: appFiles(files, paths: paths),
            embeddedScreens: embedded.sorted { ($0.name, $0.file) < ($1.name, $1.file) })
    }

    /// The key of each component: one per group of files, its main type when that is one of the group's
    /// components (not a secondary type of its file), else the key ``proposalKeys(_:)`` gives the group's
    /// components, in file order; a component in a proposed screen's group has that screen's key. Keys that a
    /// screen has are qualified with the group's directory (`Views.Badge`), then numbered.
    static func componentKeys(
        of components: [ViewType], screenGroups: [String: String], groups: [String: FileGroup],
        mainTypes: [String: String]
    ) -> [String: String] {
        var keys: [String: String] = [:]
        var grouped: [(id: String, types: [String])] = []
        var position: [String: Int] = [:]
        for type in components where keys[type.name] == nil {
            let id = groupIdentity(of: type.file).id
            if let screen = screenGroups[id] {
                keys[type.name] = screen
                continue
            }
            if let index = position[id] {
                if !grouped[index].types.contains(type.name) { grouped[index].types.append(type.name) }
            } else {
                position[id] = grouped.count
                grouped.append((id, [type.name]))
            }
        }
        // The main type first, so that it names the group.
        for index in grouped.indices {
            if let main = mainTypes[grouped[index].id], let at = grouped[index].types.firstIndex(of: main) {
                grouped[index].types.insert(grouped[index].types.remove(at: at), at: 0)
            }
        }
        var groupKeys = proposalKeys(
            grouped.map { (groups[$0.id]?.directory ?? "", groups[$0.id]?.stem ?? "", $0.types) })
        let taken = Set(screenGroups.values)
        var assigned = taken
        for index in groupKeys.indices
        where taken.contains(groupKeys[index]) || !assigned.insert(groupKeys[index]).inserted {
            let directoryName = groups[grouped[index].id]?.directory.split(separator: "/").last.map(String.init) ?? ""
            var key = sanitizedKey([directoryName, groupKeys[index]].filter { !$0.isEmpty }.joined(separator: "."))
            var number = 2
            let base = key
            while !isUsableKey(key) || assigned.contains(key) {
                key = suffixedKey(isUsableKey(base) ? base : "Component", number)
                number += 1
            }
            assigned.insert(key)
            groupKeys[index] = key
        }
        for (group, key) in zip(grouped, groupKeys) {
            for type in group.types { keys[type] = key }
        }
        return keys
    }

    /// The main type of each group: the type named like the group, declared at file level in any of its files,
    /// else the first type declared at file level in the files named exactly like the group (`Inbox.swift`, not
    /// `Inbox+Search.swift`), by path. A group none of whose files named like it declares a type has none.
    static func mainTypes(of files: [ScannedFile]) -> [String: String] {
        var named: [String: String] = [:]
        var first: [String: String] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) {
            let identity = groupIdentity(of: file.path)
            if file.topLevelTypes.contains(identity.stem) { named[identity.id] = identity.stem }
            if splitPath(file.path).stem == identity.stem, first[identity.id] == nil,
                let type = file.topLevelTypes.first
            {
                first[identity.id] = type
            }
        }
        return first.merging(named) { _, stem in stem }
    }

    /// View controllers and UIKit views that other discovered classes derive from.
    private static func baseClasses(of types: [ViewType]) -> Set<String> {
        let classes = Set(types.filter { $0.kind == .viewController || $0.kind == .uiKitView }.map(\.name))
        var bases: Set<String> = []
        for type in types where type.kind == .viewController || type.kind == .uiKitView {
            if let superclass = type.superclass, let base = resolveClass(superclass, from: type.name, in: classes) {
                bases.insert(base)
            }
        }
        return bases
    }

    /// Adds each file that extends the types of exactly one other group, and declares no view type, to that group.
    private static func addExtensionFiles(
        _ files: [ScannedFile],
        types: [ViewType],
        groupOfType: [String: String],
        to groups: inout [String: FileGroup]
    ) {
        let declaring = Set(types.map(\.file))
        for file in files.sorted(by: { $0.path < $1.path }) where !declaring.contains(file.path) {
            let targets = Set(
                file.extended.compactMap { name in
                    groupOfType[name]
                        ?? name.firstIndex(of: ".").flatMap { groupOfType[String(name[$0...].dropFirst())] }
                }
            ).subtracting([groupIdentity(of: file.path).id])
            if targets.count == 1, let target = targets.first { groups[target]?.extensionFiles.append(file.path) }
        }
    }

    // MARK: - App files

    /// The files of the whole app among `paths`, sorted: entry points and delegates (and an Objective-C one's
    /// header or implementation), `…AppDelegate` and `…SceneDelegate` sources, the extension files of both
    /// (`SPAppDelegate+Extensions.swift`), `Info.plist`, Xcode project files, `.xcconfig` and `.entitlements` files.
    static func appFiles(_ files: [ScannedFile], paths: [String]) -> [String] {
        var found = Set(files.filter(\.isAppEntry).map(\.path))
        let objectiveCEntries = Set(found.filter { language(of: $0) == .objectiveC }.map { groupIdentity(of: $0).id })
        let entryStems = Set(found.map { splitPath($0).stem })
        for path in paths {
            let split = splitPath(path)
            let name = String(path.split(separator: "/").last ?? "")
            let isSource = language(of: path) != nil
            // `Name+Feature.swift` extends `Name`.
            let base = String(split.stem.prefix { $0 != "+" })
            if isSource && (base.hasSuffix("AppDelegate") || base.hasSuffix("SceneDelegate"))
                || isSource && base != split.stem && entryStems.contains(base)
                || isSource && language(of: path) == .objectiveC
                    && objectiveCEntries.contains(groupIdentity(of: path).id)
                || name == "Info.plist" || name.hasSuffix("-Info.plist")
                || ["xcconfig", "entitlements"].contains(split.fileExtension)
                || (name == "project.pbxproj" && split.directory.hasSuffix(".xcodeproj"))
            {
                found.insert(path)
            }
        }
        return found.sorted()
    }

    // MARK: - Keys

    /// One key per group (directory, name, screen types), valid for the screens table and unique.
    ///
    /// The key is the type named like the group, else its first top-level type, else its first; it keeps only
    /// `A-Z a-z 0-9 . _ -`, starts with a letter or digit and has at most 128 characters; when nothing is left, the
    /// group's name is used the same way. Keys of several groups are qualified with each group's directory
    /// (`Settings.RowView`); a key that is empty or `unmapped` (reserved) is qualified the same way, and becomes
    /// `Screen` when that is not enough. Keys still equal get `-2`, `-3`, … in file order.
    static func proposalKeys(_ groups: [(directory: String, stem: String, types: [String])]) -> [String] {
        var keys = groups.map { group in
            let named =
                group.types.first { $0 == group.stem }
                ?? group.types.first { $0.split(separator: ".").last.map(String.init) == group.stem }
            let key = sanitizedKey(named ?? group.types.first { !$0.contains(".") } ?? group.types.first ?? "")
            return key.isEmpty ? sanitizedKey(group.stem) : key
        }
        var counts: [String: Int] = [:]
        for key in keys { counts[key, default: 0] += 1 }
        for index in keys.indices where counts[keys[index], default: 0] > 1 || !isUsableKey(keys[index]) {
            let directoryName = groups[index].directory.split(separator: "/").last.map(String.init) ?? ""
            keys[index] = sanitizedKey([directoryName, keys[index]].filter { !$0.isEmpty }.joined(separator: "."))
            if !isUsableKey(keys[index]) { keys[index] = "Screen" }
        }
        // Suffixes in file order; a suffixed key never takes one that another proposal has as it is.
        var taken = Set(keys)
        var assigned: Set<String> = []
        for index in keys.indices {
            if assigned.contains(keys[index]) {
                var number = 2
                while taken.contains(suffixedKey(keys[index], number)) { number += 1 }
                keys[index] = suffixedKey(keys[index], number)
                taken.insert(keys[index])
            }
            assigned.insert(keys[index])
        }
        return keys
    }

    static func sanitizedKey(_ text: String) -> String {
        let allowed = text.unicodeScalars.filter { isAlphanumeric($0) || "._-".unicodeScalars.contains($0) }
        let trimmed = allowed.drop { !isAlphanumeric($0) }.prefix(128)
        return String(String.UnicodeScalarView(trimmed))
    }

    static func isUsableKey(_ key: String) -> Bool { !key.isEmpty && !AuditArea.isReserved(key) }

    static func suffixedKey(_ key: String, _ number: Int) -> String {
        let suffix = "-\(number)"
        return String(key.prefix(128 - suffix.count)) + suffix
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
