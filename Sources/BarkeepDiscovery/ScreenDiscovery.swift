import BarkeepCore

/// A type that draws a screen or a part of one, where it is declared: a SwiftUI view or a UIKit view controller.
public struct ViewType: Sendable, Equatable {
    /// SwiftUI view or UIKit view controller.
    public enum Kind: Sendable, Equatable {
        /// A struct conforming to SwiftUI's `View`.
        case swiftUIView
        /// A class deriving from a UIKit view controller, directly or through the project's own classes.
        case viewController
        /// A struct conforming to SwiftUI's `ToolbarContent` or `ViewModifier`: a part of the views that use it
        /// (a toolbar's items, say), always a component, never a screen.
        case swiftUIPart
        /// A class deriving from a UIKit view (`UIView`, a cell, a control), directly or through other classes:
        /// always a component, used by the view types whose code names it.
        case uiKitView
    }

    /// The type's name, qualified by the types it is nested in (`Outer.Row`).
    public var name: String
    /// SwiftUI view or view controller.
    public var kind: Kind
    /// The declaring file, relative to the scanned root, with `/` separators.
    public var file: String
    /// The 1-based line of the declaring keyword (`struct`, `class`, `@interface`).
    public var line: Int
    /// A class's superclass as written, without generic arguments (`UIKit.UIViewController`,
    /// `BaseViewController`); nil for a SwiftUI view.
    public var superclass: String?
    /// Whether it declares generic parameters (`class Host<Content: View>: UIHostingController<Content>`): a
    /// controller that does hosts whatever it is given, a screen only with bars of its own.
    public var isGeneric: Bool

    /// Creates a view type.
    public init(
        name: String, kind: Kind, file: String, line: Int, superclass: String? = nil, isGeneric: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.file = file
        self.line = line
        self.superclass = superclass
        self.isGeneric = isGeneric
    }
}

