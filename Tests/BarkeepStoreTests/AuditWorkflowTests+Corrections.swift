import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Correcting discovery

    /// A component owning `paths`.
    @discardableResult
    private func addComponent(_ key: String, _ paths: [String]) throws -> Screen {
        try ScreenStore.add(
            project: "app", key: key, kind: .component, title: nil, owner: nil, paths: paths, actor: "ana",
            on: connection
        ).0
    }

    /// `user` uses `components` (or, removing, no longer does).
    @discardableResult
    private func uses(_ user: String, _ components: [String], removing: Bool = false) throws -> Screen {
        try ScreenStore.setUses(
            project: "app", user: user, components: components, isRemoving: removing, actor: "ana", on: connection)
    }

    /// Each unmapped finding as `RULE file: reason` (`excluded PATH` when excluded), sorted.
    private func unmappedReasons() throws -> [String] {
        try FindingStore.list(project: "app", query: FindingQuery(screens: [AuditArea.unmapped]), on: connection).map {
            finding in
            let reason = finding.unmapped.map { $0.rawValue + (finding.excludedBy.map { " \($0)" } ?? "") } ?? "none"
            return "\(finding.rule ?? finding.title ?? "") \(finding.file ?? "-"): \(reason)"
        }.sorted()
    }

    @Test("components use components: a screen counts what it reaches through them, and a use never goes round")
    func componentsUseComponents() throws {
        try ingestAllRules()
        try addScreen("Inbox", ["Sources/Screens.swift"])
        try addComponent("MenuRow", ["Sources/MenuView.swift"])
        try addComponent("Strings", ["Sources/Strings.swift"])
        try uses("Inbox", ["MenuRow"])
        let menu = try uses("MenuRow", ["Strings"])
        #expect(menu.components == ["Strings"])
        #expect(menu.uses == ["Inbox"])
        let inbox = try ScreenStore.show(project: "app", key: "Inbox", on: connection).screen
        #expect(inbox.uses == ["MenuRow", "Strings"])
        #expect(inbox.components == ["MenuRow"])
        #expect(
            try listed(on: "Inbox")
                == (Self.screensFile + Self.menuFile + Self.stringsFile).sorted())
        let status = try StatusStore.status(project: "app", on: connection)
        #expect(status.screens.first { $0.key == "Inbox" }?.work.total == 13)

        // Round: MenuRow uses Strings, so Strings may not use MenuRow; nothing uses itself; only components are used.
        #expect(
            throws: StoreError.invalid(
                "Strings cannot use MenuRow: MenuRow uses Strings, and a use cannot go round")
        ) { try uses("Strings", ["MenuRow"]) }
        #expect(throws: StoreError.invalid("Strings cannot use itself")) { try uses("Strings", ["Strings"]) }
        #expect(
            throws: StoreError.invalid("Inbox is a screen, not a component: only components are used")
        ) { try uses("MenuRow", ["Inbox"]) }
        #expect(throws: StoreError.invalid("the app area uses no components: they are used by screens")) {
            try uses(AuditArea.app, ["MenuRow"])
        }

        // A comma list is one transaction: one refused name changes nothing.
        #expect(throws: StoreError.self) { try uses("Inbox", ["Sources/Unlock.swift", "Nope"]) }
        #expect(try count("screens") == 4)
        let both = try uses("Inbox", ["Strings", "Sources/Unlock.swift"])
        #expect(both.components == ["MenuRow", "Strings", "Unlock"])

        // Without the component between them, the screen no longer reaches what it used.
        try uses("Inbox", ["Strings", "Unlock"], removing: true)
        _ = try ScreenStore.remove(project: "app", key: "MenuRow", actor: "ana", on: connection)
        #expect(try ScreenStore.show(project: "app", key: "Inbox", on: connection).screen.uses == [])
        #expect(try unmappedReasons().contains("DUO013 Sources/Strings.swift: unused-component"))
        #expect(
            try events(["screen.uses"]).map { "\($0.subject) \($0.from ?? "-") \($0.to ?? "-")" } == [
                "Inbox - MenuRow", "MenuRow - Strings", "Inbox - Strings", "Inbox - Unlock", "Inbox Strings -",
                "Inbox Unlock -",
            ])
    }

    @Test("a screen becomes a component in place and back: its globs, steps, poses and history stay")
    func kindInPlace() throws {
        try ingestAllRules()
        try addScreen("Inbox", ["Sources/Screens.swift"])
        try addScreen("Settings", ["Sources/Unlock.swift"])
        try setStep("order", of: "Settings", to: .done)
        try record(passed("Settings", "P1"))
        try updateScreen("Settings", ScreenChange(owner: "ana"))
        let before = try snapshot()

        let (component, _) = try updateScreen("Settings", ScreenChange(kind: .component))
        #expect(component.kind == .component)
        #expect(component.paths == ["Sources/Unlock.swift"])
        #expect(try unmappedReasons().contains("DUO013 Sources/Unlock.swift: unused-component"))
        try uses("Inbox", ["Settings"])
        #expect(try listed(on: "Inbox").contains("DUO013 Sources/Unlock.swift:2"))
        // Nothing was deleted: the steps and pose results wait, and count again once it is a screen again.
        var after = try snapshot()
        after["events"] = before["events"]
        #expect(after == before)

        let (screen, _) = try updateScreen("Settings", ScreenChange(kind: .screen))
        #expect(screen.kind == .screen && screen.owner == "ana")
        let summary = try ScreenStore.show(project: "app", key: "Settings", on: connection)
        #expect(summary.readiness.steps.first { $0.step.key == "order" }?.effective == .done)
        #expect(summary.readiness.passedPoses == ["P1"])
        // A screen is not used: Inbox's use of it went, with an event.
        #expect(try ScreenStore.show(project: "app", key: "Inbox", on: connection).screen.uses == [])
        #expect(
            try events(["screen.updated", "screen.uses"]).map {
                "\($0.kind) \($0.subject) \($0.from ?? "-") \($0.to ?? "-")"
            }.suffix(4) == [
                "screen.updated Settings kind screen component", "screen.uses Inbox - Settings",
                "screen.uses Inbox Settings -", "screen.updated Settings kind component screen",
            ])

        #expect(throws: StoreError.invalid("the app area is built in: its kind cannot change")) {
            try updateScreen(AuditArea.app, ScreenChange(kind: .component))
        }
        #expect(
            throws: StoreError.invalid("paths, titles and kinds are changed one screen at a time: name its key")
        ) {
            try ScreenStore.update(
                project: "app", screens: .keys(try #require(KeyGlob("*"))), change: ScreenChange(kind: .component),
                actor: "ana", on: connection)
        }
    }

    @Test("--screens GLOB --unowned changes only the rows no one owns")
    func unownedSelection() throws {
        for key in ["Account", "AccountList", "AccountEdit"] { try addScreen(key, ["Sources/\(key).swift"]) }
        try updateScreen("Account", ScreenChange(owner: "ana"))
        let updates = try ScreenStore.update(
            project: "app", screens: .unownedKeys(try #require(KeyGlob("Account*"))), change: ScreenChange(owner: "bo"),
            actor: "ana", on: connection)
        #expect(updates.map(\.screen.key) == ["AccountEdit", "AccountList"])
        let owners = try ScreenStore.list(project: "app", on: connection).map {
            "\($0.screen.key) \($0.screen.owner ?? "-")"
        }
        #expect(owners == ["Account ana", "AccountEdit bo", "AccountList bo", "app -"])
        #expect(throws: StoreError.notFound("project 'app' has no unowned screens matching 'Account*'")) {
            try ScreenStore.update(
                project: "app", screens: .unownedKeys(try #require(KeyGlob("Account*"))),
                change: ScreenChange(owner: "cy"), actor: "ana", on: connection)
        }
    }

    @Test("every unmapped finding says why: no glob, an unused component, an excluded path, no file")
    func unmappedReasonsOfFindings() throws {
        try ingestAllRules()
        try addScreen("Inbox", ["Sources/Screens.swift"])
        try addItem("Check the sheet", needs: [])
        try addComponent("MenuRow", ["Sources/MenuView.swift"])
        // Excluding a path is by directory or file: `Sources/Bar` is neither `Sources/Bar.m` nor its directory.
        let excluded = try ScreenStore.exclude(
            project: "app", paths: ["App/", "Sources/Bar"], why: "tests", isUndoing: false, actor: "ana",
            on: connection)
        #expect(excluded.map(\.path) == ["App", "Sources/Bar"])
        _ = try ScreenStore.remove(project: "app", key: "Inbox", actor: "ana", on: connection)
        #expect(
            try unmappedReasons() == [
                "Check the sheet -: no-file", "DUO001 Sources/Screens.swift: no-glob",
                "DUO002 Sources/Bar.m: no-glob", "DUO002 Sources/Screens.swift: no-glob",
                "DUO003 Sources/Screens.swift: no-glob", "DUO004 Sources/Screens.swift: no-glob",
                "DUO004 Sources/Screens.swift: no-glob", "DUO005 App/AppDelegate.swift: excluded App",
                "DUO006 Sources/Screens.swift: no-glob", "DUO007 Sources/Bar.m: no-glob",
                "DUO007 Sources/Screens.swift: no-glob", "DUO008 Sources/MenuView.swift: unused-component",
                "DUO009 Sources/Screens.swift: no-glob", "DUO009 Sources/Screens.swift: no-glob",
                "DUO010 Sources/Screens.swift: no-glob", "DUO011 Sources/MenuView.swift: unused-component",
                "DUO013 Sources/Strings.swift: no-glob", "DUO013 Sources/Unlock.swift: no-glob",
            ])
        // A finding a glob takes has no reason, excluded or not.
        let mapped = try FindingStore.list(
            project: "app", query: FindingQuery(screens: [AuditArea.app]), on: connection)
        #expect(!mapped.isEmpty && mapped.allSatisfy { $0.unmapped == nil && $0.excludedBy == nil })

        // Excluded again with other words, then included: events, and the reason is no glob again.
        try ScreenStore.exclude(
            project: "app", paths: ["App"], why: "a test target", isUndoing: false, actor: "ana", on: connection)
        try ScreenStore.exclude(project: "app", paths: ["App"], why: nil, isUndoing: true, actor: "ana", on: connection)
        #expect(try unmappedReasons().contains("DUO005 App/AppDelegate.swift: no-glob"))
        #expect(try ScreenStore.exclusions(project: "app", on: connection).map(\.path) == ["Sources/Bar"])
        #expect(
            try events(["screen.excluded"]).map { "\($0.subject) \($0.from ?? "-") \($0.to ?? "-")" } == [
                "App - tests", "Sources/Bar - tests", "App tests a test target", "App a test target -",
            ])
        #expect(throws: StoreError.notFound("'App' is not excluded in project 'app'")) {
            try ScreenStore.exclude(
                project: "app", paths: ["App"], why: nil, isUndoing: true, actor: "ana", on: connection)
        }
        for bad in ["/abs", "", "a,b"] {
            #expect(throws: StoreError.self) {
                try ScreenStore.exclude(
                    project: "app", paths: [bad], why: nil, isUndoing: false, actor: "ana", on: connection)
            }
        }
    }
}
