import Foundation

/// A SwiftUI view or a class with a superclass, as one file declares it.
struct Declaration {
    /// The qualified name.
    var name: String
    /// Whether it is a struct conforming to `View`.
    var isSwiftUIView: Bool
    /// Whether it is a struct conforming to `ToolbarContent` or `ViewModifier`: part of a view, never a screen.
    var isViewPart = false
    /// A class's superclass as written; nil for a SwiftUI view.
    var superclass: String?
    /// Whether it is an Objective-C `@interface`.
    var isObjectiveC: Bool
    /// The declaring file.
    var file: String
    /// The 1-based line of the declaring keyword.
    var line: Int
    /// The position among the file's declarations, to keep source order within a line.
    var order: Int
    /// Whether it declares generic parameters (`class Host<Content: View>`): a controller that does hosts
    /// whatever view it is given, a screen only with bars of its own.
    var isGeneric = false
}

/// One source file as discovery reads it: its declarations, its tokens and the type whose code each token is.
struct ScannedFile {
    /// The path relative to the scanner root.
    var path: String
    /// Whether it is an Objective-C header or implementation file.
    var isObjectiveC: Bool
    /// The file's tokens, comments and literals left out.
    var tokens: [SourceToken]
    /// The view types and classes it declares.
    var declarations: [Declaration]
    /// For each token, the qualified name of the innermost type, extension or `@implementation` whose code it is;
    /// nil at file level, `#Preview` inside previews (whose code is never a reason or a use).
    var owners: [String?]
    /// For each opening bracket (`(`, `[`, `{`), the index of its closing one (`tokens.count` when unclosed);
    /// -1 for the other tokens.
    var closers: [Int]
    /// The types it extends at file level: Swift `extension X`, Objective-C categories and class extensions.
    var extended: [String]
    /// Whether it is an entry point or a delegate of the whole app (`@main`, `UIApplicationMain`, a type conforming
    /// to `App`, `UIApplicationDelegate`, `UIWindowSceneDelegate` or `UISceneDelegate`).
    var isAppEntry: Bool
    /// The types it declares at file level (not extensions; Objective-C: `@interface` and `@implementation` of a
    /// class, not of a category), in source order: the first decides, with the file's name, which type owns it.
    var topLevelTypes: [String] = []
    /// Whether it has `@main`.
    var hasMain = false
    /// Whether it is watchOS or widget code: it imports one of ``ScreenDiscovery/otherTargetFrameworks``, declares
    /// a type conforming to one of ``ScreenDiscovery/otherTargetProtocols`` or names a `WKApplicationDelegateAdaptor`
    /// or `WKExtensionDelegateAdaptor`. Beside an `@main` file, it makes its directory another target's.
    var isOtherTargetCode = false
    /// The SwiftUI views its `UIHostingController` subclasses host: `class C: UIHostingController<V>` gives `(C, V)`.
    var hostedViews: [(controller: String, view: String)] = []
    /// The `{` of each type's (or extension's) body: a `let` right inside one declares a property, not a local.
    var typeBodies: Set<Int> = []
    /// What each type or extension it declares inherits or conforms to, as written: `extension Inbox:
    /// DataSourceProvider` gives `(Inbox, [DataSourceProvider])`.
    var inheritances: [(type: String, inherited: [String])] = []
    /// The string literals holding one word (a nib's or a cell's name), with the index of the token after each.
    var words: [SourceLexer.StringWord] = []
}

extension ScreenDiscovery {
    /// The owner of preview code: `#Preview { … }` and `PreviewProvider` types.
    static let previewOwner = "#Preview"

    /// Protocols whose conformance makes a type the app's entry or delegate, without a module prefix.
    static let appProtocols: Set<String> = ["App", "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate"]
    /// Frameworks whose import, beside `@main`, makes a file the entry of a watchOS app. (An iPhone app imports
    /// `WidgetKit` to reload its widgets: a widget extension is known by its `Widget` or `WidgetBundle` instead.)
    static let otherTargetFrameworks: Set<String> = ["WatchKit", "ClockKit"]
    /// Protocols whose conformance, beside `@main`, makes a file the entry of a watchOS app or a widget extension.
    static let otherTargetProtocols: Set<String> = [
        "Widget", "WidgetBundle", "WKApplicationDelegate", "WKExtensionDelegate",
    ]
    /// SwiftUI protocols of the parts of a view: a type conforming to one is a component, never a screen.
    static let viewPartProtocols: Set<String> = ["ToolbarContent", "ViewModifier"]

    /// The language of a file, from its extension: nil for files that are not read.
    static func language(of fileName: String) -> SourceLexer.Language? {
        switch splitPath(fileName).fileExtension {
        case "swift": .swift
        case "h", "m": .objectiveC
        default: nil
        }
    }

