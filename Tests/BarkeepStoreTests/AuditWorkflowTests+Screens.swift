import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Screens

    @Test("adding screens attributes the project's findings, and the most specific glob wins")
    func screensAttributeFindings() throws {
        try ingestAllRules()
        #expect(try listed(on: "unmapped").count == 17)
        // The app area owns the app-wide files from the project's creation.
        #expect(try listed(on: "app") == Self.areaFiles.sorted())

        let (screens, byScreens) = try addScreen("Screens", ["Sources/**"])
        #expect(screens.key == "Screens" && screens.paths == ["Sources/**"] && screens.title == nil)
        #expect(byScreens == 16)
        #expect(try listed(on: "Screens").count == 16)

        let (menu, byMenu) = try addScreen("Menu", ["Sources/MenuView.swift"])
        #expect(menu.paths == ["Sources/MenuView.swift"])
        #expect(byMenu == 2)
        // `Sources/*.m` has more literal characters than `Sources/**`.
        let (_, byBar) = try addScreen("Bar", ["Sources/*.m"])
        #expect(byBar == 2)

        #expect(try listed(on: "Menu") == Self.menuFile.sorted())
        #expect(try listed(on: "Bar") == Self.barFile.sorted())
        #expect(try listed(on: "Screens") == (Self.screensFile + Self.stringsFile + Self.unlockFile).sorted())
        #expect(try listed(on: "unmapped") == Self.appDelegateFile)
        #expect(try listed(on: "Screens").count == 12)
    }

    @Test("a glob another screen owns is refused naming that screen, and nothing is stored")
    func screenGlobTaken() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])
        let before = try snapshot()
        let attributed = try attribution()

        let adding = #expect(throws: StoreError.self) {
            try addScreen("Other", ["Sources/Other/**", "Sources/**"])
        }
        #expect(adding == .conflict("the glob 'Sources/**' already belongs to screen 'Screens'"))
        let taking = #expect(throws: StoreError.self) {
            try updateScreen("Menu", ScreenChange(addPaths: ["Sources/**"]))
        }
        #expect(taking == .conflict("the glob 'Sources/**' already belongs to screen 'Screens'"))

        #expect(try snapshot() == before)
        #expect(try attribution() == attributed)
        #expect(
            try ScreenStore.list(project: "app", on: connection).map(\.screen.key) == ["Menu", "Screens", "app"])
    }

    @Test("a screen key already taken is a conflict, and nothing is stored")
    func screenKeyTaken() throws {
        try addScreen("Screens", ["Sources/**"])
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) { try addScreen("Screens", ["Other/**"]) }
        #expect(error == .conflict("project 'app' already has a screen 'Screens'"))
        #expect(try snapshot() == before)
        #expect(
            try rows("SELECT glob FROM screen_paths p JOIN screens s ON s.id = p.screen_id WHERE s.kind = 'screen'")
                == [["Sources/**"]])
    }

    @Test("updating a screen's globs (replace, add, remove) re-attributes findings in the same call")
    func screenGlobsUpdate() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])

        let (replaced, movedByReplace) = try updateScreen("Screens", ScreenChange(paths: ["Sources/Screens.swift"]))
        #expect(replaced.paths == ["Sources/Screens.swift"])
        #expect(movedByReplace == 4)
        #expect(try listed(on: "Screens") == Self.screensFile.sorted())
        #expect(
            try listed(on: "unmapped")
                == (Self.appDelegateFile + Self.barFile + Self.stringsFile + Self.unlockFile).sorted())

        let (added, movedByAdd) = try updateScreen(
            "Screens", ScreenChange(addPaths: ["Sources/Bar.m", "Sources/Unlock.swift"]))
        #expect(added.paths == ["Sources/Bar.m", "Sources/Screens.swift", "Sources/Unlock.swift"])
        #expect(movedByAdd == 3)
        #expect(try listed(on: "Screens") == (Self.screensFile + Self.barFile + Self.unlockFile).sorted())

        let (removed, movedByRemove) = try updateScreen("Screens", ScreenChange(removePaths: ["Sources/Bar.m"]))
        #expect(removed.paths == ["Sources/Screens.swift", "Sources/Unlock.swift"])
        #expect(movedByRemove == 2)

        let (both, movedByBoth) = try updateScreen(
            "Screens", ScreenChange(addPaths: ["Sources/**"], removePaths: ["Sources/Unlock.swift"]))
        #expect(both.paths == ["Sources/**", "Sources/Screens.swift"])
        #expect(movedByBoth == 3)
        #expect(
            try attribution()
                == owned(Self.screensFile + Self.barFile + Self.stringsFile + Self.unlockFile, by: "Screens")
                .merging(owned(Self.menuFile, by: "Menu")) { $1 }.merging(owned(Self.areaFiles, by: "app")) { $1 }
                .merging(owned(Self.appDelegateFile, by: "unmapped")) { $1 })

        let (titled, movedByTitle) = try updateScreen("Screens", ScreenChange(title: "Screens", owner: "ana"))
        #expect(titled.title == "Screens" && titled.owner == "ana" && titled.paths == both.paths)
        #expect(movedByTitle == 0)
    }

    @Test("removing a glob the screen does not own is notFound, and nothing changes")
    func screenGlobNotOwned() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])
        let before = try snapshot()
        let attributed = try attribution()

        let missing = #expect(throws: StoreError.self) {
            try updateScreen("Screens", ScreenChange(removePaths: ["Sources/Nope.swift"]))
        }
        #expect(missing == .notFound("screen 'Screens' does not own 'Sources/Nope.swift'"))
        let others = #expect(throws: StoreError.self) {
            try updateScreen("Screens", ScreenChange(removePaths: ["Sources/**", "Sources/MenuView.swift"]))
        }
        #expect(others == .notFound("screen 'Screens' does not own 'Sources/MenuView.swift'"))

        #expect(try snapshot() == before)
        #expect(try attribution() == attributed)
        #expect(try ScreenStore.show(project: "app", key: "Screens", on: connection).screen.paths == ["Sources/**"])
    }

    @Test("removing a screen re-attributes its findings, unmaps its items, deletes its steps and pose results")
    func screenRemove() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/**"])
        try addScreen("Menu", ["Sources/MenuView.swift"])
        try addScreen("Plist", ["App/Info.plist"])
        let item = try addItem("Move the filter menu into the overflow", step: 7, needs: [], screen: "Menu")
        try setStep("order", of: "Menu", to: .done)
        try setStep("order", of: "Screens", to: .done)
        try record(passed("Menu", "P1"))
        try record(passed("Screens", "P1"))

        #expect(try ScreenStore.remove(project: "app", key: "Menu", actor: "ana", on: connection) == 3)
        #expect(try listed(on: "Screens").count == 16)
        #expect(try listed(on: "Screens").filter { $0.contains("MenuView") } == Self.menuFile.sorted())
        let unmappedItem = try show(item.id)
        #expect(unmappedItem.screen == nil && unmappedItem.source == "manual" && unmappedItem.status == .proposed)
        #expect(unmappedItem.step == 7 && unmappedItem.title == "Move the filter menu into the overflow")
        // Only the remaining screen's step state and pose result are left.
        #expect(
            try rows("SELECT s.key, t.step FROM step_states t JOIN screens s ON s.id = t.screen_id") == [
                ["Screens", "2"]
            ])
        #expect(
            try rows("SELECT s.key, r.pose FROM pose_results r JOIN screens s ON s.id = r.screen_id") == [
                ["Screens", "P1"]
            ])
        #expect(try count("step_states") == 1 && count("pose_results") == 1)

        // No other screen matches App/Info.plist: its findings go to unmapped, with the item.
        #expect(try ScreenStore.remove(project: "app", key: "Plist", actor: "ana", on: connection) == 2)
        #expect(
            try listed(on: "unmapped") == (Self.appDelegateFile + ["Move the filter menu into the overflow"]).sorted())

        let removed = try events(["screen.removed"])
        #expect(
            removed == [
                EventRow(kind: "screen.removed", subject: "Menu", from: "Sources/MenuView.swift", actor: "ana"),
                EventRow(kind: "screen.removed", subject: "Plist", from: "App/Info.plist", actor: "ana"),
            ])
        let missing = #expect(throws: StoreError.self) {
            try ScreenStore.remove(project: "app", key: "Menu", actor: "ana", on: connection)
        }
        #expect(missing == .notFound("no screen 'Menu' in project 'app'"))
    }

    @Test("screen.added, screen.updated and screen.removed events record each change, and only changes")
    func screenEvents() throws {
        let start = try EventLog.head(on: connection)
        try addScreen("Inbox", ["Sources/Inbox/**", "Sources/Inbox/**", "Sources/Mail/*.swift"])
        try updateScreen("Inbox", ScreenChange(title: "Inbox", owner: "ana"))
        try updateScreen("Inbox", ScreenChange(title: "Inbox", removePaths: ["Sources/Mail/*.swift"]))
        try updateScreen("Inbox", ScreenChange(paths: ["Sources/Inbox/**"]))
        _ = try ScreenStore.remove(project: "app", key: "Inbox", actor: "ana", on: connection)

        #expect(
            try events(["screen.added", "screen.updated", "screen.removed"], after: start) == [
                EventRow(
                    kind: "screen.added", subject: "Inbox", to: "Sources/Inbox/**,Sources/Mail/*.swift", actor: "ana"),
                EventRow(kind: "screen.updated", subject: "Inbox title", to: "Inbox", actor: "ana"),
                EventRow(kind: "screen.updated", subject: "Inbox owner", to: "ana", actor: "ana"),
                EventRow(
                    kind: "screen.updated", subject: "Inbox paths", from: "Sources/Inbox/**,Sources/Mail/*.swift",
                    to: "Sources/Inbox/**", actor: "ana"),
                EventRow(kind: "screen.removed", subject: "Inbox", from: "Sources/Inbox/**", actor: "ana"),
            ])
    }
}
