import Foundation

/// A type that draws a screen or a part of one, where it is declared: a SwiftUI view or a UIKit view controller.
public struct ViewType: Sendable, Equatable {
    /// SwiftUI view or UIKit view controller.
    public enum Kind: Sendable, Equatable {
        /// A struct conforming to SwiftUI's `View`.
        case swiftUIView
        /// A class deriving from a UIKit view controller, directly or through the project's own classes.
        case viewController
    }

    /// The type's name, qualified by the types it is nested in (`Outer.Row`).
    public var name: String
    /// SwiftUI view or view controller.
    public var kind: Kind
    /// The declaring file, relative to the scanned root, with `/` separators.
    public var file: String
    /// The 1-based line of the declaring keyword (`struct`, `class`, `@interface`).
    public var line: Int
    /// A view controller's superclass as written, without generic arguments (`UIKit.UIViewController`,
    /// `BaseViewController`); nil for a SwiftUI view.
    public var superclass: String?

    /// Creates a view type.
    public init(name: String, kind: Kind, file: String, line: Int, superclass: String? = nil) {
        self.name = name
        self.kind = kind
        self.file = file
        self.line = line
        self.superclass = superclass
    }
}

/// A screen proposed for a source file holding view types: created with `SCREEN ADD PROJECT KEY path=GLOB`.
public struct ProposedScreen: Sendable, Equatable {
    /// The screen's key: valid for the screens table and unique among the proposals.
    public var key: String
    /// The glob owning the file: its path (an Objective-C header and its implementation file share one, `Dir/X.*`).
    public var glob: String
    /// Every view type declared in the file, in source order, the base classes left out.
    public var types: [String]

    /// Creates a proposal.
    public init(key: String, glob: String, types: [String]) {
        self.key = key
        self.glob = glob
        self.types = types
    }
}

/// Finds the view types of an iOS app's sources and proposes a screen for each file that holds some.
///
/// The sources are read, not compiled: a small lexer drops comments (`//`, `/* */`, nested in Swift), string
/// literals (multi-line, raw, with their interpolations), Objective-C character literals and preprocessor lines,
/// and Swift's `#/…/#` regex literals; declarations are then recognised by their tokens, braces tracked so that
/// nested types get qualified names (`Outer.Row`, also through `extension Outer { … }`).
///
/// - In `.swift` files a SwiftUI view is a `struct` with `View` or `SwiftUI.View` anywhere in its inheritance
///   list; a view controller is a `class` whose superclass (the first item of the list) is one of
///   ``uiKitControllers`` (also `UIKit.`-qualified) or a view controller of the project. Attributes, modifiers,
///   generic parameters and `where` clauses may be present. Types declared inside functions, closures or property
///   bodies are local, not screens, and are left out.
/// - In `.h` and `.m` files a view controller is an `@interface X : Super` with the same superclasses;
///   categories and class extensions (`@interface X ()`, `@interface X (Cat)`) are not declarations.
///   Objective-C has one class namespace, so an `@interface` of one name counts once: the one in a header wins,
///   else the first by path and line.
/// - Project base classes count across files and languages, transitively: `class Base: UIViewController` in one
///   file, `@interface Inbox : Base` in another. A superclass name is looked up as Swift would, from the innermost
///   enclosing type outwards, then without a module prefix (`AppKit.Base` finds `Base`).
///
/// `#if` branches are read as alternatives: each starts from the braces open at `#if`, and the first decides what
/// is open after `#endif`, so `class A: UIViewController {` for iOS beside `class A: NSViewController {` for macOS
/// keeps the nesting right.
///
/// Not recognised: conformance to `View` added by an extension or through a protocol of the project, superclasses
/// outside ``uiKitControllers`` (`UIHostingController`, `UIPageViewController`), and bare `/…/` regex literals that
/// hold quotes or braces.
public enum ScreenDiscovery {
    /// The UIKit classes whose subclasses are view controllers.
    public static let uiKitControllers: Set<String> = [
        "UIViewController", "UITableViewController", "UICollectionViewController", "UINavigationController",
        "UITabBarController", "UISplitViewController",
    ]