/// Finds the view types of an iOS app's sources, tells its screens from its components, and proposes a screen for
/// each group of files holding screens.
///
/// The sources are read, not compiled: a small lexer drops comments (`//`, `/* */`, nested in Swift), string
/// literals (multi-line, raw, with their interpolations), Objective-C character literals and preprocessor lines,
/// and Swift's `#/…/#` regex literals; declarations are then recognised by their tokens, braces tracked so that
/// nested types get qualified names (`Outer.Row`, also through `extension Outer { … }`).
///
/// **View types.**
/// - In `.swift` files a SwiftUI view is a `struct` with `View` or `SwiftUI.View` anywhere in its inheritance
///   list; a view controller is a `class` whose superclass (the first item of the list) is one of
///   ``uiKitControllers`` (also `UIKit.`-qualified), a view controller of the project, or another framework's class
///   named like one (``controllerNameSuffixes``: `TabmanViewController`, `UIHostingController`); a UIKit view one
///   whose superclass is one of ``uiKitViews``, a UIKit view of the project or another framework's class named like
///   one (``viewNameSuffixes``). AppKit's (`NS…`) are neither. Attributes, modifiers, generic parameters and
///   `where` clauses may be present. Types declared inside functions, closures or property bodies are local, not
///   screens, and are left out.
/// - In `.h` and `.m` files a view controller is an `@interface X : Super` with the same superclasses;
///   categories and class extensions (`@interface X ()`, `@interface X (Cat)`) are not declarations.
///   Objective-C has one class namespace, so an `@interface` of one name counts once: the one in a header wins,
///   else the first by path and line.
/// - Project base classes count across files and languages, transitively: `class Base: UIViewController` in one
///   file, `@interface Inbox : Base` in another. A superclass name is looked up as Swift would, from the innermost
///   enclosing type outwards, then without a module prefix (`AppKit.Base` finds `Base`). A view controller that
///   another discovered one derives from is a base class: never a screen, listed among the components.
///
/// **Screens.** A view type is a screen when its own code declares bars, or when code shows it as a screen. A
/// type's code is the body of its declaration and of its extensions (Objective-C: `@implementation X`), without
/// the bodies of the types nested in it; preview code (`#Preview`, `PreviewProvider` types) counts for nothing.
/// The reasons, as they are reported:
/// - its own bars: the modifiers in ``barModifiers`` (`toolbar`, `navigationTitle`, `searchable`, …), a
///   `ToolbarItem` or `ToolbarItemGroup` (`toolbar`), hosting a container of ``barContainers``
///   (`hosts NavigationStack`, `hosts TabView`); in UIKit, `navigationItem`, `tabBarItem`, `toolbarItems`
///   (also `setToolbarItems`), and `title`, set as `title = …`, `self.title = …` or `[self setTitle:…]`;
/// - shown by SwiftUI code `C` (a type's name, or the file's name for code outside types): the view presented by
///   `.sheet`, `.fullScreenCover` or `.popover` (`sheet from C`), by `.navigationDestination`
///   (`navigationDestination from C`), by `NavigationLink(destination: X())` or `NavigationLink { X() } label:`
///   (`NavigationLink from C`; a `NavigationLink(value:)` shows nothing itself), the direct children of a
///   `TabView` (`tab of C`), of a `NavigationStack` or `NavigationView` (`NavigationStack root in C`), of each
///   column of a `NavigationSplitView` (`NavigationSplitView column in C`) and of a `WindowGroup`
///   (`scene root of C`). A direct child is a view created at the top of the content (`X()`, `X { … }`,
///   `X.init(…)`), also inside `if`, `else`, `switch` and the wrappers `NavigationStack`, `NavigationView`, `Group`
///   and `Tab`; views inside other views, their arguments, labels and `.tabItem` are not. A `TabView` given
///   `.tabViewStyle(.page)` in the same code is a pager: neither it nor its pages are reasons;
/// - shown by UIKit code `C`: the view types named (by name, `X(`, `[X alloc]`, `as! X`, or through a variable
///   bound to them in the same code: `let vc = X()`, `X *vc = …`) in the first argument of `pushViewController`
///   (`pushed from C`), `present`/`presentViewController` (`presented from C`), `show`, `showViewController` and
///   `showDetailViewController` (`shown from C`), in the `rootViewController:` of a `UINavigationController` or
///   `initWithRootViewController:` (`navigation root in C`), in what is assigned to `rootViewController`
///   (`rootViewController in C`), and in what is assigned to `viewControllers` or passed to `setViewControllers`
///   (`tab of C` in a `UITabBarController` subclass or on a receiver named like `tab…`, else `root of C`);
/// - hosted by a project class `C: UIHostingController<X>` that is no screen itself (`hosted by C`); one that is
///   (shown, or with bars of its own) is the screen, and `X` its component;
/// - made by code `C` outside every view type — a coordinator, router, factory, delegate, view model or free
///   function (`C` is the file's name) — that creates the controller: `X(…)`, `X.init`, `[X alloc]`, `[X new]`,
///   or, assigned or returned, what a class method of it gives (`let vc = X.instantiate(…)`, `return [X
///   controller]`; not `[X class]`) (`made by C`). The code of a view type, of an extension of a
///   UIKit type or protocol (`extension UITableViewDelegate`) and `makeUIViewController` are not such code. A
///   making is no reason when a view type creates the controller too (it is that view's part), when `C` shows it
///   already (`pushed from C`), or when it is embedded: the first argument of a call named like `addChild`
///   (`addChild(x)`, `[self addChildViewController:x]`, a helper `vc_addChildViewController`) or a context menu's
///   preview (`UIContextMenuConfiguration(…)`'s `previewProvider:` or first trailing closure) names the
///   controller, the member making it (`x.makeChart()`, `coordinator.chartController`) or, for one made in an
///   initializer or a stored property's value, its maker (`SpacesCoordinator(…)`) — directly or through the
///   variables of the embedding code (`let chart = Factory.makeChart(); addChild(chart)`). A view type embedding
///   it uses it.
///
/// SwiftUI content naming a member that returns views (`NavigationLink(destination: item.destination)`) presents
/// the direct children of that member's body (`var destination: some View { switch self { case .a: A() } }`,
/// also `AnyView` and `func … -> some View`): a member of another value (`item.destination`) is looked up in every
/// type, a bare name (`content`, `self.content`) in the code's own type. Subclasses of `UINavigationController` are
/// containers, and controllers setting their own `modalPresentationStyle` to `.overFullScreen` or
/// `.overCurrentContext` overlays (screens only with bars of their own): both are components otherwise.
///
/// UIKit code names a controller directly or through a variable its code reads there (``Bindings``): a local in a
/// block holding it, unless a parameter of a block in between hides it, else a property of the type; an argument's
/// label names none, and a variable whose property is read (`present(x.picker)`) is not shown itself.
///
/// **Components.** Every other view type is a component, and every UIKit view. A screen uses the components its code
/// creates (`Row(`, `Row { … }`, `Row.init`, `[Row alloc]`, `[Row new]`), the controllers it embeds that code
/// outside view types makes (above), the base classes it derives from, the UIKit views its code names (registered,
/// dequeued, declared, a nib's name) or that the types of the project it names name
/// (``referenceUses(_:viewTypes:targets:)``), and, transitively, those of these components; screens it creates are
/// not uses. A component no screen uses is still listed, with no user. The components of one group share one key,
/// their group's main type's (``componentKeys(of:screenGroups:groups:mainTypes:)``).
///
/// **Main types.** A group belongs to its main type (``mainTypes(of:)``): screens declared in a group whose main
/// type is not a screen are not proposed but listed apart (``DiscoveryResult/embeddedScreens``).
///
/// **Left out.** Test, preview and gallery directories and the directories of watchOS apps and widget extensions
/// are not read (``leftOutDirectories(paths:files:)``), and are counted in ``DiscoveryResult/leftOut``, with the
/// paths an `--exclude` glob matches.
///
/// **Groups and globs.** The files of one directory sharing a name up to a `+` (`Inbox.swift`, `Inbox.h`,
/// `Inbox.m`, `Inbox+Actions.swift`) are one group; its globs are `Dir/Name.*` and `Dir/Name+*.swift`
/// (`Dir/Name+*` when the group has Objective-C files, for its categories), then the path of each file elsewhere
/// that extends its types (`extension Inbox`, `@interface Inbox (Refresh)`, `@implementation Inbox (Refresh)`) and
/// declares no view type, when it extends no other group's. A group holding a screen is proposed; its key follows
/// ``proposalKeys(_:)``. Groups with a glob over 1,024 bytes are left out.
///
/// **App files.** The files of the whole app are listed apart: sources with `@main`, `@UIApplicationMain` or a
/// `UIApplicationMain(` call, declaring a type conforming to ``appProtocols``, or named `…AppDelegate` or
/// `…SceneDelegate` (with an Objective-C delegate's header and implementation), and `Info.plist`, `*-Info.plist`,
/// `*.xcodeproj/project.pbxproj`, `*.xcconfig` and `*.entitlements` files.
///
/// `#if` branches are read as alternatives: each starts from the braces open at `#if`, and the first decides what
/// is open after `#endif`, so `class A: UIViewController {` for iOS beside `class A: NSViewController {` for macOS
/// keeps the nesting right.
///
/// Not recognised: conformance to `View` added by an extension or through a protocol of the project, other
/// frameworks' controllers and views not named like one, controllers shown by storyboard segues or made from a storyboard
/// (`instantiateViewController(…) as! X`) outside view types, SwiftUI views that such code hosts
/// (`UIHostingController(rootView: X())`), embeddings through a parameter or a protocol (a controller a factory
/// makes and a view controller embeds through `func add(_ child: UIViewController)` is taken for a screen), tabs
/// made by `ForEach`, and bare `/…/` regex literals that hold quotes or braces.
public enum ScreenDiscovery {
    /// The UIKit classes whose subclasses are view controllers (with ``otherUIKitControllers``).
    public static let uiKitControllers: Set<String> = [
        "UIViewController", "UITableViewController", "UICollectionViewController", "UINavigationController",
        "UITabBarController", "UISplitViewController",
    ]

