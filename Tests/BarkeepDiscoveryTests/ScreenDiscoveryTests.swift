import BarkeepCore
import BarkeepDiscovery
import BarkeepTestSupport
import Foundation
import Testing

/// A SwiftUI view on `line` of `file`.
private func view(_ name: String, _ file: String, line: Int = 1) -> ViewType {
    ViewType(name: name, kind: .swiftUIView, file: file, line: line)
}

/// A view controller on `line` of `file`.
private func controller(_ name: String, _ file: String, superclass: String, line: Int = 1) -> ViewType {
    ViewType(name: name, kind: .viewController, file: file, line: line, superclass: superclass)
}

/// Finding SwiftUI views and UIKit view controllers in sources, and proposing screens for them.
@Suite("ScreenDiscovery")
struct ScreenDiscoveryTests {
    /// The names and lines found in one file.
    private func found(_ source: String, file: String = "A.swift") -> [String] {
        ScreenDiscovery.findViewTypes(in: [(file, source)]).map {
            "\($0.name)@\($0.line)" + ($0.kind == .swiftUIPart ? " part" : $0.kind == .uiKitView ? " uikit-view" : "")
        }
    }

    // MARK: - SwiftUI views

    @Test(
        "SwiftUI views: View anywhere in the inheritance list, whatever comes around it",
        arguments: [
            ("struct A: View { var body: some View { Text(\"a\") } }", ["A@1"]),
            ("struct A: SwiftUI.View {}", ["A@1"]),
            ("@MainActor public struct A: Equatable, View {}", ["A@1"]),
            (
                "@available(iOS 17, *)\n@MainActor\nstruct A<T: Hashable, U>: View where T: Sendable, U == Int {}",
                ["A@3"]
            ),
            ("struct A<Content: View>: View { let content: Content }", ["A@1"]),
            ("struct A: @preconcurrency View {}", ["A@1"]),
            ("struct A\n    : Identifiable,\n      View\n{\n}", ["A@1"]),
            ("struct `A`: View {}", ["A@1"]),
            ("struct A: View {}; struct B: View {}", ["A@1", "B@1"]),
            ("public struct A: ViewModifier { func body(content: Content) -> some View { content } }", ["A@1 part"]),
            ("struct A: ToolbarContent { var body: some ToolbarContent { ToolbarItem { B() } } }", ["A@1 part"]),
            ("struct A_Previews: PreviewProvider { static var previews: some View { A() } }", []),
            ("struct A: UIViewRepresentable {}", []), ("struct A: UIViewControllerRepresentable {}", []),
            ("struct A: Hashable { var body: some View { EmptyView() } }", []),
            ("struct A: MyKit.View {}", []), ("struct A: ViewBuilder {}", []), ("enum A: View {}", []),
            ("extension A: View {}", []), ("protocol A: View {}", []), ("struct A<T: View>: Equatable {}", []),
            ("class A: View {}", []),
        ])
    func swiftUIViews(source: String, expected: [String]) {
        #expect(found(source) == expected)
    }

    // MARK: - Comments and literals

    @Test(
        "comments and string literals that mention views are ignored, and what follows them is found on its line",
        arguments: [
            ("// struct A: View {}\nstruct After: View {}", 2),
            ("/// class A: UIViewController {\nstruct After: View {}", 2),
            ("/* struct A: View {\n */ struct After: View {}", 2),
            ("/* outer /* nested */ struct A: View { */\nstruct After: View {}", 2),
            ("/* outer /* nested\n /* twice */ */ class A: UIViewController { */ struct After: View {}", 2),
            ("let s = \"struct A: View {\"\nstruct After: View {}", 2),
            ("let s = \"escaped \\\" struct A: View {\"\nstruct After: View {}", 2),
            ("let s = \"// not a comment\"; struct After: View {}", 1),
            ("let s = \"/* not a comment\"; struct After: View {}", 1),
            (
                "let s = \"\"\"\n    struct A: View {\n    class B: UIViewController {\n    \"\"\"\nstruct After: View {}",
                5
            ),
            ("let s = \"\"\"\n    \"quoted\" \"\" struct A: View {\n    \"\"\"\nstruct After: View {}", 4),
            ("let s = #\"a \" struct A: View {\"#\nstruct After: View {}", 2),
            ("let s = ##\"a \"# struct A: View {\"##\nstruct After: View {}", 2),
            ("let s = #\"\"\"\n  \"\"\" struct A: View {\n  \"\"\"#\nstruct After: View {}", 4),
            ("let s = \"\\(f(\"}\")) struct A: View {\"\nstruct After: View {}", 2),
            ("let s = \"\\(x ? \"{\" : \"\\(\"}\")\") struct A: View {\"\nstruct After: View {}", 2),
            ("let s = \"\"\"\n  \\(\"\"\"\n  struct A: View {\n  \"\"\")\n  \"\"\"\nstruct After: View {}", 6),
            ("let s = #\"\\#(f(\")\")) struct A: View {\"#\nstruct After: View {}", 2),
            ("let r = #/struct A: View {/#\nstruct After: View {}", 2),
            ("let r = ##/\n  struct A: View { /#\n  /##\nstruct After: View {}", 4),
            ("let s = \"unterminated struct A: View {\nstruct After: View {}", 2),
            ("#if DEBUG\nstruct After: View {}\n#endif", 2),
        ])
    func commentsAndStrings(source: String, line: Int) {
        #expect(found(source) == ["After@\(line)"])
    }

