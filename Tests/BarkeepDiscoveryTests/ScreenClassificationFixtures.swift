/// Source trees of small apps, written as their teams write them, for the classification tests.
enum ScreenClassificationFixtures {
    /// A SwiftUI app: an `@main` App, a tab view of three tabs, pushed and presented views, rows, a section, a
    /// design-system button used everywhere, a pager, a widget, previews and project files.
    static let swiftUI: [(path: String, text: String)] = [
        (
            "App/DemoApp.swift",
            """
            import SwiftUI

            @main
            struct DemoApp: App {
                var body: some Scene {
                    WindowGroup {
                        MainTabView()
                    }
                }
            }
            """
        ),
        (
            "App/MainTabView.swift",
            """
            struct MainTabView: View {
                @State private var selection = 0
                var body: some View {
                    TabView(selection: $selection) {
                        Tab("Timeline", systemImage: "clock") {
                            NavigationStack {
                                TimelineView()
                            }
                        }
                        InboxView()
                            .tabItem { TabLabel(title: "Inbox", symbol: "tray") }
                        if showsSettings {
                            SettingsView()
                                .tabItem { TabLabel(title: "Settings", symbol: "gear") }
                        }
                    }
                }
            }
            """
        ),
        (
            "App/Timeline/TimelineView.swift",
            """
            struct TimelineView: View {
                @State private var isComposing = false
                var body: some View {
                    List(posts) { post in
                        NavigationLink(value: post) {
                            PostRow(post: post)
                        }
                    }
                    .navigationTitle("Timeline")
                    .navigationDestination(for: Post.self) { post in
                        PostDetailView(post: post)
                    }
                    .toolbar {
                        ToolbarItem(placement: .primaryAction) {
                            DSButton("Compose") { isComposing = true }
                        }
                    }
                    .sheet(isPresented: $isComposing) {
                        NavigationStack {
                            ComposeView()
                                .navigationTitle("New post") // the presented view's bar
                        }
                    }
                }
            }
            """
        ),
        (
            "App/Timeline/PostRow.swift",
            """
            struct PostRow: View {
                let post: Post
                var body: some View {
                    HStack {
                        Avatar(url: post.author.avatar)
                        Text(post.title)  // "PostDetailView(" in a string is not code
                    }
                }
            }

            #Preview {
                NavigationStack { PostRow(post: .sample).navigationTitle("Preview") }
            }
            """
        ),
        (
            "App/Timeline/PostDetailView.swift",
            """
            struct PostDetailView: View {
                let post: Post
                var body: some View {
                    ScrollView {
                        Carousel(images: post.images)
                        PostSection(post: post)
                    }
                    .toolbar { ToolbarItem { ShareLink(item: post.url) } }
                }
            }

            struct PostDetailView_Previews: PreviewProvider {
                static var previews: some View { NavigationStack { PostDetailView(post: .sample) } }
            }
            """
        ),
        (
            "App/Timeline/PostSection.swift",
            """
            struct PostSection: View {
                let post: Post
                var body: some View {
                    Section {
                        PostRow(post: post)
                        DSButton("Like") { post.like() }
                    }
                }
            }
            """
        ),
        (
            "App/Timeline/ComposeView.swift",
            """
            struct ComposeView: View {
                var body: some View {
                    Form { DSButton("Send") { send() } }
                }
            }
            """
        ),
        (
            "App/Inbox/InboxView.swift",
            """
            struct InboxView: View {
                var body: some View {
                    NavigationView {
                        List(threads) { thread in
                            NavigationLink(destination: ThreadView(thread: thread)) {
                                InboxRow(thread: thread)
                            }
                        }
                        .navigationBarTitle("Inbox")
                    }
                }
            }
            """
        ),
        (
            "App/Inbox/InboxView+Filters.swift",
            """
            extension InboxView {
                var filters: some View { FilterChips(filters: Filter.allCases) }
            }
            """
        ),
        (
            "App/Inbox/InboxRow.swift",
            "struct InboxRow: View { var body: some View { HStack { Avatar(url: nil); Text(thread.subject) } } }"
        ),
        (
            "App/Inbox/ThreadView.swift",
            """
            struct ThreadView: View {
                let thread: Thread
                var body: some View {
                    ScrollView { ForEach(thread.messages) { MessageBubble(message: $0) } }
                        .navigationTitle(thread.subject)
                }
            }

            struct MessageBubble: View {
                let message: Message
                var body: some View { Text(message.text) }
            }
            """
        ),
        (
            "App/Settings/SettingsView.swift",
            """
            struct SettingsView: View {
                var body: some View {
                    Form {
                        SettingsSection(title: "General") { Toggle("Sounds", isOn: $sounds) }
                    }
                    .navigationTitle("Settings")
                }
            }
            """
        ),
        (
            "App/Settings/SettingsSection.swift",
            """
            struct SettingsSection<Content: View>: View {
                let title: String
                @ViewBuilder var content: Content
                var body: some View { Section(title) { content } }
            }
            """
        ),
        (
            "DesignSystem/DSButton.swift",
            "struct DSButton: View { var body: some View { Button(title, action: action) } }"
        ),
        ("DesignSystem/Avatar.swift", "struct Avatar: View { var body: some View { AsyncImage(url: url) } }"),
        (
            "DesignSystem/TabLabel.swift",
            "struct TabLabel: View { var body: some View { Label(title, systemImage: symbol) } }"
        ),
        ("DesignSystem/FilterChips.swift", "struct FilterChips: View { var body: some View { DSButton(\"All\") {} } }"),
        (
            "DesignSystem/Carousel.swift",
            """
            struct Carousel: View {
                var body: some View {
                    TabView { ForEach(images) { CarouselPage(image: $0) } }
                        .tabViewStyle(.page)
                }
            }
            struct CarouselPage: View { var body: some View { Image(image) } }
            """
        ),
        (
            "Widgets/InboxWidget.swift",
            """
            struct InboxWidget: Widget {
                var body: some WidgetConfiguration {
                    StaticConfiguration(kind: "inbox", provider: Provider()) { entry in InboxWidgetView(entry: entry) }
                }
            }
            struct InboxWidgetView: View { var body: some View { Text(entry.title) } }
            """
        ),
        ("App/Info.plist", ""), ("App/Demo.entitlements", ""), ("Config/Base.xcconfig", ""),
        ("Demo.xcodeproj/project.pbxproj", ""), ("App/Assets.xcassets/Contents.json", ""),
    ]

