import BarkeepDiscovery
import Testing

/// Controllers of other frameworks, UIHostingController subclasses, what does not show a controller, UIKit views and
/// cells, and the keys of components.
@Suite("ScreenDiscovery UIKit views and controllers")
struct ScreenDiscoveryUIKitTests {
    /// The screens `files` propose, each as `key: reasons`.
    private func screens(_ result: DiscoveryResult) -> [String] {
        result.screens.map { "\($0.key): \($0.reasons.joined(separator: ", "))" }
    }

    /// Each component as `name key [users]`.
    private func components(_ result: DiscoveryResult) -> [String] {
        result.components.map { "\($0.name) \($0.key) \($0.usedBy)" }
    }

    @Test("a subclass of another framework's pager or tab controller is a controller, and so are its subclasses")
    func otherFrameworksControllers() {
        let result = ScreenDiscovery.discover(in: [
            (
                "App/MainTabBarController.swift",
                """
                final class MainTabBarController: UITabBarController {
                    override func viewDidLoad() { viewControllers = [NotificationViewController(), ProfileViewController()] }
                }
                """
            ),
            (
                "App/NotificationViewController.swift",
                "final class NotificationViewController: TabmanViewController { func f() { navigationItem.title = nil } }"
            ),
            ("App/PagerBase.swift", "class PagerBase: Pageboy.PageboyViewController {}"),
            ("App/ProfileViewController.swift", "final class ProfileViewController: PagerBase {}"),
        ])
        #expect(
            screens(result) == [
                "NotificationViewController: navigationItem, tab of MainTabBarController",
                "ProfileViewController: tab of MainTabBarController",
            ])
        #expect(
            components(result) == [
                "MainTabBarController MainTabBarController []", "PagerBase PagerBase [\"ProfileViewController\"]",
            ])
        #expect(result.components.last?.isBaseClass == true)
    }

    @Test("a UIHostingController subclass that is pushed is the screen, and the view it hosts its content")
    func hostingControllerScreens() {
        let result = ScreenDiscovery.discover(in: [
            (
                "App/Rules/RulesViewController.swift",
                """
                final class RulesViewController: UIHostingController<RulesView> {
                    init() { super.init(rootView: RulesView()) }
                }
                struct RulesButton: View { var body: some View { Text("") } }
                """
            ),
            (
                "App/Rules/RulesView.swift",
                "struct RulesView: View { var body: some View { List {}.navigationTitle(\"Rules\") } }"
            ),
            (
                "App/Settings/SettingsViewController.swift",
                """
                final class SettingsViewController: UIViewController {
                    func showRules() {
                        title = "Settings"
                        navigationController?.pushViewController(RulesViewController(), animated: true)
                    }
                }
                """
            ),
        ])
        #expect(
            screens(result) == [
                "RulesViewController: pushed from SettingsViewController", "SettingsViewController: title",
            ])
        #expect(result.screens.first?.uses.map(\.name) == ["RulesView"])
        // The button declared in the controller's file is part of that screen, named after it.
        #expect(
            components(result) == [
                "RulesButton RulesViewController [\"RulesViewController\"]",
                "RulesView RulesView [\"RulesViewController\"]",
            ])
    }

    @Test("a generic hosting controller hosts what it is given: a screen only with bars; its subclasses host theirs")
    func genericHostingControllers() {
        let result = ScreenDiscovery.discover(in: [
            (
                "App/Themed.swift",
                "class ThemedHostingController<Content>: UIHostingController<Content> where Content: View {}"
            ),
            ("App/Plain.swift", "final class PlainHostingController<Content: View>: UIHostingController<Content> {}"),
            (
                "App/Landing/LandingHostingController.swift",
                """
                final class LandingHostingController<Content: View>: ThemedHostingController<Content> {
                    override func viewDidLoad() { navigationItem.title = nil }
                }
                """
            ),
            (
                "App/History/HistoryViewController.swift",
                "final class HistoryViewController: ThemedHostingController<HistoryView> {}"
            ),
            (
                "App/History/HistoryView.swift",
                "struct HistoryView: View { var body: some View { List {}.navigationTitle(\"History\") } }"
            ),
            (
                "App/Settings/SettingsViewController.swift",
                """
                final class SettingsViewController: UIViewController {
                    func open() {
                        title = "Settings"
                        navigationController?.pushViewController(HistoryViewController(), animated: true)
                        present(PlainHostingController(rootView: Text("")), animated: true)
                    }
                }
                """
            ),
        ])
        #expect(
            screens(result) == [
                "HistoryViewController: pushed from SettingsViewController", "LandingHostingController: navigationItem",
                "SettingsViewController: title",
            ])
        #expect(result.screens.first?.uses.map(\.name) == ["HistoryView", "ThemedHostingController"])
        #expect(result.components.map(\.name) == ["HistoryView", "PlainHostingController", "ThemedHostingController"])
    }

    @Test("an embedded child, a presented member, a parameter named like a property and a label show nothing")
    func notPresented() {
        let result = ScreenDiscovery.discover(in: [
            (
                "App/ComposeViewController.swift",
                """
                final class ComposeViewController: UIViewController {
                    var authContext: AuthContext?
                    private(set) lazy var contentViewController: ContentViewController = {
                        let contentViewController = ContentViewController()
                        return contentViewController
                    }()
                    override func viewDidLoad() {
                        title = "Compose"
                        addChild(contentViewController)
                        present(contentViewController.documentPicker, animated: true)
                    }
                    func content(_ contentViewController: UIViewController, didPick item: Int) {
                        present(contentViewController, animated: true)
                        let model = ListViewModel(context: context, authContext: authContext)
                        coordinator.present(scene: .list(viewModel: model), from: nil)
                    }
                }
                """
            ),
            ("App/ContentViewController.swift", "final class ContentViewController: UIViewController {}"),
        ])
        #expect(screens(result) == ["ComposeViewController: title"])
        #expect(components(result) == ["ContentViewController ContentViewController [\"ComposeViewController\"]"])
    }

    @Test("UIKit views and cells are components of the view types that register, dequeue, create or name them")
    func uiKitViews() {
        let result = ScreenDiscovery.discover(in: [
            (
                "App/Timeline/TimelineViewController.swift",
                """
                final class TimelineViewController: UITableViewController {
                    var viewModel: TimelineViewModel!
                    let header = TimelineHeaderView()
                    override func viewDidLoad() {
                        title = "Timeline"
                        tableView.register(UINib(nibName: "LoaderCell", bundle: nil), forCellReuseIdentifier: "l")
                        let cell = tableView.dequeueReusableCell(withIdentifier: "s") as? SpacerCell
                    }
                }
                """
            ),
            (
                "App/Timeline/TimelineViewModel.swift",
                "final class TimelineViewModel { func setUp(_ tableView: UITableView) { StatusSection.configure(tableView) } }"
            ),
            (
                "App/Timeline/StatusSection.swift",
                """
                enum StatusSection {
                    static func configure(_ tableView: UITableView) {
                        tableView.register(StatusCell.self, forCellReuseIdentifier: String(describing: StatusCell.self))
                    }
                }
                """
            ),
            ("App/Views/TimelineHeaderView.swift", "final class TimelineHeaderView: UIView {}"),
            ("App/Views/LoaderCell.swift", "final class LoaderCell: UITableViewCell {}"),
            ("App/Views/SpacerCell.swift", "final class SpacerCell: UITableViewCell {}"),
            ("App/Views/StatusCell.swift", "final class StatusCell: UITableViewCell { let avatar = AvatarView() }"),
            ("App/Views/AvatarView.swift", "final class AvatarView: UIImageView {}"),
            ("App/Views/OrphanView.swift", "final class OrphanView: UIView {}"),
        ])
        #expect(screens(result) == ["TimelineViewController: title"])
        #expect(
            result.screens.first?.uses.map(\.name) == [
                "AvatarView", "LoaderCell", "SpacerCell", "StatusCell", "TimelineHeaderView",
            ])
        #expect(result.components.first { $0.name == "OrphanView" }?.usedBy == [])
        #expect(result.components.allSatisfy { $0.kind == .uiKitView })
    }

    @Test("a type every screen names leads to no view: the cell it names is not every screen's")
    func hubs() {
        let screens = (1...9).map { number in
            (
                "App/Screen\(number)ViewController.swift",
                """
                final class Screen\(number)ViewController: UIViewController {
                    var coordinator: SceneCoordinator!
                    override func viewDidLoad() { title = "\(number)" }
                }
                """
            )
        }
        let result = ScreenDiscovery.discover(
            in: screens + [
                (
                    "App/SceneCoordinator.swift",
                    "final class SceneCoordinator { func make() -> UITableViewCell { BadgeCell() } }"
                ),
                ("App/BadgeCell.swift", "final class BadgeCell: UITableViewCell {}"),
            ])
        #expect(result.screens.count == 9)
        #expect(result.components.map(\.name) == ["BadgeCell"])
        #expect(result.components.first?.usedBy == [])
    }

    @Test("the components of one file share one key: its main type's, never a secondary type's")
    func componentKeys() {
        let result = ScreenDiscovery.discover(in: [
            (
                "App/InboxView.swift",
                "struct InboxView: View { var body: some View { BadgeDot().navigationTitle(\"Inbox\") } }"
            ),
            (
                "App/Views/BadgeView.swift",
                """
                struct BadgeView: View { var body: some View { BadgeDot() } }
                struct BadgeDot: View { var body: some View { Circle() } }
                """
            ),
        ])
        #expect(result.screens.first?.uses.map { "\($0.name) \($0.key)" } == ["BadgeDot BadgeView"])
        #expect(
            components(result) == ["BadgeDot BadgeView [\"InboxView\"]", "BadgeView BadgeView []"])
    }

    @Test("paths an --exclude glob matches are left out and listed, with how many files each holds")
    func excludedPaths() {
        let result = ScreenDiscovery.discover(
            in: [
                ("App/InboxView.swift", "struct InboxView: View { var body: some View { Text(\"\").toolbar {} } }"),
                ("Legacy/Old/A.swift", "struct A: View { var body: some View { Text(\"\").toolbar {} } }"),
                ("Legacy/Old/B.swift", ""), ("Scratch.swift", ""),
            ], excluding: ["Legacy/*", "Scratch.swift"])
        #expect(result.screens.map(\.key) == ["InboxView"])
        #expect(
            result.leftOut == [
                LeftOutDirectory(directory: "Legacy/Old", reason: .excluded, files: 2),
                LeftOutDirectory(directory: "Scratch.swift", reason: .excluded, files: 1),
            ])
    }
}
