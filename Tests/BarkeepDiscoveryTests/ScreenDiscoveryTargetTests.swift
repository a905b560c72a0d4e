import BarkeepDiscovery
import Testing

/// Discovery rules found on real apps: other targets left out, members returning destinations, hosting
/// controllers, and the file a screen may own.
@Suite("ScreenDiscovery targets and ownership")
struct ScreenDiscoveryTargetTests {
    @Test("test, preview and gallery directories, watchOS apps and widget extensions are left out, with counts")
    func leftOut() {
        let files: [(path: String, text: String)] = [
            (
                "App/DemoApp.swift",
                """
                import SwiftUI
                import WidgetKit
                @main struct DemoApp: App { var body: some Scene { WindowGroup { InboxView() } } }
                """
            ),
            ("App/InboxView.swift", "struct InboxView: View { var body: some View { Text(\"\").toolbar {} } }"),
            ("App/Info.plist", ""),
            (
                "Watch/WatchMain.swift",
                """
                import SwiftUI
                @main struct WatchMain: App {
                    @WKApplicationDelegateAdaptor(Delegate.self) var delegate
                    var body: some Scene { WindowGroup { WatchHome() } }
                }
                """
            ),
            ("Watch/Home/WatchHome.swift", "struct WatchHome: View { var body: some View { Text(\"\").toolbar {} } }"),
            (
                "Extensions/Widgets/Bundle.swift",
                "@main struct Bundle: WidgetBundle { var body: some Widget { InboxWidget() } }"
            ),
            (
                "Extensions/Widgets/EntryView.swift",
                "struct EntryView: View { var body: some View { Text(\"\").navigationTitle(\"\") } }"
            ),
            (
                "Design/Gallery/SheetDemo.swift",
                "struct SheetDemo: View { var body: some View { Text(\"\").sheet(isPresented: $shown) { BottomSheet() } } }"
            ),
            ("Design/BottomSheet.swift", "struct BottomSheet: View { var body: some View { Text(\"\") } }"),
            ("AppTests/Info.plist", ""),
            ("AppTests/FakeView.swift", "struct FakeView: View { var body: some View { Text(\"\").toolbar {} } }"),
        ]
        let result = ScreenDiscovery.discover(in: files)
        #expect(result.screens.map(\.key) == ["InboxView"])
        #expect(result.components.map(\.name) == ["BottomSheet"])
        #expect(result.appFiles == ["App/DemoApp.swift", "App/Info.plist"])
        #expect(
            result.leftOut == [
                LeftOutDirectory(directory: "AppTests", reason: .tests, files: 2),
                LeftOutDirectory(directory: "Design/Gallery", reason: .previews, files: 1),
                LeftOutDirectory(directory: "Extensions/Widgets", reason: .otherTarget, files: 2),
                LeftOutDirectory(directory: "Watch", reason: .otherTarget, files: 2),
            ])
    }

    @Test("the views a member returns are shown by the content naming it")
    func destinationMembers() {
        let files: [(path: String, text: String)] = [
            (
                "Settings/SettingsItem.swift",
                """
                enum SettingsItem: CaseIterable {
                    case general, privacy
                    @ViewBuilder
                    var destination: some View {
                        switch self {
                        case .general:
                            GeneralView()
                        case .privacy:
                            if #available(iOS 17, *) {
                                PrivacyView()
                            }
                        }
                    }
                }
                """
            ),
            (
                "Settings/SettingsView.swift",
                """
                struct SettingsView: View {
                    var body: some View {
                        List(SettingsItem.allCases) { item in
                            NavigationLink(destination: item.destination) { Text("") }
                        }
                        .navigationTitle("Settings")
                    }
                }
                """
            ),
            (
                "Picker/PickerView.swift",
                """
                struct PickerView: View {
                    var content: some View { ListView() }
                    var body: some View { NavigationStack { content } }
                }
                struct ListView: View { var body: some View { Text("") } }
                """
            ),
            (
                "Other/OtherView.swift",
                "struct OtherView: View { let content: Text; var body: some View { NavigationStack { content } } }"
            ),
            ("Settings/GeneralView.swift", "struct GeneralView: View { var body: some View { Text(\"\") } }"),
            ("Settings/PrivacyView.swift", "struct PrivacyView: View { var body: some View { Text(\"\") } }"),
        ]
        let screens = ScreenDiscovery.discover(in: files).screens
        #expect(screens.map(\.key) == ["GeneralView", "OtherView", "PickerView", "PrivacyView", "SettingsView"])
        #expect(screens.first?.reasons == ["NavigationLink from SettingsView"])
        // A bare name is the code's own member: `content` of `OtherView` shows nothing of `PickerView`'s.
        #expect(
            screens.first { $0.key == "PickerView" }?.reasons == [
                "PickerView: hosts NavigationStack", "ListView: NavigationStack root in PickerView",
            ])
    }

    @Test("a view a UIHostingController subclass hosts is a screen")
    func hostingControllers() {
        let files: [(path: String, text: String)] = [
            (
                "Scanner/ScannerView.swift",
                """
                struct ScannerView: View { var body: some View { Text("") } }
                final class ScannerHostingController: UIHostingController<ScannerView> {}
                """
            )
        ]
        let screens = ScreenDiscovery.discover(in: files).screens
        #expect(screens.map(\.key) == ["ScannerView"])
        #expect(screens.first?.reasons == ["hosted by ScannerHostingController"])
        #expect(screens.first?.globs.first == "Scanner/ScannerView.*")
    }

    @Test("a screen in a file whose main type is not a screen owns no glob; the file stays its main type's")
    func ownership() {
        let files: [(path: String, text: String)] = [
            (
                "Settings/SettingsItem.swift",
                """
                enum SettingsItem { case a }
                struct SmallView: View { var body: some View { Text("").navigationTitle("") } }
                """
            ),
            (
                "Kiosk/KioskView.swift",
                """
                struct KioskView: View { var body: some View { Text("") } }
                struct ContainerView: View { var body: some View { VStack { KioskView() }.toolbar {} } }
                """
            ),
            (
                "Legacy/SettingsController.h",
                "@interface SettingsController : UITableViewController\n@end\n@interface Helper : NSObject\n@end"
            ),
            (
                "Legacy/SettingsController.m",
                "@implementation SettingsController\n- (void)f { self.title = @\"\"; }\n@end"
            ),
            ("Legacy/SettingsController+Alerts.swift", "enum AlertKind { case a }\nextension SettingsController {}"),
            (
                "Inbox/InboxView.swift",
                """
                struct InboxView: View { var body: some View { Text("").toolbar {} } }
                struct Helper: View { var body: some View { Text("").navigationTitle("") } }
                """
            ),
        ]
        let result = ScreenDiscovery.discover(in: files)
        // An extension file's own types never make it the group's main type.
        #expect(result.screens.map(\.key) == ["InboxView", "SettingsController"])
        #expect(result.screens.first?.types == ["InboxView", "Helper"])
        #expect(
            result.embeddedScreens == [
                EmbeddedScreen(
                    name: "ContainerView", file: "Kiosk/KioskView.swift", mainType: "KioskView", reasons: ["toolbar"]),
                EmbeddedScreen(
                    name: "SmallView", file: "Settings/SettingsItem.swift", mainType: "SettingsItem",
                    reasons: ["navigationTitle"]),
            ])
        #expect(result.components.map(\.name) == ["KioskView"])
    }

    @Test("a navigation controller of the project, an overlay without bars, a base class are components")
    func navigationContainers() {
        let files: [(path: String, text: String)] = [
            (
                "UI/AppNavigationController.swift",
                """
                class AppNavigationController: UINavigationController {
                    override func viewDidLoad() { title = "" }
                }
                """
            ),
            (
                "UI/InboxViewController.swift",
                """
                class InboxViewController: UIViewController {
                    override func viewDidLoad() { title = "Inbox" }
                    func open() {
                        present(AppNavigationController(rootViewController: DetailViewController()), animated: true)
                    }
                }
                """
            ),
            ("UI/DetailViewController.swift", "class DetailViewController: ListViewController {}"),
            ("UI/ListViewController.swift", "class ListViewController: UIViewController {}"),
            (
                "UI/SpinnerViewController.swift",
                """
                class SpinnerViewController: UIViewController {
                    init() { modalPresentationStyle = .overFullScreen }
                }
                class BusyViewController: UIViewController {
                    func open() { present(SpinnerViewController(), animated: false) }
                }
                """
            ),
        ]
        let result = ScreenDiscovery.discover(in: files)
        #expect(result.screens.map(\.key) == ["DetailViewController", "InboxViewController"])
        #expect(
            result.components.map(\.name) == [
                "AppNavigationController", "BusyViewController", "ListViewController", "SpinnerViewController",
            ])
        #expect(result.components.first?.usedBy == ["InboxViewController"])
        // A base class's code runs in the screens deriving from it.
        #expect(result.components.first { $0.name == "ListViewController" }?.usedBy == ["DetailViewController"])
    }
}