    /// Directories never entered when walking a tree: build products and third-party code.
    public static let skippedDirectories: Set<String> = [
        ".build", "DerivedData", "Pods", "Carthage", "build", "node_modules",
    ]

    /// Files bigger than this are skipped when walking a tree: generated code, not screens.
    public static let maximumFileSize = 4 << 20

    // MARK: - Finding view types

    /// The view types declared in `files` (paths relative to the scanned root, `/` separators), by file then line.
    ///
    /// Only `.swift`, `.h` and `.m` files are read; the others are ignored.
    public static func findViewTypes(in files: [(path: String, text: String)]) -> [ViewType] {
        resolve(files.flatMap { scan(path: $0.path, text: $0.text) })
    }

    /// The view types declared under `root`, by file then line, with paths relative to `root`.
    ///
    /// Reads `.swift`, `.h` and `.m` files as UTF-8 (invalid bytes replaced), skipping hidden files and
    /// directories, ``skippedDirectories``, files over ``maximumFileSize`` and files or directories that cannot be
    /// read. Symbolic links to files are read; symbolic links to directories are not followed. Throws
    /// `CoreError.unreadableDirectory` when `root` is not a directory that can be listed.
    public static func findViewTypes(inDirectory root: String) throws(CoreError) -> [ViewType] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw .unreadableDirectory(path: root, reason: "no such directory")
        }
        guard isDirectory.boolValue else { throw .unreadableDirectory(path: root, reason: "not a directory") }
        let base = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        guard (try? manager.contentsOfDirectory(atPath: base)) != nil else {
            throw .unreadableDirectory(path: root, reason: "cannot list its entries")
        }

        var declarations: [Declaration] = []
        var pending = [""]
        while let directory = pending.popLast() {
            let path = directory.isEmpty ? base : base + "/" + directory
            guard let names = try? manager.contentsOfDirectory(atPath: path) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let relative = directory.isEmpty ? name : directory + "/" + name
                let type = (try? manager.attributesOfItem(atPath: path + "/" + name))?[.type] as? FileAttributeType
                if type == .typeDirectory {
                    if !skippedDirectories.contains(name) { pending.append(relative) }
                    continue
                }
                guard type == .typeRegular || type == .typeSymbolicLink, language(of: name) != nil,
                    let text = readSource(path + "/" + name)
                else { continue }
                declarations += scan(path: relative, text: text)
            }
        }
        return resolve(declarations)
    }

    /// A source file's text, or nil when it cannot be read, is too big or is not a regular file (a link to a
    /// directory, a FIFO that would block the open).
    private static func readSource(_ path: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard
            (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType == .typeRegular,
            let handle = FileHandle(forReadingAtPath: resolved)
        else { return nil }
        defer { try? handle.close() }
        // One byte more than allowed tells a file at the cap from a bigger one without a separate stat.
        guard let data = try? handle.read(upToCount: maximumFileSize + 1), data.count <= maximumFileSize else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - Proposing screens

    /// One screen per file holding view types, sorted by key.
    ///
    /// The glob is the file's path, with `,` and control characters (which globs may not hold) replaced by `?`; an
    /// Objective-C header and the implementation file of the same name and directory are one file whose glob is
    /// `Dir/X.*`, so that findings in the `.m` belong to the screen its header declares. Files whose glob would pass
    /// 1,024 bytes are left out.
    ///
    /// View controllers that another of `types` derives from are base classes, not screens: they are left out, and
    /// a file holding nothing else proposes nothing.
    ///
    /// The key is the view type named like the file (its name or its last component equals the file's stem), else
    /// the file's first top-level view type, else its first. It keeps only `A-Z a-z 0-9 . _ -`, starts with a
    /// letter or digit and has at most 128 characters; when nothing is left, the file's stem is used the same way.
    /// Keys proposed by several files are qualified with each file's directory (`Settings.RowView`); a key that is
    /// empty or `unmapped` (reserved) is qualified the same way, and becomes `Screen` when that is not enough. Keys
    /// still equal get `-2`, `-3`, … in file order.
    public static func propose(_ types: [ViewType]) -> [ProposedScreen] {
        let controllers = Set(types.filter { $0.kind == .viewController }.map(\.name))
        var bases: Set<String> = []
        for type in types where type.kind == .viewController {
            if let superclass = type.superclass, let base = resolveClass(superclass, from: type.name, in: controllers) {
                bases.insert(base)
            }
        }

        var units: [Unit] = []
        var unitIndex: [String: Int] = [:]
        let screens = types.enumerated()
            .filter { !($0.element.kind == .viewController && bases.contains($0.element.name)) }
            .sorted { ($0.element.file, $0.element.line, $0.offset) < ($1.element.file, $1.element.line, $1.offset) }
            .map(\.element)
        for type in screens {
            let split = splitPath(type.file)
            let isObjectiveC = split.fileExtension == "h" || split.fileExtension == "m"
            let prefix = split.directory.isEmpty ? "" : split.directory + "/"
            let identity = isObjectiveC ? prefix + split.stem + ".*" : type.file
            if let index = unitIndex[identity] {
                // The same type declared in two `#if` branches is one type of the file.
                if !units[index].types.contains(type.name) { units[index].types.append(type.name) }
                units[index].hasHeader = units[index].hasHeader || split.fileExtension == "h"
            } else {
                unitIndex[identity] = units.count
                units.append(
                    Unit(
                        file: type.file,
                        objectiveCGlob: isObjectiveC ? identity : nil,
                        hasHeader: split.fileExtension == "h",
                        directory: split.directory,
                        stem: split.stem,
                        types: [type.name]
                    )
                )
            }
        }
        units.removeAll { globText($0).utf8.count > 1024 }

        var keys = units.map { unit in
            let key = sanitizedKey(keyType(of: unit))
            return key.isEmpty ? sanitizedKey(unit.stem) : key
        }
        var counts: [String: Int] = [:]
        for key in keys { counts[key, default: 0] += 1 }
        for index in keys.indices where counts[keys[index], default: 0] > 1 || !isUsableKey(keys[index]) {
            let directoryName = units[index].directory.split(separator: "/").last.map(String.init) ?? ""
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

        return zip(keys, units).map { key, unit in
            ProposedScreen(key: key, glob: globText(unit), types: unit.types)
        }.sorted { $0.key < $1.key }
    }

    /// The files of one proposal: a Swift file, or an Objective-C header with its implementation file.
    private struct Unit {
        var file: String
        var objectiveCGlob: String?
        var hasHeader: Bool
        var directory: String
        var stem: String
        var types: [String]
    }

    private static func globText(_ unit: Unit) -> String {
        let raw = unit.hasHeader ? unit.objectiveCGlob ?? unit.file : unit.file
        return String(
            String.UnicodeScalarView(
                raw.unicodeScalars.map { $0 == "," || $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 })
        )
    }

    private static func keyType(of unit: Unit) -> String {
        let named =
            unit.types.first { $0 == unit.stem }
            ?? unit.types.first { $0.split(separator: ".").last.map(String.init) == unit.stem }
        return named ?? unit.types.first { !$0.contains(".") } ?? unit.types.first ?? ""
    }

    private static func sanitizedKey(_ text: String) -> String {
        let allowed = text.unicodeScalars.filter { isAlphanumeric($0) || "._-".unicodeScalars.contains($0) }
        let trimmed = allowed.drop { !isAlphanumeric($0) }.prefix(128)
        return String(String.UnicodeScalarView(trimmed))
    }

    private static func isUsableKey(_ key: String) -> Bool { !key.isEmpty && key.lowercased() != "unmapped" }

    private static func suffixedKey(_ key: String, _ number: Int) -> String {
        let suffix = "-\(number)"
        return String(key.prefix(128 - suffix.count)) + suffix
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func splitPath(_ path: String) -> (directory: String, stem: String, fileExtension: String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (directory, name, "") }
        return (directory, String(name[..<dot]), String(name[name.index(after: dot)...]).lowercased())
    }

    // MARK: - Declarations

    /// A SwiftUI view or a class with a superclass, as one file declares it.
    private struct Declaration {
        var name: String
        var isSwiftUIView: Bool
        var superclass: String?
        var isObjectiveC: Bool
        var file: String
        var line: Int
        /// The position among the file's declarations, to keep source order within a line.
        var order: Int
    }

    private static func language(of fileName: String) -> SourceLexer.Language? {
        switch splitPath(fileName).fileExtension {
        case "swift": .swift
        case "h", "m": .objectiveC
        default: nil
        }
    }

    /// The declarations of one file.
    private static func scan(path: String, text: String) -> [Declaration] {
        guard let language = language(of: path) else { return [] }
        let tokens = SourceLexer.tokens(of: text, language: language)
        return language == .swift ? swiftDeclarations(tokens, file: path) : objectiveCDeclarations(tokens, file: path)
    }

    /// Marks the view controllers among the classes and returns them with the SwiftUI views, by file then line.
    private static func resolve(_ declarations: [Declaration]) -> [ViewType] {
        // One Objective-C class per name: a header's declaration first, then by path and line.
        func rank(_ declaration: Declaration) -> Int {
            declaration.isObjectiveC && splitPath(declaration.file).fileExtension == "h" ? 0 : 1
        }
        var objectiveCNames: Set<String> = []
        let classes = declarations.filter { !$0.isSwiftUIView }
            .sorted { (rank($0), $0.file, $0.line, $0.order) < (rank($1), $1.file, $1.line, $1.order) }
            .filter { !$0.isObjectiveC || objectiveCNames.insert($0.name).inserted }

        let names = Set(classes.map(\.name))
        var subclasses: [String: [Int]] = [:]
        var pending: [Int] = []
        for (index, declaration) in classes.enumerated() {
            guard let superclass = declaration.superclass else { continue }
            if isUIKitController(superclass) {
                pending.append(index)
            } else if let base = resolveClass(superclass, from: declaration.name, in: names) {
                subclasses[base, default: []].append(index)
            }
        }
        var isController = [Bool](repeating: false, count: classes.count)
        var expanded: Set<String> = []
        while let index = pending.popLast() {
            guard !isController[index] else { continue }
            isController[index] = true
            if expanded.insert(classes[index].name).inserted { pending += subclasses[classes[index].name] ?? [] }
        }

        let found =
            declarations.filter(\.isSwiftUIView) + classes.indices.filter { isController[$0] }.map { classes[$0] }
        return found.sorted { ($0.file, $0.line, $0.order) < ($1.file, $1.line, $1.order) }.map { declaration in
            ViewType(
                name: declaration.name,
                kind: declaration.isSwiftUIView ? .swiftUIView : .viewController,
                file: declaration.file,
                line: declaration.line,
                superclass: declaration.superclass
            )
        }
    }

    private static func isUIKitController(_ name: String) -> Bool {
        let components = name.split(separator: ".")
        guard components.count == 1 || (components.count == 2 && components[0] == "UIKit"),
            let last = components.last
        else { return false }
        return uiKitControllers.contains(String(last))
    }

    /// The project class `superclass` names when written in the declaration of `subclass`: looked up from the
    /// innermost enclosing type outwards, then without a module prefix.
    private static func resolveClass(_ superclass: String, from subclass: String, in names: Set<String>) -> String? {
        var enclosing = subclass.split(separator: ".").dropLast().map(String.init)
        while true {
            let candidate = (enclosing + [superclass]).joined(separator: ".")
            if names.contains(candidate) { return candidate }
            guard !enclosing.isEmpty else { break }
            enclosing.removeLast()
        }
        guard let dot = superclass.firstIndex(of: ".") else { return nil }
        let unqualified = String(superclass[superclass.index(after: dot)...])
        return names.contains(unqualified) ? unqualified : nil
    }

    // MARK: - Swift

    /// Words that cannot name a type: `guard let actor else {` declares nothing.
    private static let reservedWords: Set<String> = [
        "as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else", "enum", "extension",
        "fallthrough", "for", "func", "guard", "if", "import", "in", "init", "is", "let", "protocol", "repeat",
        "return", "self", "Self", "struct", "subscript", "switch", "throw", "throws", "try", "var", "where", "while",
    ]

    private static let swiftTypeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]

    /// A brace's scope: a type's body (its qualified name) or any other block.
    private enum Scope {
        case type(String)
        case block
    }

    private static func swiftDeclarations(_ tokens: [SourceToken], file: String) -> [Declaration] {
        var declarations: [Declaration] = []
        var scopes: [Scope] = []
        // `#if` branches are alternatives that may each open a brace (`class A: UIViewController {` for iOS,
        // `class A: NSViewController {` for macOS): each branch starts from the scopes open at `#if`, and the first
        // decides what is open after `#endif`.
        var conditionals: [(atIf: [Scope], afterFirstBranch: [Scope]?)] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.is("{") {
                scopes.append(.block)
            } else if token.is("}") {
                _ = scopes.popLast()
            } else if token.is("#"), index + 1 < tokens.count, tokens[index + 1].isIdentifier {
                switch tokens[index + 1].text {
                case "if":
                    conditionals.append((scopes, nil))
                case "elseif", "else":
                    if var conditional = conditionals.popLast() {
                        conditional.afterFirstBranch = conditional.afterFirstBranch ?? scopes
                        scopes = conditional.atIf
                        conditionals.append(conditional)
                    }
                case "endif":
                    if let conditional = conditionals.popLast(), let afterFirstBranch = conditional.afterFirstBranch {
                        scopes = afterFirstBranch
                    }
                default:
                    break
                }
            }
            guard token.isIdentifier, swiftTypeKeywords.contains(token.text),
                let header = swiftTypeHeader(tokens, at: index)
            else {
                index += 1
                continue
            }
            // Only a type's body is pushed as a type, so the innermost scope tells whether all of them are.
            let enclosing: String?
            switch scopes.last {
            case nil: enclosing = ""
            case .type(let name)?: enclosing = name
            case .block?: enclosing = nil
            }
            if let enclosing {
                let name = enclosing.isEmpty ? header.name : enclosing + "." + header.name
                scopes.append(.type(name))
                let isView =
                    token.text == "struct" && header.inherited.contains { $0 == "View" || $0 == "SwiftUI.View" }
                if isView || (token.text == "class" && !header.inherited.isEmpty) {
                    declarations.append(
                        Declaration(
                            name: name,
                            isSwiftUIView: isView,
                            superclass: isView ? nil : header.inherited.first,
                            isObjectiveC: false,
                            file: file,
                            line: token.line,
                            order: declarations.count
                        )
                    )
                }
            } else {
                scopes.append(.block)
            }
            index = header.body + 1
        }
        return declarations
    }

    /// Reads `keyword Name<…>: A, B<…> where … {` from the keyword on: the name, the inherited types and where the
    /// body starts; nil when the tokens are not a type declaration (`class func`, `import class UIKit.X`).
    private static func swiftTypeHeader(
        _ tokens: [SourceToken],
        at start: Int
    ) -> (name: String, inherited: [String], body: Int)? {
        // A declaration's header is short: a bounded look-ahead keeps garbage linear.
        let tokens = tokens[start..<min(tokens.count, start + 2_000)]
        var index = start + 1
        guard index < tokens.endIndex, tokens[index].isIdentifier, !reservedWords.contains(tokens[index].text) else {
            return nil
        }
        var name = tokens[index].text
        index += 1
        if tokens[start].text == "extension" {
            while index + 1 < tokens.endIndex, tokens[index].is("."), tokens[index + 1].isIdentifier {
                name += "." + tokens[index + 1].text
                index += 2
            }
        }
        if index < tokens.endIndex, tokens[index].is("<") {
            guard let end = skipAngles(tokens, from: index) else { return nil }
            index = end
        }
        var inherited: [String] = []
        if index < tokens.endIndex, tokens[index].is(":") {
            index += 1
            var item: [SourceToken] = []
            var depth = 0
            while index < tokens.endIndex {
                let token = tokens[index]
                if depth == 0 && (token.is("{") || token.is(",") || token.isWord("where")) {
                    if let type = inheritedTypeName(item) { inherited.append(type) }
                    item = []
                    guard token.is(",") else { break }
                } else if token.is("}") || token.is(";") {
                    return nil
                } else {
                    if token.is("<") || token.is("(") || token.is("[") { depth += 1 }
                    if token.is(">") || token.is(")") || token.is("]") { depth = max(0, depth - 1) }
                    item.append(token)
                }
                index += 1
            }
        }
        if index < tokens.endIndex, tokens[index].isWord("where") {
            while index < tokens.endIndex, !tokens[index].is("{") {
                if tokens[index].is("}") || tokens[index].is(";") { return nil }
                index += 1
            }
        }
        guard index < tokens.endIndex, tokens[index].is("{") else { return nil }
        return (name, inherited, index)
    }

    /// The index after the `>` matching the `<` at `start`, or nil when a brace or `;` comes first.
    private static func skipAngles(_ tokens: ArraySlice<SourceToken>, from start: Int) -> Int? {
        var depth = 0
        for index in start..<tokens.endIndex {
            let token = tokens[index]
            if token.is("<") { depth += 1 }
            if token.is(">") { depth -= 1 }
            if depth == 0 { return index + 1 }
            if token.is("{") || token.is("}") || token.is(";") { return nil }
        }
        return nil
    }

    /// The dotted type name of one inheritance item, without attributes (`@preconcurrency`), `~` or generic
    /// arguments: `SwiftUI.View`, `BaseListViewController`.
    private static func inheritedTypeName(_ item: [SourceToken]) -> String? {
        var index = 0
        while index < item.count {
            if item[index].is("@") {
                index += 2
                if index < item.count, item[index].is("(") {
                    var depth = 0
                    while index < item.count {
                        if item[index].is("(") { depth += 1 }
                        if item[index].is(")") { depth -= 1 }
                        index += 1
                        if depth == 0 { break }
                    }
                }
            } else if item[index].is("~") {
                index += 1
            } else {
                break
            }
        }
        guard index < item.count, item[index].isIdentifier else { return nil }
        var name = item[index].text
        index += 1
        while index + 1 < item.count, item[index].is("."), item[index + 1].isIdentifier {
            name += "." + item[index + 1].text
            index += 2
        }
        return name
    }

    // MARK: - Objective-C

    private static func objectiveCDeclarations(_ tokens: [SourceToken], file: String) -> [Declaration] {
        var declarations: [Declaration] = []
        var index = 0
        while index + 2 < tokens.count {
            defer { index += 1 }
            guard tokens[index].is("@"), tokens[index + 1].isWord("interface"), tokens[index + 2].isIdentifier else {
                continue
            }
            var next = index + 3
            // Lightweight generics: `@interface Box<__covariant T> : UIViewController`.
            if next < tokens.count, tokens[next].is("<") {
                guard let end = skipAngles(tokens[...], from: next) else { continue }
                next = end
            }
            // A category or class extension has `(` here instead and declares no class.
            guard next + 1 < tokens.count, tokens[next].is(":"), tokens[next + 1].isIdentifier else { continue }
            declarations.append(
                Declaration(
                    name: tokens[index + 2].text,
                    isSwiftUIView: false,
                    superclass: tokens[next + 1].text,
                    isObjectiveC: true,
                    file: file,
                    line: tokens[index].line,
                    order: declarations.count
                )
            )
        }
        return declarations
    }
}
