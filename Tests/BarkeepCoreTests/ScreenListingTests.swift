import Testing

@testable import BarkeepCore

@Suite("ScreenSelection and ScreenListing")
struct ScreenListingTests {
    @Test(
        "a key glob matches whole keys: * any characters, ? one",
        arguments: [
            ("Account*", "Account1", true), ("Account*", "Account", true), ("Account*", "MyAccount1", false),
            ("Account?", "Account7", true), ("Account?", "Account12", false), ("*View", "InboxView", true),
            ("*", "app", true), ("Inbox", "Inbox", true), ("Inbox", "inbox", false), ("A*c*", "Abc", true),
        ])
    func glob(pattern: String, key: String, matches: Bool) throws {
        let glob = try #require(KeyGlob(pattern))
        #expect(glob.matches(key) == matches)
        #expect(ScreenSelection.keys(glob).includes(key: key, owner: nil) == matches)
    }

    @Test("a key glob holds only a key's characters and * ?", arguments: ["", "Sources/*", "a b", "x,y", "é*"])
    func badGlob(pattern: String) {
        #expect(KeyGlob(pattern) == nil)
    }

    @Test("an owner selection picks that owner's rows; all every row; a key its own")
    func selections() {
        #expect(ScreenSelection.owner("ana").includes(key: "A", owner: "ana"))
        #expect(!ScreenSelection.owner("ana").includes(key: "A", owner: nil))
        #expect(ScreenSelection.all.includes(key: "A", owner: nil))
        #expect(ScreenSelection.key("A").includes(key: "A", owner: "bo") && ScreenSelection.key("A").isSingleKey)
        #expect(!ScreenSelection.all.isSingleKey)
    }

    private let rows = [
        ScreenListing.Row(key: "A", kind: .screen, owner: "bo", isDone: true, needsWork: 0),
        ScreenListing.Row(key: "B", kind: .screen, owner: nil, isDone: false, needsWork: 3),
        ScreenListing.Row(key: "C", kind: .screen, owner: "ana", isDone: false, needsWork: 0),
        ScreenListing.Row(key: "D", kind: .component, owner: "ana", isDone: false, needsWork: 3),
        ScreenListing.Row(key: "app", kind: .area, owner: nil, isDone: false, needsWork: 9),
    ]

    private func keys(_ listing: ScreenListing) -> ([String], Int) {
        let (shown, matched) = listing.apply(rows) { $0 }
        return (shown.map(\.key), matched)
    }

    @Test("filters, orders and limits; matched counts the rows before the limit")
    func listing() {
        #expect(keys(ScreenListing()) == (["A", "B", "C", "D", "app"], 5))
        #expect(keys(ScreenListing(owner: "ana")) == (["C", "D"], 2))
        #expect(keys(ScreenListing(isNotDoneOnly: true)) == (["B", "C", "D", "app"], 4))
        #expect(keys(ScreenListing(order: .work)) == (["app", "B", "D", "C", "A"], 5))
        #expect(keys(ScreenListing(order: .owner)) == (["C", "D", "A", "B", "app"], 5))
        #expect(keys(ScreenListing(order: .work, limit: 2)) == (["app", "B"], 5))
        #expect(keys(ScreenListing(kind: .screen)) == (["A", "B", "C"], 3))
        #expect(!ScreenListing().isFiltering && ScreenListing(limit: 1).isFiltering)
    }

    @Test("each status needing work has one stage, the others none")
    func stages() {
        for status in FindingStatus.allCases {
            #expect((WorkStage(status) != nil) == status.needsWork, "\(status)")
        }
        #expect(WorkStage.untriaged.statuses == [.proposed])
        #expect(WorkStage.inProgress.statuses == [.approved, .applied])
        #expect(WorkStage.blocked.statuses == [.blocked])
    }
}
