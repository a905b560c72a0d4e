import BarkeepCore
import Testing

@Suite("Suggestions for unknown names")
struct NameSuggestionTests {
    static let keys = ["SettingsView", "SettingsViewController", "Inbox", "InboxRow", "Feed", "Fed", "Profile"]

    @Test(
        "equal but for case first, then the smallest edit distance within a third of the name",
        arguments: [
            ("Settingsview", ["SettingsView"]),
            ("settingsview", ["SettingsView"]),
            ("SettingView", ["SettingsView"]),
            ("Inbx", ["Inbox"]),
            ("InboxRows", ["InboxRow"]),
            ("Fee", ["Feed", "Fed"]),
            ("Profil", ["Profile"]),
            ("Zebra", []),
            ("Inbox", []),
            ("", []),
        ] as [(String, [String])])
    func closest(_ name: String, _ expected: [String]) {
        #expect(NameSuggestion.closest(to: name, among: Self.keys) == expected, "\(name)")
    }

    @Test("SDK symbols: a typo finds the symbol, case aside; noise finds nothing")
    func symbols() {
        let known = ["axisBehavior", "verticalBarEdge", "UIVerticalBarEdge", "toolbarVerticalEdge", "ReservedRegion"]
        #expect(NameSuggestion.closest(to: "axisBehaviour", among: known) == ["axisBehavior"])
        #expect(NameSuggestion.closest(to: "AXISBEHAVIOR", among: known) == ["axisBehavior"])
        #expect(NameSuggestion.closest(to: "verticalBarEdg", among: known) == ["verticalBarEdge"])
        #expect(NameSuggestion.closest(to: "zzzzzzzzzzzz", among: known).isEmpty)
    }

    @Test("at most three, quoted in the refusal")
    func hint() {
        let many = ["ab1", "ab2", "ab3", "ab4"]
        #expect(NameSuggestion.closest(to: "ab", among: many) == ["ab1", "ab2", "ab3"])
        #expect(NameSuggestion.hint([]) == "")
        #expect(NameSuggestion.hint(["A"]) == " (did you mean 'A'?)")
        #expect(NameSuggestion.hint(["A", "B", "C"]) == " (did you mean 'A', 'B' or 'C'?)")
    }
}