    @Test("CRLF line ends count one line each")
    func crlf() {
        #expect(found("import SwiftUI\r\n\r\n/* a\r\n b */\r\nstruct A: View {}\r\n") == ["A@5"])
    }

    @Test(
        "garbage and unterminated constructs end without a crash",
        arguments: [
            "/* never closed struct A: View {}", "let s = \"\"\"\nstruct A: View {}", "struct", "struct A", "struct A:",
            "struct A: View", "class A: UIViewController", "}}}} struct A: View {}", "struct A<<<: View {",
            String(repeating: "\"\\(", count: 20_000), String(repeating: "/*", count: 20_000),
            String(repeating: "{", count: 20_000) + "struct A: View {}", "\u{FEFF}\u{0}\u{7}🙂 struct",
            String(decoding: [0xFF, 0xFE, 0x80, 0x22, 0x5C, 0x28], as: UTF8.self),
        ])
    func garbage(source: String) {
        _ = found(source)
        _ = found(source, file: "A.m")
    }

    @Test("a string of unbalanced braces does not break the nesting of what follows")
    func bracesInStrings() {
        let source = """
            struct Outer {
                let open = "{{{"
                let close = #"}}"#
                struct Row: View {}
            }
            struct Next: View {}
            """
        #expect(found(source) == ["Outer.Row@4", "Next@6"])
    }

    // MARK: - Nesting