    /// Reads one file; nil when it is not Swift or Objective-C.
    static func scan(path: String, text: String) -> ScannedFile? {
        guard let language = language(of: path) else { return nil }
        let (tokens, words) = SourceLexer.lex(text, language: language)
        var file = ScannedFile(
            path: path,
            isObjectiveC: language == .objectiveC,
            tokens: tokens,
            declarations: [],
            owners: [],
            closers: closers(of: tokens),
            extended: [],
            isAppEntry: false
        )
        file.words = words
        if language == .swift {
            scanSwift(&file)
        } else {
            scanObjectiveC(&file)
        }
        for (index, token) in tokens.enumerated() where token.isWord("UIApplicationMain") {
            // `@UIApplicationMain`, `UIApplicationMain(argc, argv, …)` in main.m or main.swift.
            if index > 0 && tokens[index - 1].is("@") || index + 1 < tokens.count && tokens[index + 1].is("(") {
                file.isAppEntry = true
            }
        }
        return file
    }

    /// Pairs the brackets of `tokens` in one pass: a closer of another kind closes the innermost opener too, so
    /// garbage cannot make the pairing quadratic.
    private static func closers(of tokens: [SourceToken]) -> [Int] {
        var closers = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (index, token) in tokens.enumerated() where !token.isIdentifier {
            if token.is("(") || token.is("[") || token.is("{") {
                closers[index] = tokens.count
                open.append(index)
            } else if token.is(")") || token.is("]") || token.is("}"), let opener = open.popLast() {
                closers[opener] = index
            }
        }
        return closers
    }

    // MARK: - Swift

    /// Words that cannot name a type: `guard let actor else {` declares nothing.
    private static let reservedWords: Set<String> = [
        "as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else", "enum", "extension",
        "fallthrough", "for", "func", "guard", "if", "import", "in", "init", "is", "let", "protocol", "repeat",
        "return", "self", "Self", "struct", "subscript", "switch", "throw", "throws", "try", "var", "where", "while",
    ]