    // MARK: - Finding view types

    /// The view types declared in `files` (paths relative to the scanned root, `/` separators), by file then line.
    ///
    /// Only `.swift`, `.h` and `.m` files are read; the others are ignored.
    public static func findViewTypes(in files: [(path: String, text: String)]) -> [ViewType] {
        resolve(files.compactMap { scan(path: $0.path, text: $0.text) }.flatMap(\.declarations))
    }
    // MARK: - Discovering screens

    /// The screens, components and app files of `files` (paths relative to the scanner root, `/` separators;
    /// the text of files other than `.swift`, `.h` and `.m` is not read), those matching a glob of `excluded`, or
    /// in a directory that does, left out.
    public static func discover(
        in files: [(path: String, text: String)],
        excluding excluded: [String] = []
    ) -> DiscoveryResult {
        let globs = excluded.map(PathGlob.init)
        var texts: [String: String] = [:]
        var matched: [String: Int] = [:]
        for file in files {
            if let path = excludedPath(file.path, by: globs) {
                matched[path, default: 0] += 1
            } else {
                texts[file.path] = file.text
            }
        }
        var result = discover(paths: Array(texts.keys)) { texts[$0] }
        result.leftOut =
            (result.leftOut + matched.map { LeftOutDirectory(directory: $0, reason: .excluded, files: $1) })
            .sorted { $0.directory < $1.directory }
        return result
    }