    @Test("nested types are qualified by their enclosing types and extensions; local types are left out")
    func nesting() {
        let source = """
            struct Outer: View {
                var body: some View { Row() }
                struct Row: View { var body: some View { EmptyView() } }
                enum Section {
                    struct Header: View {}
                }
                func make() -> some View {
                    struct Local: View { var body: some View { EmptyView() } }
                    return Local()
                }
                var computed: some View {
                    struct AlsoLocal: View { var body: some View { EmptyView() } }
                    return AlsoLocal()
                }
            }
            extension Outer {
                struct Footer: View {}
            }
            extension Outer.Section where Self: Equatable {
                final class Controller: UIViewController {}
            }
            #Preview {
                struct PreviewOnly: View { var body: some View { EmptyView() } }
                return PreviewOnly()
            }
            struct Last: View {}
            """
        #expect(
            found(source) == [
                "Outer@1", "Outer.Row@3", "Outer.Section.Header@5", "Outer.Footer@17", "Outer.Section.Controller@20",
                "Last@26",
            ])
    }

    @Test("#if branches that each open a brace keep the nesting of what follows")
    func conditionalBranches() {
        let source = """
            #if os(iOS)
            final class Platform: UIViewController {
            #elseif os(tvOS)
            final class Platform: UIViewController, TVThing {
            #else
            final class Platform: NSViewController {
            #endif
                struct Header: View {}
            }
            #if DEBUG
            struct Debug: View {}
            #endif
            struct After: View {}
            """
        #expect(found(source) == ["Platform@2", "Platform@4", "Platform.Header@8", "Debug@11", "After@13"])
        let result = ScreenDiscovery.discover(in: [("Platform.swift", source)])
        #expect(result.screens.isEmpty)
        #expect(result.components.map(\.name) == ["After", "Debug", "Platform", "Platform.Header"])
        #expect(result.components.allSatisfy { $0.globs == ["Platform.*", "Platform+*.swift"] })
    }

    // MARK: - View controllers

    @Test(
        "Swift view controllers: a UIKit controller as the superclass, with any modifiers",
        arguments: [
            ("final class A: UIViewController {}", ["A@1"]),
            ("@MainActor open class A: UIKit.UITableViewController, UITableViewDelegate {}", ["A@1"]),
            ("public final class A<T>: UICollectionViewController where T: Hashable {}", ["A@1"]),
            ("@objc(XYZA) class A: UINavigationController {}", ["A@1"]), ("class A: UITabBarController {}", ["A@1"]),
            ("internal class A: UISplitViewController {}", ["A@1"]),
            ("class A: NSObject, UIViewController {}", []), ("class A: UIView {}", ["A@1 uikit-view"]),
            ("class A: UIViewControllerTransitioningDelegate {}", []), ("class A: Other.UIViewController {}", ["A@1"]),
            ("class A: UIHostingController<B> {}", ["A@1"]), ("struct A: UIViewController {}", []),
            // Other frameworks' controllers and views, by their names; not AppKit's, an alert or a picker.
            ("class A: TabmanViewController {}", ["A@1"]), ("class A: Pageboy.PageboyViewController {}", ["A@1"]),
            ("class A: ASDKNavigationController {}", ["A@1"]), ("class A: SwipeTableViewCell {}", ["A@1 uikit-view"]),
            ("class A: FLAnimatedImageView {}", ["A@1 uikit-view"]), ("class A: NSViewController {}", []),
            ("class A: NSView {}", []), ("class A: UIAlertController {}", []), ("class A: NSObject {}", []),
            ("class A: NSFetchedResultsController<B> {}", []), ("class A: UIPresentationController {}", []),
            ("import class UIKit.UIViewController\nclass A: UIViewController {}", ["A@2"]),
            ("protocol P: class {}\nclass A: UIViewController {}", ["A@2"]),
            ("enum E { class func make() -> UIViewController { UIViewController() } }", []),
            ("class C { class var x: UIViewController { fatalError() } }", []),
            ("guard let actor else { return }\nclass A: UIViewController {}", ["A@2"]),
        ])
    func swiftControllers(source: String, expected: [String]) {
        #expect(found(source) == expected)
    }

    @Test(
        "Objective-C view controllers: @interface with a UIKit superclass, not categories or extensions",
        arguments: [
            ("@interface A : UIViewController\n@end", ["A@1"]),
            (
                "#import <UIKit/UIKit.h>\n\nNS_ASSUME_NONNULL_BEGIN\n@interface A : UITableViewController <UITableViewDelegate>\n"
                    + "{\n    int count;\n}\n@end", ["A@4"]
            ),
            ("@interface Box<__covariant T> : UICollectionViewController\n@end", ["Box@1"]),
            ("@interface A ()\n@property int x;\n@end", []), ("@interface A (Refresh)\n@end", []),
            ("@interface A : NSObject\n@end", []),
            ("// @interface A : UIViewController\n/* @interface B : UIViewController */", []),
            ("NSString *s = @\"@interface A : UIViewController\";", []),
            (
                "#define MAKE(X) @interface X : UIViewController \\\n  @end\n@interface After : UIViewController",
                ["After@3"]
            ),
            ("char c = '\"'; @interface After : UIViewController", ["After@1"]),
            ("char c = '\\''; NSString *s = @\"\\\"\"; @interface After : UIViewController", ["After@1"]),
            ("/* a /* b */ @interface After : UIViewController", ["After@1"]),
        ])
    func objectiveCControllers(source: String, expected: [String]) {
        #expect(found(source, file: "A.h") == expected)
        #expect(found(source, file: "A.m") == expected)
    }

    @Test("other files are not read")
    func otherFiles() {
        let files = ["A.txt", "A.mm", "A.swift.orig", "A.md", "Makefile"].map { ($0, "struct A: View {}") }
        #expect(ScreenDiscovery.findViewTypes(in: files).isEmpty)
    }

    @Test("project base classes count transitively, across files and languages, whatever the file order")
    func transitiveBases() {
        let files: [(path: String, text: String)] = [
            ("A/Inbox/InboxViewController.swift", "final class InboxViewController: BaseViewController {}"),
            ("A/Orders/OrdersViewController.swift", "class OrdersViewController: ListBase<Order> {}"),
            ("A/Remote/RemoteViewController.swift", "class RemoteViewController: AppKit.BaseViewController {}"),
            ("A/Settings/SettingsViewController.swift", "class SettingsViewController: ListViewController {}"),
            ("Legacy/LegacyBase.h", "@interface LegacyBase : UITableViewController\n@end"),
            ("Legacy/LegacyBase.m", "@interface LegacyBase ()\n@end\n@implementation LegacyBase\n@end"),
            (
                "Legacy/ListViewController.h",
                "#import \"LegacyBase.h\"\n@interface ListViewController : LegacyBase\n@end"
            ),
            (
                "Model/Thing.swift",
                "class Thing: NSObject {}\nclass Derived: Thing {}\nclass Loop1: Loop2 {}\nclass Loop2: Loop1 {}"
            ),
            (
                "Flow/Flow.swift",
                """
                enum Flow {
                    class Base: UIViewController {}
                    class Step: Base {}
                    enum Inner { class Deep: Base {} }
                }
                class Outside: Base {}
                """
            ),
            ("Z/BaseViewController.swift", "class BaseViewController: UIViewController {}"),
            ("Z/ListBase.swift", "class ListBase<Item>: UIViewController {}"),
        ]
        let types = ScreenDiscovery.findViewTypes(in: files)
        #expect(
            types == [
                controller(
                    "InboxViewController", "A/Inbox/InboxViewController.swift", superclass: "BaseViewController"),
                controller("OrdersViewController", "A/Orders/OrdersViewController.swift", superclass: "ListBase"),
                controller(
                    "RemoteViewController",
                    "A/Remote/RemoteViewController.swift",
                    superclass: "AppKit.BaseViewController"
                ),
                controller(
                    "SettingsViewController",
                    "A/Settings/SettingsViewController.swift",
                    superclass: "ListViewController"
                ),
                controller("Flow.Base", "Flow/Flow.swift", superclass: "UIViewController", line: 2),
                controller("Flow.Step", "Flow/Flow.swift", superclass: "Base", line: 3),
                controller("Flow.Inner.Deep", "Flow/Flow.swift", superclass: "Base", line: 4),
                controller("LegacyBase", "Legacy/LegacyBase.h", superclass: "UITableViewController"),
                controller("ListViewController", "Legacy/ListViewController.h", superclass: "LegacyBase", line: 2),
                controller("BaseViewController", "Z/BaseViewController.swift", superclass: "UIViewController"),
                ViewType(
                    name: "ListBase", kind: .viewController, file: "Z/ListBase.swift", line: 1,
                    superclass: "UIViewController", isGeneric: true),
            ])
    }

    @Test("an Objective-C class declared in a header and a .m counts once, from the header")
    func objectiveCDuplicates() {
        let files: [(path: String, text: String)] = [
            ("A/Inbox.m", "@interface Inbox : UIViewController\n@end\n@implementation Inbox\n@end"),
            ("B/Inbox.h", "\n@interface Inbox : UIViewController\n@end"),
            ("C/Other.m", "@interface Other : UIViewController\n@end"),
            ("D/Other.m", "@interface Other : UIViewController\n@end"),
            ("Swift/Inbox.swift", "class Inbox: UIViewController {}"),
        ]
        #expect(
            ScreenDiscovery.findViewTypes(in: files) == [
                controller("Inbox", "B/Inbox.h", superclass: "UIViewController", line: 2),
                controller("Other", "C/Other.m", superclass: "UIViewController"),
                controller("Inbox", "Swift/Inbox.swift", superclass: "UIViewController"),
            ])
    }

    @Test("view types are sorted by file, then line, then source order")
    func order() {
        let files: [(path: String, text: String)] = [
            ("b.swift", "struct Z: View {}\nstruct Y: View {}; struct X: View {}"),
            ("a.swift", "\n\nstruct W: View {}"),
        ]
        #expect(
            ScreenDiscovery.findViewTypes(in: files) == [
                view("W", "a.swift", line: 3), view("Z", "b.swift"), view("Y", "b.swift", line: 2),
                view("X", "b.swift", line: 2),
            ])
    }

    // MARK: - Walking a directory

    @Test("a tree of SwiftUI and UIKit sources: what is found, what is skipped")
    func directory() throws {
        let root = try TemporaryDirectory.make(prefix: "discover")
        let outside = try TemporaryDirectory.make(prefix: "discover-outside")
        let files = [
            "App/HomeView.swift":
                "import SwiftUI\n\nstruct HomeView: View {\n    var body: some View { Text(\"Home\") }\n}",
            "App/Base/BaseViewController.swift": "import UIKit\n\nclass BaseViewController: UIViewController {}",
            "App/Inbox/InboxViewController.swift": "final class InboxViewController: BaseViewController {}",
            "App/Legacy/LegacyViewController.h": "@interface LegacyViewController : UITableViewController\n@end",
            "App/Legacy/LegacyViewController.m":
                "@interface LegacyViewController ()\n@end\n@implementation LegacyViewController\n@end",
            "App/Legacy/OldSettingsViewController.m":
                "@interface OldSettingsViewController : LegacyViewController\n@end",
            "App/README.md": "struct NotSource: View {}",
            "App/.Hidden.swift": "struct HiddenFile: View {}",
            ".git/Stray.swift": "struct HiddenDirectory: View {}",
            ".build/checkouts/Dependency.swift": "struct BuildProduct: View {}",
            "Pods/Pod/PodViewController.swift": "class PodViewController: UIViewController {}",
            "Carthage/Checkouts/Lib.swift": "struct CarthageView: View {}",
            "DerivedData/Gen.swift": "struct DerivedView: View {}",
            "build/Gen.swift": "struct BuildView: View {}",
            "node_modules/x/Gen.swift": "struct NodeView: View {}",
            "App/Nested/Pods/Deep.swift": "struct DeepPodView: View {}",
        ]
        for (path, text) in files { try write(text, to: root + "/" + path) }
        try write("struct Linked: View {}", to: outside + "/Linked.swift")
        try write("struct LinkedFile: View {}", to: outside + "/file/LinkedFile.swift")
        try FileManager.default.createSymbolicLink(atPath: root + "/App/LinkedDirectory", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/App/LinkedFile.swift",
            withDestinationPath: outside + "/file/LinkedFile.swift"
        )
        // A FIFO would block whoever opens it: neither it nor a link to it is read.
        #expect(mkfifo(root + "/App/Pipe.swift", 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/App/PipeLink.swift",
            withDestinationPath: root + "/App/Pipe.swift"
        )
        // Just over the cap, with a view on its first line: skipped whole.
        let big = "struct Big: View {}\n" + String(repeating: "// padding\n", count: (4 << 20) / 11 + 1)
        try write(big, to: root + "/App/Big.swift")
        try write("struct AtTheCap: View {}\n", to: root + "/App/AtTheCap.swift")

        let types = try ScreenDiscovery.findViewTypes(inDirectory: root + "/")
        #expect(
            types == [
                view("AtTheCap", "App/AtTheCap.swift"),
                controller(
                    "BaseViewController", "App/Base/BaseViewController.swift", superclass: "UIViewController", line: 3),
                view("HomeView", "App/HomeView.swift", line: 3),
                controller(
                    "InboxViewController", "App/Inbox/InboxViewController.swift", superclass: "BaseViewController"),
                controller(
                    "LegacyViewController", "App/Legacy/LegacyViewController.h", superclass: "UITableViewController"),
                controller(
                    "OldSettingsViewController",
                    "App/Legacy/OldSettingsViewController.m",
                    superclass: "LegacyViewController"
                ),
                view("LinkedFile", "App/LinkedFile.swift"),
            ])
        // None of them declares bars or is shown: all are components, the base classes marked.
        let result = try ScreenDiscovery.discover(sourceDirectory: root + "/")
        #expect(result.screens.isEmpty)
        #expect(
            result.components.map { "\($0.file)\($0.isBaseClass ? " base" : "")" } == [
                "App/AtTheCap.swift", "App/Base/BaseViewController.swift base", "App/HomeView.swift",
                "App/Inbox/InboxViewController.swift", "App/Legacy/LegacyViewController.h base", "App/LinkedFile.swift",
                "App/Legacy/OldSettingsViewController.m",
            ])
    }

    @Test("a file exactly at the size cap is read, one byte more is not")
    func sizeCap() throws {
        let root = try TemporaryDirectory.make(prefix: "discover-cap")
        let line = "struct Capped: View {}\n"
        let atCap = line + String(repeating: " ", count: ScreenDiscovery.maximumFileSize - line.utf8.count)
        try write(atCap, to: root + "/AtCap.swift")
        try write(atCap + " ", to: root + "/OverCap.swift")
        #expect(try ScreenDiscovery.findViewTypes(inDirectory: root).map(\.file) == ["AtCap.swift"])
    }

    @Test("a root that is missing or not a directory throws, naming the path")
    func unreadableRoot() throws {
        let root = try TemporaryDirectory.make(prefix: "discover-root")
        try write("struct A: View {}", to: root + "/A.swift")
        #expect(throws: CoreError.unreadableDirectory(path: root + "/missing", reason: "no such directory")) {
            try ScreenDiscovery.findViewTypes(inDirectory: root + "/missing")
        }
        #expect(throws: CoreError.unreadableDirectory(path: root + "/A.swift", reason: "not a directory")) {
            try ScreenDiscovery.findViewTypes(inDirectory: root + "/A.swift")
        }
        #expect(
            CoreError.unreadableDirectory(path: "src", reason: "not a directory").description
                == "cannot read the directory src: not a directory"
        )
        #expect(try ScreenDiscovery.findViewTypes(inDirectory: root).map(\.name) == ["A"])
    }

    private func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