    /// A UIKit app in Swift and Objective-C: an app delegate making the tabs, a base controller, controllers with
    /// navigation items, pushed and presented ones, child controllers, extension files and a `main.m`.
    static let uiKit: [(path: String, text: String)] = [
        (
            "Mail/AppDelegate+Windows.swift",
            """
            extension AppDelegate {
                func makeLockWindow() -> UIWindow { UIWindow(frame: UIScreen.main.bounds) }
            }
            """
        ),
        (
            "Mail/AppDelegate.h",
            """
            #import <UIKit/UIKit.h>
            @interface AppDelegate : UIResponder <UIApplicationDelegate>
            @property (strong, nonatomic) UIWindow *window;
            @end
            """
        ),
        (
            "Mail/AppDelegate.m",
            """
            #import "AppDelegate.h"
            #import "Mail-Swift.h"
            @implementation AppDelegate
            - (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)options {
                UITabBarController *tabs = [[UITabBarController alloc] init];
                InboxViewController *inbox = [[InboxViewController alloc] init];
                UINavigationController *inboxNav = [[UINavigationController alloc] initWithRootViewController:inbox];
                tabs.viewControllers = @[inboxNav, [[AccountViewController alloc] init]];
                self.window.rootViewController = tabs;
                return YES;
            }
            @end
            """
        ),
        (
            "Mail/main.m",
            """
            #import "AppDelegate.h"
            int main(int argc, char *argv[]) {
                @autoreleasepool { return UIApplicationMain(argc, argv, nil, NSStringFromClass([AppDelegate class])); }
            }
            """
        ),
        (
            "Mail/Base/BaseViewController.swift",
            """
            class BaseViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.backgroundColor = .systemBackground
                }
            }
            """
        ),
        (
            "Mail/Inbox/InboxViewController.swift",
            """
            final class InboxViewController: BaseViewController {
                private let header = InboxHeaderViewController()

                override func viewDidLoad() {
                    super.viewDidLoad()
                    title = "Inbox"
                    navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .compose)
                    addChild(header)
                    view.addSubview(header.view)
                }

                func open(_ message: Message) {
                    let detail = MessageViewController(message: message)
                    navigationController?.pushViewController(detail, animated: true)
                }
            }
            """
        ),
        (
            "Mail/Inbox/InboxViewController+Actions.swift",
            """
            extension InboxViewController {
                @objc func compose() {
                    present(UINavigationController(rootViewController: ComposeViewController()), animated: true)
                }
            }
            """
        ),
        (
            "Mail/Search/InboxViewController+Search.swift",
            """
            extension InboxViewController: UISearchResultsUpdating {
                func updateSearchResults(for searchController: UISearchController) {}
            }
            """
        ),
        ("Mail/Inbox/InboxHeaderViewController.swift", "final class InboxHeaderViewController: UIViewController {}"),
        (
            "Mail/Message/MessageViewController.swift",
            """
            final class MessageViewController: BaseViewController {
                init(message: Message) { super.init(nibName: nil, bundle: nil) }
                override func viewDidLoad() {
                    navigationItem.largeTitleDisplayMode = .never
                    toolbarItems = [UIBarButtonItem(systemItem: .trash)]
                }
            }
            """
        ),
        ("Mail/Compose/ComposeViewController.h", "@interface ComposeViewController : UIViewController\n@end"),
        (
            "Mail/Compose/ComposeViewController.m",
            """
            #import "ComposeViewController.h"
            #import "AttachmentPickerViewController.h"
            @implementation ComposeViewController
            - (void)viewDidLoad {
                [super viewDidLoad];
                self.navigationItem.leftBarButtonItem = self.cancelItem;
                AttachmentPickerViewController *picker = [[AttachmentPickerViewController alloc] init];
                [self addChildViewController:picker];
            }
            - (void)pickContact {
                ContactsViewController *contacts = [ContactsViewController new];
                [self presentViewController:contacts animated:YES completion:nil];
            }
            @end
            """
        ),
        (
            "Mail/Compose/AttachmentPickerViewController.h",
            "@interface AttachmentPickerViewController : UICollectionViewController\n@end"
        ),
        ("Mail/Contacts/ContactsViewController.h", "@interface ContactsViewController : UITableViewController\n@end"),
        (
            "Mail/Contacts/ContactsViewController.m",
            "@implementation ContactsViewController\n- (void)viewDidLoad { self.title = @\"Contacts\"; }\n@end"
        ),
        (
            "Mail/Settings/AccountViewController.swift",
            """
            final class AccountViewController: UITableViewController {
                override func viewDidLoad() { tableView.register(SettingsCell.self, forCellReuseIdentifier: "c") }
            }
            """
        ),
        ("Mail/Settings/SettingsCell.swift", "final class SettingsCell: UITableViewCell {}"),
        ("Mail/Onboarding/OnboardingViewController.swift", "final class OnboardingViewController: UIViewController {}"),
        ("Mail/Supporting/Info.plist", ""), ("Mail.xcodeproj/project.pbxproj", ""),
    ]
}