    /// Discovery over `paths`, reading each source through `text`: declarations first, then, knowing every view
    /// type, what each file's code says about them. Files are lexed twice rather than kept in memory.
    static func discover(paths unsorted: [String], text: (String) -> String?) -> DiscoveryResult {
        var paths = unsorted.sorted()
        var files: [ScannedFile] = []
        for path in paths where language(of: path) != nil {
            guard var file = text(path).flatMap({ scan(path: path, text: $0) }) else { continue }
            (file.tokens, file.owners, file.closers) = ([], [], [])
            files.append(file)
        }
        let leftOut = leftOutDirectories(paths: paths, files: files)
        let leftOutSet = Set(leftOut.map(\.directory))
        func isLeftOut(_ path: String) -> Bool { directoryPrefixes(of: path).contains(where: leftOutSet.contains) }
        paths.removeAll(where: isLeftOut)
        files.removeAll { isLeftOut($0.path) }
        let types = resolve(files.flatMap(\.declarations))
        let controllers = types.filter { $0.kind == .viewController }
        let names = ViewTypeNames(
            names: Set(types.map(\.name)),
            controllers: Set(controllers.map(\.name)),
            tabBarControllers: Set(
                controllers.filter { derives($0, from: "UITabBarController", among: controllers) }.map(\.name)),
            uiKitViews: Set(types.filter { $0.kind == .uiKitView }.map(\.name)),
            projectTypes: Set(files.flatMap(\.topLevelTypes))
        )
        var evidence = Evidence()
        for path in files.map(\.path) {
            guard let file = text(path).flatMap({ scan(path: path, text: $0) }) else { continue }
            gatherEvidence(in: file, names: names, into: &evidence)
            gatherFileReferences(in: file, names: names, into: &evidence)
        }
        evidence.resolvePresentedMembers()
        evidence.resolveMakings(names: names)
        for file in files {
            for hosted in file.hostedViews
            where names.contains(hosted.view) && names.controllers.contains(hosted.controller)
                && !names.controllers.contains(hosted.view) && !names.uiKitViews.contains(hosted.view)
            {
                evidence.reasons.append(
                    Evidence.Reason(type: hosted.view, text: "hosted by \(hosted.controller)", isOwn: false))
                evidence.hosts[hosted.controller] = hosted.view
            }
        }
        var result = assemble(types: types, files: files, evidence: evidence, paths: paths)
        result.leftOut = leftOut
        return result
    }

    /// The directories of `path`, outermost first (`A`, `A/B` for `A/B/c.swift`).
    static func directoryPrefixes(of path: String) -> [String] {
        var prefixes: [String] = []
        var prefix = ""
        for component in path.split(separator: "/").dropLast() {
            prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
            prefixes.append(prefix)
        }
        return prefixes
    }

    /// The names of directories holding previews and galleries of views (any case), whose files are left out.
    public static let previewDirectoryNames: Set<String> = ["preview content", "previews", "gallery", "demo", "demos"]

