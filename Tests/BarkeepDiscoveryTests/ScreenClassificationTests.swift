import BarkeepCore
import BarkeepDiscovery
import BarkeepTestSupport
import Foundation
import Testing

/// Telling screens from components, why, what each screen uses, and the app's own files.
@Suite("ScreenDiscovery classification")
struct ScreenClassificationTests {
    /// A screen as the tests write it: key, globs, reasons and the names of the components it uses.
    private struct Expected: Equatable, CustomStringConvertible {
        var key: String
        var globs: [String]
        var reasons: [String]
        var uses: [String]

        var description: String { "\(key) \(globs) \(reasons) \(uses)" }

        init(_ key: String, _ globs: [String], _ reasons: [String], uses: [String] = []) {
            (self.key, self.globs, self.reasons, self.uses) = (key, globs, reasons, uses)
        }

        init(_ screen: ProposedScreen) {
            self.init(screen.key, screen.globs, screen.reasons, uses: screen.uses.map(\.name))
        }
    }

    /// Each screen's and each component's globs, the way the store attributes findings (most specific first):
    /// the key of the screen, or `component:Name`, each of `paths` falls to.
    private func owners(of paths: [String], in result: DiscoveryResult) -> [String] {
        let owners = result.screens.map(\.key) + result.appFiles.map { _ in "app" }
        let globs =
            result.screens.enumerated().flatMap { index, screen in screen.globs.map { (Int64(index), $0) } }
            + result.appFiles.enumerated().map { (Int64(result.screens.count + $0.offset), $0.element) }
        let attribution = ScreenAttribution(globs)
        return paths.map { path in attribution.screen(for: path).map { owners[Int($0)] } ?? "unmapped" }
    }

