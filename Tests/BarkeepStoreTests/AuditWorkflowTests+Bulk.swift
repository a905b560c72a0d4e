import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Bulk screen and step changes

    /// Screens Account1…Account3 and Inbox1…Inbox2 (Account1 owning Sources/Screens.swift, where an open DUO007
    /// keeps step 1 open), a component AccountRow and the app area.
    private func addBulkScreens() throws {
        try ingestAllRules()
        try addScreen("Account1", ["Sources/Screens.swift"])
        for key in ["Account2", "Account3", "Inbox1", "Inbox2"] { try addScreen(key, ["Sources/\(key)/**"]) }
        _ = try ScreenStore.add(
            project: "app", key: "AccountRow", kind: .component, title: nil, owner: nil,
            paths: ["Sources/AccountRow.swift"], actor: "ana", on: connection)
    }

    private func glob(_ pattern: String) throws -> ScreenSelection { .keys(try #require(KeyGlob(pattern))) }

    private func bulkStep(_ selection: ScreenSelection, _ step: String, _ state: StepState) throws -> [StepChange] {
        try StepStore.set(
            project: "app", screens: selection, step: step, to: state, note: nil, actor: "ana", on: connection)
    }

    @Test("step set over a glob, an owner and all: components skipped, an event per change, done refused where open")
    func bulkSteps() throws {
        try addBulkScreens()
        let seq = try EventLog.head(on: connection)
        let changes = try bulkStep(try glob("Account*"), "container", .done)
        // AccountRow is a component: it has no steps, and is reported skipped with why.
        #expect(changes.map(\.screen) == ["Account1", "Account2", "Account3", "AccountRow"])
        #expect(changes.map(\.outcome) == [.refused, .changed, .changed, .skipped])
        #expect(changes[3].reason?.contains("AccountRow is a component") == true)
        #expect(changes[0].status.blockers.map(\.label) == ["DUO007 Sources/Screens.swift:7"])
        #expect(changes[0].status.recorded == .todo)
        #expect(
            try events(["step.state"], after: seq).map(\.subject) == [
                "Account2 step 1 (container)", "Account3 step 1 (container)",
            ])
        #expect(try rows("SELECT count(*) FROM step_states WHERE step = 1") == [["2"]])

        // Again: the two done ones are unchanged, no event; the refused one still refused.
        #expect(
            try bulkStep(try glob("Account*"), "1", .done).map(\.outcome) == [
                .refused, .unchanged, .unchanged, .skipped,
            ])
        #expect(try events(["step.state"], after: seq).count == 2)

        // not_applicable is never refused; all sets every screen's and skips the component and the app area.
        let all = try bulkStep(.all, "opt-out", .notApplicable)
        #expect(
            all.filter { $0.outcome != .skipped }.map(\.screen) == [
                "Account1", "Account2", "Account3", "Inbox1", "Inbox2",
            ])
        #expect(all.filter { $0.outcome == .changed }.count == 5)
        #expect(Set(all.filter { $0.outcome == .skipped }.map(\.screen)) == ["AccountRow", "app"])
        // A dry run reports the same and writes nothing.
        let seqBefore = try EventLog.head(on: connection)
        let dry = try StepStore.set(
            project: "app", screens: .all, step: "sheets", to: .done, note: nil, actor: "ana", isDryRun: true,
            on: connection)
        #expect(dry.filter { $0.outcome == .changed }.count == 5)
        #expect(try EventLog.head(on: connection) == seqBefore)
        #expect(try rows("SELECT count(*) FROM step_states WHERE step = 12") == [["0"]])

        _ = try ScreenStore.update(
            project: "app", screens: try glob("Inbox?"), change: ScreenChange(owner: "bo"), actor: "ana",
            on: connection)
        #expect(try bulkStep(.owner("bo"), "sheets", .done).map(\.screen) == ["Inbox1", "Inbox2"])

        // A single key keeps the refusal as the error, and a component named by its key is refused.
        #expect(throws: StoreError.self) { try bulkStep(.key("Account1"), "1", .done) }
        #expect(throws: StoreError.self) { try bulkStep(.key("AccountRow"), "1", .notApplicable) }
    }

    @Test("a selection picking nothing, or an unknown step, changes nothing")
    func bulkRefusals() throws {
        try addBulkScreens()
        let before = try snapshot()
        let none = #expect(throws: StoreError.self) { try bulkStep(try glob("Settings*"), "1", .done) }
        #expect(none == .notFound("project 'app' has no screens matching 'Settings*'"))
        #expect(throws: StoreError.self) { try bulkStep(.owner("zoe"), "1", .done) }
        #expect(throws: StoreError.self) { try bulkStep(.all, "99", .done) }
        #expect(throws: StoreError.self) {
            try ScreenStore.remove(project: "app", screens: try glob("Nothing*"), actor: "ana", on: connection)
        }
        // Poses for a component named by its key refuse the whole change, owners included.
        #expect(throws: StoreError.self) {
            try ScreenStore.update(
                project: "app", screens: .key("AccountRow"),
                change: ScreenChange(owner: "ana", poses: .poses(["P1"])), actor: "ana", on: connection)
        }
        // Titles and paths belong to one screen.
        #expect(throws: StoreError.self) {
            try ScreenStore.update(
                project: "app", screens: try glob("Inbox*"), change: ScreenChange(title: "Inbox"), actor: "ana",
                on: connection)
        }
        #expect(try snapshot() == before)
        #expect(try rows("SELECT count(*) FROM screens WHERE owner IS NOT NULL") == [["0"]])
    }

    @Test("screen set over a glob sets every match's owner in one go; remove over a glob removes and dismisses each")
    func bulkScreens() throws {
        try addBulkScreens()
        let seq = try EventLog.head(on: connection)
        let updates = try ScreenStore.update(
            project: "app", screens: try glob("Account*"), change: ScreenChange(owner: "ana"), actor: "bo",
            on: connection)
        #expect(updates.map(\.screen.key) == ["Account1", "Account2", "Account3", "AccountRow"])
        #expect(updates.allSatisfy { $0.isChanged && $0.screen.owner == "ana" })
        #expect(try events(["screen.updated"], after: seq).count == 4)
        let again = try ScreenStore.update(
            project: "app", screens: try glob("Account*"), change: ScreenChange(owner: "ana"), actor: "bo",
            on: connection)
        #expect(again.allSatisfy { !$0.isChanged })

        // Poses over a glob: the screens take them, the component is skipped (its owner still set).
        let mixed = try ScreenStore.update(
            project: "app", screens: try glob("Account*"), change: ScreenChange(owner: "bo", poses: .poses(["P1"])),
            actor: "bo", on: connection)
        #expect(mixed.map(\.skipped) == [[], [], [], [.poses]])
        #expect(mixed.allSatisfy { $0.screen.owner == "bo" })
        #expect(mixed.map { $0.screen.requiredPoses } == [["P1"], ["P1"], ["P1"], nil])

        let owned = try rows(
            "SELECT count(*) FROM findings f JOIN screens s ON s.id = f.screen_id WHERE s.key = 'Account1'")
        let preview = try ScreenStore.remove(
            project: "app", screens: try glob("Account?"), actor: "bo", isDryRun: true, on: connection)
        #expect(preview.map(\.key) == ["Account1", "Account2", "Account3"])
        #expect(try rows("SELECT count(*) FROM screens WHERE key LIKE 'Account_'") == [["3"]])
        let removed = try ScreenStore.remove(
            project: "app", screens: try glob("Account?"), actor: "bo", on: connection)
        #expect(removed.map(\.key) == ["Account1", "Account2", "Account3"])
        #expect(removed.map { String($0.findings) } == [owned[0][0], "0", "0"])
        #expect(
            try rows("SELECT key FROM screens WHERE kind <> 'area' ORDER BY key") == [
                ["AccountRow"], ["Inbox1"], ["Inbox2"],
            ])
        #expect(
            try rows("SELECT key FROM screen_dismissals ORDER BY key") == [["Account1"], ["Account2"], ["Account3"]])
        #expect(try events(["screen.removed"], after: seq).map(\.subject) == ["Account1", "Account2", "Account3"])
        // Account1's findings went back to unmapped.
        #expect(try listed(on: "unmapped").count >= Int(owned[0][0]) ?? 0)

        // The app area cannot be removed, even by a key.
        #expect(throws: StoreError.self) {
            try ScreenStore.remove(project: "app", key: "app", actor: "bo", on: connection)
        }
    }
}