    /// The directories whose files are not the iPhone app's, outermost ones only, by path: test directories (named
    /// `Tests` or `…Tests`), preview and gallery directories (``previewDirectoryNames``) and the directories of other targets (holding an `@main` file and watchOS or widget
    /// code side by side: see ``ScannedFile/isOtherTargetCode``).
    static func leftOutDirectories(paths: [String], files: [ScannedFile]) -> [LeftOutDirectory] {
        var hasMain: Set<String> = []
        var hasOtherCode: Set<String> = []
        for file in files {
            let directory = splitPath(file.path).directory
            if file.hasMain { hasMain.insert(directory) }
            if file.isOtherTargetCode { hasOtherCode.insert(directory) }
        }
        let targets = hasMain.intersection(hasOtherCode)
        var found: [String: LeftOutDirectory] = [:]
        for path in paths {
            for directory in directoryPrefixes(of: path) {
                let name = directory.split(separator: "/").last.map(String.init) ?? directory
                let reason: LeftOutDirectory.Reason? =
                    name.hasSuffix("Tests")
                    ? .tests
                    : previewDirectoryNames.contains(name.lowercased())
                        ? .previews : targets.contains(directory) ? .otherTarget : nil
                guard let reason else { continue }
                found[directory, default: LeftOutDirectory(directory: directory, reason: reason, files: 0)].files += 1
                break
            }
        }
        return found.values.sorted { $0.directory < $1.directory }
    }

    /// Whether `controller`'s superclasses, followed through the project's controllers, reach the UIKit class
    /// `uiKitClass` (`UITabBarController`).
    static func derives(_ controller: ViewType, from uiKitClass: String, among controllers: [ViewType]) -> Bool {
        let byName = Dictionary(controllers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var current = controller
        for _ in 0..<32 {
            guard let superclass = current.superclass else { return false }
            if superclass.split(separator: ".").last.map(String.init) == uiKitClass { return true }
            guard let base = resolveClass(superclass, from: current.name, in: Set(byName.keys)), let next = byName[base]
            else { return false }
            current = next
        }
        return false
    }
    /// Whether `path` or one of its directories matches one of `globs`.
    static func isExcluded(_ path: String, by globs: [PathGlob]) -> Bool {
        excludedPath(path, by: globs) != nil
    }

    /// The outermost of `path` and its directories that one of `globs` matches, or nil.
    static func excludedPath(_ path: String, by globs: [PathGlob]) -> String? {
        guard !globs.isEmpty else { return nil }
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
            if globs.contains(where: { $0.matches(prefix) }) { return prefix }
        }
        return nil
    }

    // MARK: - Declarations

    /// Marks the view controllers and UIKit views among the classes and returns them with the SwiftUI views, by file
    /// then line.
    static func resolve(_ declarations: [Declaration]) -> [ViewType] {
        // One Objective-C class per name: a header's declaration first, then by path and line.
        func rank(_ declaration: Declaration) -> Int {
            declaration.isObjectiveC && splitPath(declaration.file).fileExtension == "h" ? 0 : 1
        }
        var objectiveCNames: Set<String> = []
        let classes = declarations.filter { !$0.isSwiftUIView && !$0.isViewPart }
            .sorted { (rank($0), $0.file, $0.line, $0.order) < (rank($1), $1.file, $1.line, $1.order) }
            .filter { !$0.isObjectiveC || objectiveCNames.insert($0.name).inserted }

        // A class is a controller or a UIKit view by its superclass: a UIKit class, else the project's class of
        // that name (followed), else a class of another framework named like one (`TabmanViewController`).
        let names = Set(classes.map(\.name))
        var subclasses: [String: [Int]] = [:]
        var kinds = [ViewType.Kind?](repeating: nil, count: classes.count)
        var pending: [Int] = []
        for (index, declaration) in classes.enumerated() {
            guard let superclass = declaration.superclass else { continue }
            if let kind = uiKitBaseKind(superclass) {
                kinds[index] = kind
                pending.append(index)
            } else if let base = resolveClass(superclass, from: declaration.name, in: names) {
                subclasses[base, default: []].append(index)
            } else if let kind = namedBaseKind(superclass) {
                kinds[index] = kind
                pending.append(index)
            }
        }
        var expanded: Set<String> = []
        while let index = pending.popLast() {
            guard expanded.insert(classes[index].name).inserted else { continue }
            for subclass in subclasses[classes[index].name] ?? [] where kinds[subclass] == nil {
                kinds[subclass] = kinds[index]
                pending.append(subclass)
            }
        }

        let found =
            declarations.filter { $0.isSwiftUIView || $0.isViewPart }.map { ($0, ViewType.Kind?.none) }
            + classes.indices.compactMap { index in kinds[index].map { (classes[index], $0) } }
        return found.sorted { ($0.0.file, $0.0.line, $0.0.order) < ($1.0.file, $1.0.line, $1.0.order) }.map {
            declaration, kind in
            ViewType(
                name: declaration.name,
                kind: kind ?? (declaration.isViewPart ? .swiftUIPart : .swiftUIView),
                file: declaration.file,
                line: declaration.line,
                superclass: declaration.superclass,
                isGeneric: declaration.isGeneric
            )
        }
    }

