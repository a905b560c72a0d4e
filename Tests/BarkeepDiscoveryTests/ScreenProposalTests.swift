import BarkeepCore
import BarkeepDiscovery
import Testing

/// Swift source declaring each of `names` as a SwiftUI view with a navigation title (a screen); a dotted name is
/// declared inside an extension of its enclosing type.
private func screenSource(_ names: String...) -> String {
    names.map { name in
        let parts = name.split(separator: ".").map(String.init)
        let declaration =
            "struct \(parts.last ?? name): View { var body: some View { Text(\"\").navigationTitle(\"\") } }"
        guard parts.count > 1 else { return declaration }
        return "extension \(parts.dropLast().joined(separator: ".")) { \(declaration) }"
    }.joined(separator: "\n")
}

/// Proposing screens: one per group of files, its key, its globs.
@Suite("ScreenDiscovery proposals")
struct ScreenProposalTests {
    @Test("one screen per group, keyed by the type named like the group, else the first top-level one")
    func keys() {
        let files: [(path: String, text: String)] = [
            ("Inbox/InboxView.swift", screenSource("Helper", "InboxView", "InboxView.Row")),
            ("Rows.swift", screenSource("Outer.Row", "Outer.Cell")),
            ("Misc.swift", screenSource("A", "B")),
            ("Inbox/Badge.swift", screenSource("InboxView.Badge", "Lonely.Nested")),
        ]
        let screens = ScreenDiscovery.discover(in: files).screens
        #expect(screens.map(\.key) == ["A", "InboxView", "InboxView.Badge", "Outer.Row"])
        #expect(
            screens.map(\.types) == [
                ["A", "B"], ["Helper", "InboxView", "InboxView.Row"], ["InboxView.Badge", "Lonely.Nested"],
                ["Outer.Row", "Outer.Cell"],
            ])
        #expect(screens.map { $0.globs.first ?? "" } == ["Misc.*", "Inbox/InboxView.*", "Inbox/Badge.*", "Rows.*"])
        #expect(screens[0].reasons == ["A: navigationTitle", "B: navigationTitle"])
    }

    @Test("base view controllers are never screens: they are components marked as bases")
    func bases() {
        let files: [(path: String, text: String)] = [
            (
                "Base/BaseViewController.swift",
                "class BaseViewController: UIViewController { func f() { title = \"\" } }"
            ),
            ("Base/ListViewController.swift", "class ListViewController: BaseViewController {}"),
            (
                "Inbox/InboxViewController.swift",
                "final class InboxViewController: ListViewController { func f() { navigationItem.prompt = nil } }"
            ),
        ]
        let result = ScreenDiscovery.discover(in: files)
        #expect(result.screens.map(\.key) == ["InboxViewController"])
        #expect(result.components.map(\.name) == ["BaseViewController", "ListViewController"])
        // Their code runs in the screens deriving from them, directly or not.
        #expect(result.components.allSatisfy { $0.isBaseClass && $0.usedBy == ["InboxViewController"] })
    }

    @Test("an Objective-C header, its .m, a Swift file and extension files of one name are one group")
    func groups() {
        let controller = "@interface InboxViewController : UIViewController\n@end"
        let files: [(path: String, text: String)] = [
            ("Legacy/InboxViewController.h", controller),
            (
                "Legacy/InboxViewController.m",
                "@implementation InboxViewController\n- (void)f { self.title = @\"\"; }\n@end"
            ),
            ("Legacy/InboxViewController+Refresh.m", "@implementation InboxViewController (Refresh)\n@end"),
            (
                "Legacy/InboxViewController.swift",
                "class InboxHelperViewController: UIViewController { func f() { navigationItem.prompt = nil } }"
            ),
        ]
        let screen = ScreenDiscovery.discover(in: files).screens
        #expect(
            screen == [
                ProposedScreen(
                    key: "InboxViewController",
                    globs: ["Legacy/InboxViewController.*", "Legacy/InboxViewController+*"],
                    types: ["InboxViewController", "InboxHelperViewController"],
                    reasons: ["InboxViewController: title", "InboxHelperViewController: navigationItem"]
                )
            ])
        for path in files.map(\.path) {
            #expect(screen.first?.globs.contains { PathGlob($0).matches(path) } == true, "\(path)")
        }
    }

    @Test(
        "keys are made valid, collisions qualified by directory, then numbered in file order",
        arguments: [
            (
                [("RowView", "Settings/RowView.swift"), ("RowView", "Profile/RowView.swift")],
                [("Profile.RowView", "Profile/RowView.*"), ("Settings.RowView", "Settings/RowView.*")]
            ),
            (
                [
                    ("RowView", "B/Settings/RowView.swift"), ("RowView", "A/Settings/RowView.swift"),
                    ("RowView", "RowView.swift"),
                ],
                [
                    ("RowView", "RowView.*"), ("Settings.RowView", "A/Settings/RowView.*"),
                    ("Settings.RowView-2", "B/Settings/RowView.*"),
                ]
            ),
            (
                [("RowView", "A/RowView.swift"), ("RowView", "B/RowView.swift"), ("A.RowView", "C.swift")],
                [("A.RowView", "A/RowView.*"), ("A.RowView-2", "C.*"), ("B.RowView", "B/RowView.*")]
            ),
            (
                [("Café", "Café.swift"), ("_Private", "Private.swift"), ("é_é", "x/Odd.swift")],
                [("Caf", "Café.*"), ("Odd", "x/Odd.*"), ("Private", "Private.*")]
            ),
            ([("日本", "Screens/日本.swift")], [("Screens", "Screens/日本.*")]),
            (
                [("Unmapped", "Lists/Unmapped.swift"), ("UNMAPPED", "UNMAPPED.swift")],
                [("Lists.Unmapped", "Lists/Unmapped.*"), ("Screen", "UNMAPPED.*")]
            ),
            ([(String(repeating: "A", count: 200), "Long.swift")], [(String(repeating: "A", count: 128), "Long.*")]),
            (
                [
                    (String(repeating: "A", count: 200), "a/d/Long.swift"),
                    (String(repeating: "A", count: 200), "b/d/Long.swift"),
                ],
                // Sorted by key: "-" sorts before "A".
                [
                    ("d." + String(repeating: "A", count: 124) + "-2", "b/d/Long.*"),
                    ("d." + String(repeating: "A", count: 126), "a/d/Long.*"),
                ]
            ),
            ([("A", "Odd,Dir/A.swift"), ("B", "Tab\tDir/B.swift")], [("A", "Odd?Dir/A.*"), ("B", "Tab?Dir/B.*")]),
            ([("A", String(repeating: "d/", count: 600) + "A.swift"), ("B", "B.swift")], [("B", "B.*")]),
        ] as [([(String, String)], [(String, String)])])
    func keyRules(types: [(String, String)], expected: [(String, String)]) {
        let screens = ScreenDiscovery.discover(in: types.map { ($0.1, screenSource($0.0)) }).screens
        #expect(screens.map(\.key) == expected.map(\.0))
        #expect(screens.map { $0.globs.first ?? "" } == expected.map(\.1))
        for screen in screens {
            #expect(isValidKey(screen.key), "\(screen.key)")
        }
        #expect(Set(screens.map(\.key)).count == screens.count)
    }

    /// The screens table's rule: `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`, not `unmapped` in any case.
    private func isValidKey(_ key: String) -> Bool {
        func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        guard let first = key.unicodeScalars.first, isAlphanumeric(first), key.unicodeScalars.count <= 128 else {
            return false
        }
        return key.unicodeScalars.allSatisfy { isAlphanumeric($0) || "._-".unicodeScalars.contains($0) }
            && key.lowercased() != "unmapped"
    }

    @Test("no sources propose nothing")
    func nothing() {
        #expect(ScreenDiscovery.discover(in: []) == DiscoveryResult())
    }
}