    @Test("a SwiftUI app: the tabs, pushed and presented views are screens; rows, sections and buttons are not")
    func swiftUIApp() {
        let result = ScreenDiscovery.discover(in: ScreenClassificationFixtures.swiftUI)
        #expect(
            result.screens.map(Expected.init) == [
                Expected(
                    "ComposeView", ["App/Timeline/ComposeView.*", "App/Timeline/ComposeView+*.swift"],
                    ["sheet from TimelineView", "NavigationStack root in TimelineView"], uses: ["DSButton"]),
                Expected(
                    "InboxView", ["App/Inbox/InboxView.*", "App/Inbox/InboxView+*.swift"],
                    ["hosts NavigationView", "navigationBarTitle", "tab of MainTabView"],
                    uses: ["Avatar", "DSButton", "FilterChips", "InboxRow"]),
                Expected(
                    "MainTabView", ["App/MainTabView.*", "App/MainTabView+*.swift"],
                    ["hosts TabView", "scene root of DemoApp"], uses: ["TabLabel"]),
                Expected(
                    "PostDetailView", ["App/Timeline/PostDetailView.*", "App/Timeline/PostDetailView+*.swift"],
                    ["toolbar", "navigationDestination from TimelineView"],
                    uses: ["Avatar", "Carousel", "CarouselPage", "DSButton", "PostRow", "PostSection"]),
                Expected(
                    "SettingsView", ["App/Settings/SettingsView.*", "App/Settings/SettingsView+*.swift"],
                    ["navigationTitle", "tab of MainTabView"], uses: ["SettingsSection"]),
                Expected(
                    "ThreadView", ["App/Inbox/ThreadView.*", "App/Inbox/ThreadView+*.swift"],
                    ["navigationTitle", "NavigationLink from InboxView"], uses: ["MessageBubble"]),
                Expected(
                    "TimelineView", ["App/Timeline/TimelineView.*", "App/Timeline/TimelineView+*.swift"],
                    ["navigationTitle", "toolbar", "tab of MainTabView", "NavigationStack root in MainTabView"],
                    uses: ["Avatar", "DSButton", "PostRow"]),
            ])
        #expect(
            result.components.map { "\($0.name) \($0.file) \($0.usedBy)" } == [
                "Avatar DesignSystem/Avatar.swift [\"InboxView\", \"PostDetailView\", \"TimelineView\"]",
                "Carousel DesignSystem/Carousel.swift [\"PostDetailView\"]",
                "CarouselPage DesignSystem/Carousel.swift [\"PostDetailView\"]",
                "DSButton DesignSystem/DSButton.swift [\"ComposeView\", \"InboxView\", \"PostDetailView\", \"TimelineView\"]",
                "FilterChips DesignSystem/FilterChips.swift [\"InboxView\"]",
                "InboxRow App/Inbox/InboxRow.swift [\"InboxView\"]",
                "InboxWidgetView Widgets/InboxWidget.swift []",
                "MessageBubble App/Inbox/ThreadView.swift [\"ThreadView\"]",
                "PostRow App/Timeline/PostRow.swift [\"PostDetailView\", \"TimelineView\"]",
                "PostSection App/Timeline/PostSection.swift [\"PostDetailView\"]",
                "SettingsSection App/Settings/SettingsSection.swift [\"SettingsView\"]",
                "TabLabel DesignSystem/TabLabel.swift [\"MainTabView\"]",
            ])
        #expect(result.components.allSatisfy { !$0.isBaseClass })
        #expect(
            result.components.first { $0.name == "MessageBubble" }?.globs == [
                "App/Inbox/ThreadView.*", "App/Inbox/ThreadView+*.swift",
            ])
        #expect(
            result.screens.first { $0.key == "InboxView" }?.uses.first { $0.name == "FilterChips" }
                == ComponentUse(
                    name: "FilterChips", globs: ["DesignSystem/FilterChips.*", "DesignSystem/FilterChips+*.swift"]))
        #expect(
            result.appFiles == [
                "App/Demo.entitlements", "App/DemoApp.swift", "App/Info.plist", "Config/Base.xcconfig",
                "Demo.xcodeproj/project.pbxproj",
            ])
        #expect(
            owners(
                of: [
                    "App/Inbox/InboxView.swift", "App/Inbox/InboxView+Filters.swift", "App/Inbox/ThreadView.swift",
                    "App/MainTabView.swift", "App/DemoApp.swift", "DesignSystem/DSButton.swift",
                ],
                in: result
            ) == ["InboxView", "InboxView", "ThreadView", "MainTabView", "app", "unmapped"])
    }

    @Test("a UIKit app: controllers with bars or shown by others are screens; bases and children are not")
    func uiKitApp() {
        let result = ScreenDiscovery.discover(in: ScreenClassificationFixtures.uiKit)
        #expect(
            result.screens.map(Expected.init) == [
                Expected(
                    "AccountViewController",
                    ["Mail/Settings/AccountViewController.*", "Mail/Settings/AccountViewController+*.swift"],
                    ["tab of AppDelegate"], uses: ["SettingsCell"]),
                Expected(
                    "ComposeViewController",
                    ["Mail/Compose/ComposeViewController.*", "Mail/Compose/ComposeViewController+*"],
                    ["navigationItem", "presented from InboxViewController", "navigation root in InboxViewController"],
                    uses: ["AttachmentPickerViewController"]),
                Expected(
                    "ContactsViewController",
                    ["Mail/Contacts/ContactsViewController.*", "Mail/Contacts/ContactsViewController+*"],
                    ["title", "presented from ComposeViewController"]),
                Expected(
                    "InboxViewController",
                    [
                        "Mail/Inbox/InboxViewController.*", "Mail/Inbox/InboxViewController+*.swift",
                        "Mail/Search/InboxViewController+Search.swift",
                    ],
                    ["title", "navigationItem", "navigation root in AppDelegate", "tab of AppDelegate"],
                    uses: ["BaseViewController", "InboxHeaderViewController"]),
                Expected(
                    "MessageViewController",
                    ["Mail/Message/MessageViewController.*", "Mail/Message/MessageViewController+*.swift"],
                    ["navigationItem", "toolbarItems", "pushed from InboxViewController"],
                    uses: ["BaseViewController"]),
            ])
        #expect(
            result.components == [
                ProposedComponent(
                    name: "AttachmentPickerViewController", kind: .viewController,
                    file: "Mail/Compose/AttachmentPickerViewController.h",
                    globs: [
                        "Mail/Compose/AttachmentPickerViewController.*",
                        "Mail/Compose/AttachmentPickerViewController+*",
                    ],
                    usedBy: ["ComposeViewController"]),
                ProposedComponent(
                    name: "BaseViewController", kind: .viewController, file: "Mail/Base/BaseViewController.swift",
                    globs: ["Mail/Base/BaseViewController.*", "Mail/Base/BaseViewController+*.swift"],
                    usedBy: ["InboxViewController", "MessageViewController"], isBaseClass: true),
                ProposedComponent(
                    name: "InboxHeaderViewController", kind: .viewController,
                    file: "Mail/Inbox/InboxHeaderViewController.swift",
                    globs: ["Mail/Inbox/InboxHeaderViewController.*", "Mail/Inbox/InboxHeaderViewController+*.swift"],
                    usedBy: ["InboxViewController"]),
                ProposedComponent(
                    name: "OnboardingViewController", kind: .viewController,
                    file: "Mail/Onboarding/OnboardingViewController.swift",
                    globs: [
                        "Mail/Onboarding/OnboardingViewController.*",
                        "Mail/Onboarding/OnboardingViewController+*.swift",
                    ]
                ),
                ProposedComponent(
                    name: "SettingsCell", kind: .uiKitView, file: "Mail/Settings/SettingsCell.swift",
                    globs: ["Mail/Settings/SettingsCell.*", "Mail/Settings/SettingsCell+*.swift"],
                    usedBy: ["AccountViewController"]),
            ])
        #expect(
            result.appFiles == [
                "Mail.xcodeproj/project.pbxproj", "Mail/AppDelegate+Windows.swift", "Mail/AppDelegate.h",
                "Mail/AppDelegate.m", "Mail/Supporting/Info.plist", "Mail/main.m",
            ])
        #expect(
            owners(
                of: [
                    "Mail/Inbox/InboxViewController.swift", "Mail/Inbox/InboxViewController+Actions.swift",
                    "Mail/Search/InboxViewController+Search.swift", "Mail/Compose/ComposeViewController.h",
                    "Mail/Compose/ComposeViewController.m", "Mail/Contacts/ContactsViewController.m",
                    "Mail/AppDelegate.m", "Mail/Settings/SettingsCell.swift",
                ],
                in: result
            ) == [
                "InboxViewController", "InboxViewController", "InboxViewController", "ComposeViewController",
                "ComposeViewController", "ContactsViewController", "app", "unmapped",
            ])
    }

    @Test(
        "what makes a view a screen, one source at a time: the reasons of View B (A shows it) or A itself",
        arguments: [
            ("A().sheet(item: $item) { item in B(item: item) }", ["sheet from A"]),
            ("A().fullScreenCover(isPresented: $shown, content: { B() })", ["fullScreenCover from A"]),
            ("A().popover(isPresented: $shown) { B().padding() }", ["popover from A"]),
            ("A().sheet(isPresented: $shown) { VStack { B() } }", []),
            ("NavigationLink(\"Open\") { B() }", ["NavigationLink from A"]),
            ("NavigationLink { B() } label: { Text(\"Open\") }", ["NavigationLink from A"]),
            ("NavigationLink(destination: B()) { Text(\"Open\") }", ["NavigationLink from A"]),
            ("NavigationLink(value: 1) { B() }", []),
            (
                "A().navigationDestination(isPresented: $shown) { if flag { B() } else { EmptyView() } }",
                [
                    "navigationDestination from A"
                ]
            ),
            ("NavigationSplitView { Sidebar() } detail: { B() }", ["NavigationSplitView column in A"]),
            ("TabView { B().tabItem { Text(\"B\") } }", ["tab of A"]),
            ("TabView { B() }.tabViewStyle(.page)", []),
            ("TabView { Text(\"\").tabItem { B() } }", []),
            ("HStack { B(); Text(\"b\") }", []),
            ("NavigationStack { switch route { case .b: B() default: EmptyView() } }", ["NavigationStack root in A"]),
            ("A().sheet(isPresented: $shown) { #if os(iOS)\n B()\n #endif }", ["sheet from A"]),
            ("// NavigationLink(destination: B())\nText(\"NavigationLink(destination: B())\")", []),
        ])
    func swiftUIRules(body: String, reasons: [String]) {
        let source = """
            struct A: View { var body: some View { \(body) } }
            struct Sidebar: View { var body: some View { Text("") } }
            """
        let result = ScreenDiscovery.discover(
            in: [("A.swift", source), ("B.swift", "struct B: View { var body: some View { Text(\"\") } }")])
        let screen = result.screens.first { $0.types.contains("B") }
        #expect((screen?.types.contains("B") ?? false) == !reasons.isEmpty)
        #expect(reasonsOfB(screen) == reasons)
    }

    /// The reasons of the type `B` in `screen`: those starting with `B: `, or all when `B` is its only type.
    private func reasonsOfB(_ screen: ProposedScreen?) -> [String] {
        guard let screen, screen.types.contains("B") else { return [] }
        guard screen.types.count > 1 else { return screen.reasons }
        return screen.reasons.filter { $0.hasPrefix("B: ") }.map { String($0.dropFirst(3)) }
    }

    @Test(
        "UIKit: bars of its own, or shown by the code of another type",
        arguments: [
            ("override func viewDidLoad() { self.title = \"B\" }", "", ["title"]),
            ("override func viewDidLoad() { let title = \"B\"; label.title = title }", "", []),
            ("override func viewDidLoad() { setToolbarItems([], animated: false) }", "", ["toolbarItems"]),
            ("", "func go() { show(B(), sender: nil) }", ["shown from A"]),
            (
                "",
                "func go() { let b = B()\n b.load()\n navigationController?.pushViewController(b, animated: true) }",
                [
                    "pushed from A"
                ]
            ),
            (
                "",
                "func go() { let b = storyboard?.instantiateViewController(withIdentifier: \"b\") as! B\n present(b, animated: true) }",
                [
                    "presented from A"
                ]
            ),
            (
                "",
                "func go() { let nav = UINavigationController(rootViewController: B())\n splitViewController?.showDetailViewController(nav, sender: nil) }",
                [
                    "navigation root in A", "shown from A",
                ]
            ),
            ("", "func go() { view.window?.rootViewController = B() }", ["rootViewController in A"]),
            ("", "func go() { navigationController?.setViewControllers([B()], animated: false) }", ["root of A"]),
            ("", "func go() { addChild(B()) }", []),
        ])
    func uiKitRules(code: String, codeOfA: String, reasons: [String]) {
        let source = """
            final class A: UIViewController { \(codeOfA) }
            final class B: UIViewController { \(code) }
            """
        let result = ScreenDiscovery.discover(in: [("B.swift", source)])
        let screen = result.screens.first
        #expect((screen?.types.contains("B") ?? false) == !reasons.isEmpty)
        #expect(reasonsOfB(screen) == reasons)
    }

    @Test("a SwiftUI view storing a title it was given is not a screen for it (a controller setting its own is)")
    func swiftUITitleIsData() {
        let source = """
            struct ErrorView: View {
                let title: String
                init(title: String) { self.title = title }
                var body: some View { Text(title) }
            }
            """
        #expect(ScreenDiscovery.discover(in: [("ErrorView.swift", source)]).screens.isEmpty)
    }

    @Test("a toolbar's content and a view modifier are components of the screens using them, whatever bars they hold")
    func viewParts() {
        let files = [
            (
                "Inbox/InboxView.swift",
                "struct InboxView: View { var body: some View { List {}.toolbar { InboxToolbar() }.modifier(Card()) } }"
            ),
            (
                "Inbox/InboxToolbar.swift",
                "struct InboxToolbar: ToolbarContent { var body: some ToolbarContent { ToolbarItem { Text(\"a\") } } }"
            ),
            (
                "Style/Card.swift",
                "struct Card: ViewModifier { func body(content: Content) -> some View { content.navigationTitle(\"x\") } }"
            ),
        ]
        let result = ScreenDiscovery.discover(in: files)
        #expect(result.screens.map(\.key) == ["InboxView"])
        #expect(result.screens.first?.uses.map(\.name) == ["Card", "InboxToolbar"])
        #expect(
            result.components.map { "\($0.name) \($0.usedBy)" } == [
                "Card [\"InboxView\"]", "InboxToolbar [\"InboxView\"]",
            ])
    }

    @Test("--root and --exclude on disk: paths relative to the root, excluded files and directories left out")
    func rootAndExclusions() throws {
        let root = try TemporaryDirectory.make(prefix: "discover-root")
        for (path, text) in ScreenClassificationFixtures.swiftUI {
            let url = URL(fileURLWithPath: root + "/repo/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let repository = root + "/repo"
        let inApp = try ScreenDiscovery.discover(
            sourceDirectory: repository + "/App", root: repository + "/", excluding: ["App/Settings", "**/*Widget*"])
        #expect(
            inApp.screens.first { $0.key == "InboxView" }?.globs == [
                "App/Inbox/InboxView.*", "App/Inbox/InboxView+*.swift",
            ])
        // SettingsView is excluded and DesignSystem is outside App: MainTabView's tab and TabLabel are gone.
        #expect(!inApp.screens.contains { $0.key == "SettingsView" })
        #expect(inApp.components.map(\.name) == ["InboxRow", "MessageBubble", "PostRow", "PostSection"])
        #expect(inApp.appFiles == ["App/Demo.entitlements", "App/DemoApp.swift", "App/Info.plist"])

        let whole = try ScreenDiscovery.discover(sourceDirectory: repository, excluding: ["Widgets/**"])
        #expect(whole.screens.count == 7)
        #expect(!whole.components.contains { $0.name == "InboxWidgetView" })
        #expect(whole == ScreenDiscovery.discover(in: ScreenClassificationFixtures.swiftUI, excluding: ["Widgets/**"]))

        #expect(throws: CoreError.sourceOutsideRoot(source: repository, root: repository + "/App")) {
            try ScreenDiscovery.discover(sourceDirectory: repository, root: repository + "/App")
        }
        #expect(throws: CoreError.unreadableDirectory(path: root + "/missing", reason: "no such directory")) {
            try ScreenDiscovery.discover(sourceDirectory: repository, root: root + "/missing")
        }
        #expect(
            CoreError.sourceOutsideRoot(source: "a", root: "b").description
                == "the source directory a is not inside the root b")
    }
}