    /// The UIKit classes whose subclasses are UIKit views (components, never screens).
    public static let uiKitViews: Set<String> = [
        "UIView", "UITableViewCell", "UICollectionViewCell", "UICollectionViewListCell", "UICollectionReusableView",
        "UITableViewHeaderFooterView", "UIControl", "UIButton", "UILabel", "UIImageView", "UIStackView",
        "UIScrollView", "UITableView", "UICollectionView", "UITextView", "UITextField", "UISwitch", "UISlider",
        "UIStepper", "UISegmentedControl", "UIPageControl", "UIActivityIndicatorView", "UIProgressView",
        "UIDatePicker", "UIPickerView", "UISearchBar", "UIToolbar", "UINavigationBar", "UITabBar",
        "UIVisualEffectView", "UIInputView", "UIRefreshControl", "WKWebView", "MKMapView", "MKAnnotationView",
        "MKMarkerAnnotationView",
    ]

    /// UIKit's other view controllers that may be screens: with ``uiKitControllers`` and the names ending in
    /// ``controllerNameSuffixes``, the superclasses that make a class a view controller. (An alert, a search
    /// controller or an image picker is no screen of the app's, and no container of one.)
    static let otherUIKitControllers: Set<String> = ["UIPageViewController", "UIReferenceLibraryViewController"]

    /// How the name of another framework's class ends when it is a view controller (`TabmanViewController`,
    /// `UIHostingController`, `ASDKNavigationController`).
    public static let controllerNameSuffixes = [
        "ViewController", "TabBarController", "NavigationController", "HostingController",
    ]

    /// How the name of another framework's class ends when it is a UIKit view (`FLAnimatedImageView`,
    /// `SwipeTableViewCell`, `ActiveLabel`).
    public static let viewNameSuffixes = ["View", "Cell", "Button", "Label", "Control"]

    /// The kind a UIKit superclass gives its subclasses (`UIViewController`, also `UIKit.`- or `SwiftUI.`-
    /// qualified): nil when it is not one of UIKit's controllers or views.
    static func uiKitBaseKind(_ name: String) -> ViewType.Kind? {
        let components = name.split(separator: ".")
        guard components.count == 1 || (components.count == 2 && ["UIKit", "SwiftUI"].contains(components[0])),
            let last = components.last.map(String.init)
        else { return nil }
        if uiKitControllers.contains(last) || otherUIKitControllers.contains(last) { return .viewController }
        return uiKitViews.contains(last) ? .uiKitView : nil
    }

    /// The kind the name of a class the project does not declare gives its subclasses: a controller when it ends
    /// like one (``controllerNameSuffixes``), a UIKit view when it ends like one (``viewNameSuffixes``), else nil;
    /// nil for AppKit's classes (`NS…`) too.
    static func namedBaseKind(_ name: String) -> ViewType.Kind? {
        let last = name.split(separator: ".").last.map(String.init) ?? name
        if let kind = uiKitBaseKind(last) { return kind }
        // AppKit's (`NSViewController`, `NSHostingController`, `NSView`): a macOS target's, not the iPhone app's.
        let scalars = Array(last.unicodeScalars.prefix(3))
        if scalars.count == 3 && scalars[0] == "N" && scalars[1] == "S" && ("A"..."Z").contains(scalars[2]) {
            return nil
        }
        if controllerNameSuffixes.contains(where: { last.hasSuffix($0) && last != $0 }) { return .viewController }
        return viewNameSuffixes.contains(where: { last.hasSuffix($0) && last != $0 }) ? .uiKitView : nil
    }

    /// The project class `superclass` names when written in the declaration of `subclass`: looked up from the
    /// innermost enclosing type outwards, then without a module prefix.
    static func resolveClass(_ superclass: String, from subclass: String, in names: Set<String>) -> String? {
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
    /// A path's directory, its file name without extension, and its extension in lower case.
    static func splitPath(_ path: String) -> (directory: String, stem: String, fileExtension: String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (directory, name, "") }
        return (directory, String(name[..<dot]), String(name[name.index(after: dot)...]).lowercased())
    }
}
