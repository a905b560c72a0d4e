import BarkeepDiscovery
import Testing

/// View controllers made by code outside every view type (coordinators, routers, factories, delegates) are the
/// screens that code shows, unless they are embedded as children.
@Suite("ScreenDiscovery makers")
struct ScreenMakingTests {
    /// The reasons of the proposal holding `type`; nil when no proposal holds it.
    private func reasons(of type: String, in result: DiscoveryResult) -> [String]? {
        result.screens.first { $0.types.contains(type) }?.reasons
    }

    /// The screens `files` propose, each as `key: reasons`.
    private func screens(_ files: [(path: String, text: String)]) -> [String] {
        ScreenDiscovery.discover(in: files).screens.map { "\($0.key): \($0.reasons.joined(separator: ", "))" }
    }

    @Test("a coordinator's scene switch makes screens; what it creates for a case is shown by it")
    func sceneCoordinator() {
        let files: [(path: String, text: String)] = [
            (
                "App/Coordinator/SceneCoordinator.swift",
                """
                final class SceneCoordinator {
                    enum Scene { case media(MediaViewModel), policy(PolicyViewModel) }
                    func present(scene: Scene, from sender: UIViewController?) -> UIViewController? {
                        guard let viewController = get(scene: scene) else { return nil }
                        sender?.navigationController?.pushViewController(viewController, animated: true)
                        return viewController
                    }
                    private func get(scene: Scene) -> UIViewController? {
                        let viewController: UIViewController?
                        switch scene {
                        case .media(let viewModel):
                            let _viewController = MediaPreviewViewController()
                            _viewController.viewModel = viewModel
                            viewController = _viewController
                        case .policy(let viewModel):
                            viewController = PolicyViewController(viewModel: viewModel)
                        }
                        return viewController
                    }
                }
                """
            ),
            (
                "App/Scene/MediaPreviewViewController.swift",
                "final class MediaPreviewViewController: UIViewController {}"
            ),
            ("App/Scene/PolicyViewController.swift", "final class PolicyViewController: UIViewController {}"),
        ]
        #expect(
            screens(files) == [
                "MediaPreviewViewController: made by SceneCoordinator",
                "PolicyViewController: made by SceneCoordinator",
            ])
    }

    @Test(
        "what makes a controller outside view types, and what does not",
        arguments: [
            ("B.swift", "func makeB() -> UIViewController { B() }", ["made by B.swift"]),
            (
                "Router.swift", "enum Router { static func b() -> UIViewController { return B.init() } }",
                ["made by Router"]
            ),
            (
                "Router.swift",
                "struct Router { func b() -> UIViewController { let b = B.instantiate(with: 1); return b } }",
                ["made by Router"]
            ),
            (
                "Router.swift", "struct Router { func b() -> UIViewController { return B.instantiate() } }",
                ["made by Router"]
            ),
            ("Router.swift", "struct Router { func b() { B.register() } }", []),
            (
                "Router.swift",
                "struct Router { func b(_ url: URL) -> Bool { if B.canOpen(url) { return true }; return false } }", []
            ),
            ("Router.swift", "struct Router { func b(_ x: Any) -> Bool { x is B } }", []),
            (
                "Router.swift",
                "class Router { let nav = UINavigationController()\n func b() { nav.pushViewController(B(), animated: true) } }",
                ["pushed from Router"]
            ),
            ("Router.swift", "class Router { func b(_ parent: UIViewController) { parent.addChild(B()) } }", []),
            ("Ext.swift", "extension UIViewController { func makeB() -> UIViewController { B() } }", []),
            (
                "Kind.swift",
                "enum Kind { func make() -> UIViewController { B() } }\nfinal class Host: UIViewController { func load() { cell.host(B()) } }",
                []
            ),
            (
                "MapView.swift",
                "struct MapView: UIViewControllerRepresentable { func makeUIViewController(context: Context) -> B { B() } }",
                []
            ),
            (
                "Menu.swift",
                "final class MenuProvider { func menu() -> UIContextMenuConfiguration { UIContextMenuConfiguration(identifier: nil) { B() } actionProvider: { _ in nil } } }",
                []
            ),
            (
                "Menu.swift",
                "final class MenuProvider { func menu() -> UIContextMenuConfiguration { UIContextMenuConfiguration(identifier: nil, previewProvider: nil) { _ in let b = B(); return UIMenu(children: []) } } }",
                ["made by MenuProvider"]
            ),
        ])
    func makers(path: String, code: String, reasons expected: [String]) {
        let files = [(path, code), ("UI/B.swift", "final class B: UIViewController {}")]
        #expect(reasons(of: "B", in: ScreenDiscovery.discover(in: files)) ?? [] == expected)
    }

    @Test("Objective-C coordinators make screens with alloc, new and class methods assigned or returned")
    func objectiveCMakers() {
        let files: [(path: String, text: String)] = [
            (
                "App/AppCoordinator.m",
                """
                @implementation AppCoordinator
                - (UIViewController *)inbox { return [[InboxViewController alloc] init]; }
                - (void)start { UIViewController *search = [SearchViewController searchViewController]; [self.router push:search]; }
                - (BOOL)isSettings:(UIViewController *)vc { return [vc isKindOfClass:[SettingsViewController class]]; }
                @end
                """
            ),
            ("App/InboxViewController.h", "@interface InboxViewController : UIViewController\n@end"),
            ("App/SearchViewController.h", "@interface SearchViewController : UIViewController\n@end"),
            ("App/SettingsViewController.h", "@interface SettingsViewController : UIViewController\n@end"),
        ]
        #expect(
            screens(files) == [
                "InboxViewController: made by AppCoordinator", "SearchViewController: made by AppCoordinator",
            ])
    }

    @Test("containers, overlays and base classes made by a coordinator stay components")
    func exceptions() {
        let files: [(path: String, text: String)] = [
            (
                "App/AppCoordinator.swift",
                """
                final class AppCoordinator {
                    func start() -> UIViewController { AppNavigationController() }
                    func busy() -> UIViewController { SpinnerViewController() }
                    func base() -> UIViewController { ListViewController() }
                    func detail() -> UIViewController { DetailViewController() }
                }
                """
            ),
            ("UI/AppNavigationController.swift", "final class AppNavigationController: UINavigationController {}"),
            (
                "UI/SpinnerViewController.swift",
                "final class SpinnerViewController: UIViewController { init() { modalPresentationStyle = .overFullScreen } }"
            ),
            ("UI/ListViewController.swift", "class ListViewController: UIViewController {}"),
            ("UI/DetailViewController.swift", "final class DetailViewController: ListViewController {}"),
        ]
        let result = ScreenDiscovery.discover(in: files)
        #expect(result.screens.map(\.key) == ["DetailViewController"])
        #expect(
            result.components.map(\.name) == ["AppNavigationController", "ListViewController", "SpinnerViewController"])
    }

    @Test("a controller a helper makes and a view controller embeds as a child is a component of that screen")
    func embeddedChildren() {
        let files: [(path: String, text: String)] = [
            (
                "Dashboard/ChartFactory.swift",
                "enum ChartFactory { static func makeChart(_ data: [Int]) -> UIViewController { ChartViewController(data) } }"
            ),
            ("Dashboard/ChartViewController.swift", "final class ChartViewController: UIViewController {}"),
            (
                "Search/ResultsCoordinator.swift",
                """
                final class ResultsCoordinator {
                    let resultsController: ResultsViewController
                    init() { resultsController = ResultsViewController() }
                }
                """
            ),
            ("Search/ResultsViewController.swift", "final class ResultsViewController: UIViewController {}"),
            (
                "Menu/SideMenuCoordinator.swift",
                """
                final class SideMenuCoordinator {
                    let menu = MenuViewController()
                    func addSpaces() {
                        let viewController = SettingsViewController()
                        open(viewController)
                        let coordinator = SpacesCoordinator()
                        let presentable = coordinator.toPresentable()
                        menu.vc_addChildViewController(viewController: presentable, onView: menu.view)
                    }
                }
                """
            ),
            (
                "Menu/SpacesCoordinator.swift",
                """
                final class SpacesCoordinator {
                    private let spacesViewController = SpacesViewController()
                    func toPresentable() -> UIViewController { spacesViewController }
                }
                """
            ),
            ("Menu/MenuViewController.swift", "final class MenuViewController: UIViewController {}"),
            ("Menu/SpacesViewController.swift", "final class SpacesViewController: UIViewController {}"),
            ("Menu/SettingsViewController.swift", "final class SettingsViewController: UIViewController {}"),
            (
                "Dashboard/DashboardViewController.swift",
                """
                final class DashboardViewController: UIViewController {
                    private lazy var results: ResultsViewController = { coordinator.resultsController }()
                    private let coordinator = ResultsCoordinator()
                    override func viewDidLoad() {
                        title = "Dashboard"
                        let chart = ChartFactory.makeChart([1, 2])
                        addChild(chart)
                        addChild(results)
                    }
                }
                """
            ),
        ]
        let result = ScreenDiscovery.discover(in: files)
        #expect(
            result.screens.map { "\($0.key): \($0.reasons.joined(separator: ", "))" } == [
                "DashboardViewController: title", "MenuViewController: made by SideMenuCoordinator",
                "SettingsViewController: made by SideMenuCoordinator",
            ])
        #expect(result.screens.first?.uses.map(\.name) == ["ChartViewController", "ResultsViewController"])
        #expect(
            result.components.map { "\($0.name) \($0.usedBy)" } == [
                "ChartViewController [\"DashboardViewController\"]",
                "ResultsViewController [\"DashboardViewController\"]",
                "SpacesViewController []",
            ])
    }
}