    private static let swiftTypeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]

    /// A brace's scope: a type's body or any other block, and whose code is inside it.
    private struct Scope {
        /// The qualified name of the type (or extension) whose body it is; nil for other blocks.
        var typeName: String?
        /// The qualified name of the type whose code is inside it.
        var owner: String?
    }

    private static func scanSwift(_ file: inout ScannedFile) {
        let tokens = file.tokens
        var owners = [String?](repeating: nil, count: tokens.count)
        var scopes: [Scope] = []
        // `#if` branches are alternatives that may each open a brace (`class A: UIViewController {` for iOS,
        // `class A: NSViewController {` for macOS): each branch starts from the scopes open at `#if`, and the first
        // decides what is open after `#endif`.
        var conditionals: [(atIf: [Scope], afterFirstBranch: [Scope]?)] = []
        var isPreviewPending = false
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            owners[index] = scopes.last?.owner
            if token.is("{") {
                scopes.append(Scope(typeName: nil, owner: isPreviewPending ? previewOwner : scopes.last?.owner))
                isPreviewPending = false
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
                case "Preview":
                    isPreviewPending = true
                default:
                    break
                }
            } else if token.is("@"), index + 1 < tokens.count, tokens[index + 1].isWord("main") {
                file.isAppEntry = true
                file.hasMain = true
            } else if token.isWord("import"), scopes.isEmpty, index + 1 < tokens.count,
                otherTargetFrameworks.contains(tokens[index + 1].text)
            {
                file.isOtherTargetCode = true
            } else if token.isWord("WKApplicationDelegateAdaptor") || token.isWord("WKExtensionDelegateAdaptor") {
                file.isOtherTargetCode = true
            }
            guard token.isIdentifier, swiftTypeKeywords.contains(token.text),
                let header = swiftTypeHeader(tokens, at: index)
            else {
                index += 1
                continue
            }
            for headerIndex in index...header.body { owners[headerIndex] = scopes.last?.owner }
            // Only a type's body is pushed as a type, so the innermost scope tells whether all of them are.
            let enclosing: String? =
                switch scopes.last {
                case nil: ""
                case let scope?: scope.typeName
                }
            file.typeBodies.insert(header.body)
            guard let enclosing else {
                scopes.append(Scope(typeName: nil, owner: scopes.last?.owner))
                index = header.body + 1
                continue
            }
            let name = enclosing.isEmpty ? header.name : enclosing + "." + header.name
            let unqualified = header.inherited.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
            let isPreview = unqualified.contains("PreviewProvider")
            scopes.append(Scope(typeName: name, owner: isPreview ? previewOwner : name))
            if token.text == "extension" && enclosing.isEmpty { file.extended.append(name) }
            if !header.inherited.isEmpty { file.inheritances.append((name, header.inherited)) }
            if token.text != "extension" && enclosing.isEmpty { file.topLevelTypes.append(name) }
            if unqualified.contains(where: otherTargetProtocols.contains) { file.isOtherTargetCode = true }
            if token.text == "class", let hosted = hostedView(tokens, header: index...header.body) {
                file.hostedViews.append((name, hosted))
            }
            if token.text == "struct" || token.text == "class", unqualified.contains(where: appProtocols.contains) {
                file.isAppEntry = true
            }
            let isView = token.text == "struct" && header.inherited.contains { $0 == "View" || $0 == "SwiftUI.View" }
            let isPart = token.text == "struct" && !isView && unqualified.contains(where: viewPartProtocols.contains)
            if isView || isPart || (token.text == "class" && !header.inherited.isEmpty) {
                file.declarations.append(
                    Declaration(
                        name: name,
                        isSwiftUIView: isView,
                        isViewPart: isPart,
                        superclass: isView ? nil : header.inherited.first,
                        isObjectiveC: false,
                        file: file.path,
                        line: token.line,
                        order: file.declarations.count,
                        isGeneric: header.isGeneric
                    )
                )
            }
            index = header.body + 1
        }
        file.owners = owners
    }

    /// The view a class header inheriting `UIHostingController<V>` (also `SwiftUI.`-qualified), or another generic
    /// superclass given a type (`ThemedHostingController<V>`, a project's hosting controller), may host: `V`. The
    /// caller keeps it when the class is a view controller and `V` a SwiftUI view.
    private static func hostedView(_ tokens: [SourceToken], header: ClosedRange<Int>) -> String? {
        guard let colon = header.first(where: { tokens[$0].is(":") }) else { return nil }
        var index = colon + 1
        while index + 2 < header.upperBound, tokens[index].isIdentifier, tokens[index + 1].is(".") { index += 2 }
        guard index + 2 < header.upperBound, tokens[index].isIdentifier, tokens[index + 1].is("<"),
            tokens[index + 2].isIdentifier
        else { return nil }
        return tokens[index + 2].text
    }

    /// Reads `keyword Name<…>: A, B<…> where … {` from the keyword on: the name, the inherited types and where the
    /// body starts; nil when the tokens are not a type declaration (`class func`, `import class UIKit.X`).
    private static func swiftTypeHeader(
        _ tokens: [SourceToken],
        at start: Int
    ) -> (name: String, inherited: [String], body: Int, isGeneric: Bool)? {
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
        let isGeneric = index < tokens.endIndex && tokens[index].is("<")
        if isGeneric {
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
        return (name, inherited, index, isGeneric)
    }

    /// The index after the `>` matching the `<` at `start`, or nil when a brace or `;` comes first.
    static func skipAngles(_ tokens: ArraySlice<SourceToken>, from start: Int) -> Int? {
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

    /// Reads `@interface X : Super <Protocols>` declarations, categories and class extensions, and the code between
    /// `@implementation X` (or `@interface X`) and `@end`, which is X's.
    private static func scanObjectiveC(_ file: inout ScannedFile) {
        let tokens = file.tokens
        var owners = [String?](repeating: nil, count: tokens.count)
        var owner: String?
        for index in tokens.indices {
            owners[index] = owner
            guard tokens[index].is("@"), index + 1 < tokens.count else { continue }
            if tokens[index + 1].isWord("end") {
                owner = nil
                continue
            }
            let isInterface = tokens[index + 1].isWord("interface")
            guard isInterface || tokens[index + 1].isWord("implementation"), index + 2 < tokens.count,
                tokens[index + 2].isIdentifier
            else { continue }
            let name = tokens[index + 2].text
            owner = name
            var next = index + 3
            if next < tokens.count, tokens[next].is("(") {
                // A category or class extension: code of the class, declared elsewhere.
                file.extended.append(name)
                continue
            }
            file.topLevelTypes.append(name)
            guard isInterface else { continue }
            // Lightweight generics: `@interface Box<__covariant T> : UIViewController`.
            if next < tokens.count, tokens[next].is("<") {
                guard let end = skipAngles(tokens[...], from: next) else { continue }
                next = end
            }
            guard next + 1 < tokens.count, tokens[next].is(":"), tokens[next + 1].isIdentifier else { continue }
            var protocolIndex = next + 2
            if protocolIndex < tokens.count, tokens[protocolIndex].is("<") {
                while protocolIndex < tokens.count, !tokens[protocolIndex].is(">"), !tokens[protocolIndex].is("@") {
                    if appProtocols.contains(tokens[protocolIndex].text) { file.isAppEntry = true }
                    protocolIndex += 1
                }
            }
            file.declarations.append(
                Declaration(
                    name: name,
                    isSwiftUIView: false,
                    superclass: tokens[next + 1].text,
                    isObjectiveC: true,
                    file: file.path,
                    line: tokens[index].line,
                    order: file.declarations.count
                )
            )
        }
        file.owners = owners
    }
}
