import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Components, the app area, poses per screen

    @Test("a component's finding counts for every screen that uses it, once in the project, triaged once")
    func componentsCountForTheirScreens() throws {
        let report = try ingestAllRules()
        try addScreen("Inbox", ["Sources/Screens.swift"])
        try addScreen("Settings", ["Sources/Unlock.swift"])
        _ = try ScreenStore.add(
            project: "app", key: "MenuRow", kind: .component, title: nil, owner: nil,
            paths: ["Sources/MenuView.swift"], actor: "ana", on: connection)
        // Unused, the component's findings are unmapped ones.
        #expect(try listed(on: "unmapped").filter { $0.contains("MenuView") } == Self.menuFile.sorted())
        for screen in ["Inbox", "Settings"] {
            _ = try ScreenStore.setUses(
                project: "app", screen: screen, component: "MenuRow", isRemoving: false, actor: "ana", on: connection)
        }
        #expect(try listed(on: "unmapped").filter { $0.contains("MenuView") }.isEmpty)
        for screen in ["Inbox", "Settings"] {
            #expect(try listed(on: screen).filter { $0.contains("MenuView") } == Self.menuFile.sorted())
            let reasons = try reasons(of: screen)
            #expect(reasons.first?.contains("DUO008 Sources/MenuView.swift:4") == true, "\(reasons)")
        }
        let status = try StatusStore.status(project: "app", on: connection)
        #expect(status.screens.map(\.key) == ["Inbox", "Settings", "app"])
        let settings = try #require(status.screens.first { $0.key == "Settings" })
        #expect(settings.work.total == 1 + 2)
        // Still one finding each, in the project's totals and in the summary of an owner of both screens.
        #expect(status.byStatus[.proposed] == 21)
        // And by severity: the rows count the component's two findings under both screens, the project once.
        #expect(status.screens.reduce(status.unmapped.total) { $0 + $1.work.total } == 21 + 2)
        #expect(status.work.total == 21)
        for (index, severity) in Severity.allCases.enumerated() {
            let reported = report.findings.filter { $0.severity == severity.rawValue }.count
            #expect(status.work.count(severity: index) == reported, "\(severity)")
        }
        for screen in ["Inbox", "Settings"] { try updateScreen(screen, ScreenChange(owner: "ana")) }
        let owners = try StatusStore.status(project: "app", on: connection).owners
        #expect(owners.map(\.owner) == ["ana"])
        let inboxOwn = try listed(on: "Inbox").count - 2
        #expect(owners.first?.work.total == inboxOwn + 1 + 2)
        let uses = Dictionary(
            uniqueKeysWithValues: try ScreenStore.list(project: "app", on: connection).map {
                ($0.screen.key, $0.screen.uses)
            })
        #expect(uses == ["Inbox": ["MenuRow"], "MenuRow": ["Inbox", "Settings"], "Settings": ["MenuRow"], "app": []])

        // A failed pose of a screen may map to its component's finding, not to another's.
        let menuFinding = try number(try findingID("DUO008", "Sources/MenuView.swift", 4))
        let mapped = try record(
            NewPoseResult(screen: "Settings", pose: "P3", result: .failed, screenshot: "p.png", finding: menuFinding))
        #expect(mapped.finding == menuFinding)

        // Triaged once, settled for both.
        try setStatus(try findingID("DUO008", "Sources/MenuView.swift", 4), .falsePositive, reason: "a menu")
        try setStatus(try findingID("DUO011", "Sources/MenuView.swift", 7), .kept, reason: "on purpose")
        #expect(try listed(on: "Settings").count == 3)
        #expect(!(try reasons(of: "Settings").first?.contains("MenuView") ?? false))

        // A use given by a glob finds (or makes) the component owning it; --remove takes it back.
        let inbox = try ScreenStore.setUses(
            project: "app", screen: "Inbox", component: "Sources/Strings.swift", isRemoving: false, actor: "ana",
            on: connection)
        #expect(inbox.uses == ["MenuRow", "Strings"])
        let removed = try ScreenStore.setUses(
            project: "app", screen: "Inbox", component: "Strings", isRemoving: true, actor: "ana", on: connection)
        #expect(removed.uses == ["MenuRow"])
        #expect(
            throws: StoreError.notFound("no component 'Nope' in project 'app'")
        ) {
            try ScreenStore.setUses(
                project: "app", screen: "Inbox", component: "Nope", isRemoving: false, actor: "ana", on: connection)
        }
        #expect(
            try events(["screen.uses"]).map { "\($0.subject) \($0.from ?? "-") \($0.to ?? "-")" } == [
                "Inbox - MenuRow", "Settings - MenuRow", "Inbox - Strings", "Inbox Strings -",
            ])
    }

    @Test("app-wide files belong to the app area, which has its own row, no steps and no poses")
    func appArea() throws {
        try ingestAllRules()
        #expect(try listed(on: "app") == Self.areaFiles.sorted())
        let status = try StatusStore.status(project: "app", on: connection)
        let area = try #require(status.screens.first { $0.key == AuditArea.app })
        #expect(area.kind == .area && area.work.total == 4)
        #expect(area.tally.stepsApplicable == 0 && area.requiredPoses.isEmpty)
        #expect(!area.tally.isDone)
        #expect(status.unmapped.total == 21 - 4)
        // The area's paths change like a screen's; it cannot be removed, and no screen may take its key.
        let (changed, moved) = try updateScreen(AuditArea.app, ScreenChange(addPaths: ["App/AppDelegate.swift"]))
        #expect(changed.kind == .area && moved == 1)
        #expect(!(try listed(on: "unmapped")).contains { $0.contains("AppDelegate") })
        #expect(throws: StoreError.self) {
            try ScreenStore.remove(project: "app", key: "app", actor: "a", on: connection)
        }
        #expect(!Names.isValidScreenKey("App") && !Names.isValidScreenKey("UNMAPPED"))
    }

    @Test("a screen's own poses replace the project's; a pose that cannot apply is recorded not_applicable")
    func posesPerScreen() throws {
        try addScreen("Debug", ["Sources/Debug/**"])
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let (debug, _) = try updateScreen("Debug", ScreenChange(poses: .poses(["P1", "P3"])))
        #expect(debug.requiredPoses == ["P1", "P3"])
        #expect(try readiness(of: "Debug").requiredPoses == ["P1", "P3"])
        #expect(try readiness(of: "Inbox").requiredPoses == Self.defaultPoses)
        #expect(
            try PoseStore.matrix(project: "app", screen: nil, on: connection).filter { $0.screen == "Debug" }
                .map(\.pose) == ["P1", "P3"])
        try record(passed("Debug", "P1"))
        let refused = #expect(throws: StoreError.self) {
            try record(NewPoseResult(screen: "Debug", pose: "P3", result: .notApplicable))
        }
        #expect(refused == .invalid("a pose that does not apply needs a reason"))
        try record(NewPoseResult(screen: "Debug", pose: "P3", result: .notApplicable, reason: "never rotates"))
        #expect(try readiness(of: "Debug").passedPoses == ["P1", "P3"])
        #expect(!(try reasons(of: "Debug").contains { $0.hasPrefix("pose") }))
        // None at all, then back to the project's.
        #expect(try updateScreen("Debug", ScreenChange(poses: .poses([]))).0.requiredPoses == [])
        #expect(try readiness(of: "Debug").requiredPoses.isEmpty)
        #expect(try updateScreen("Debug", ScreenChange(poses: .project)).0.requiredPoses == nil)
        #expect(try readiness(of: "Debug").requiredPoses == Self.defaultPoses)
        #expect(
            try events(["screen.updated"]).map { "\($0.subject): \($0.from ?? "") → \($0.to ?? "")" } == [
                "Debug poses: project → P1,P3", "Debug poses: P1,P3 → none", "Debug poses: none → project",
            ])
    }
}
