import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - What each event is about

    /// What the events of `kind` after `seq` are about, oldest first: `#N SCREEN [SCREENS]`, `-` for what is unset.
    func about(_ kind: EventKind, after seq: Int64 = 0) throws -> [String] {
        try EventLog.events(after: seq, limit: 10_000, on: connection).filter { $0.kind == kind.rawValue }.map(about)
    }

    /// One event's number, screen and screens as `#N SCREEN [SCREENS]`.
    func about(_ event: Event) -> String {
        "#\(event.findingNumber.map(String.init) ?? "-") \(event.screen ?? "-") [\(event.screens.joined(separator: ","))]"
    }

    @Test("every event about a finding or an item carries its number, its owner then, and the screens it counts for")
    func eventsNameTheirFinding() throws {
        try ingestAllRules(announcingEach: true)
        // Before any screen, a finding is unmapped, counted for no screen, unless the app area owns its file.
        let found = try about(.findingNew)
        #expect(found.count == 21 && Set(found).count == 21 && !found.contains { $0.hasPrefix("#- ") })
        #expect(found.filter { $0.hasSuffix(" app [app]") }.count == Self.areaFiles.count, "\(found)")
        #expect(found.filter { $0.hasSuffix(" unmapped []") }.count == 21 - Self.areaFiles.count, "\(found)")

        var start = try EventLog.head(on: connection)
        try addScreen("Inbox", ["Sources/Screens.swift"])
        try addScreen("Settings", ["Sources/Unlock.swift"])
        _ = try ScreenStore.add(
            project: "app", key: "MenuRow", kind: .component, title: nil, owner: nil,
            paths: ["Sources/MenuView.swift"], actor: "ana", on: connection)
        // A component nothing uses yet counts for no screen.
        #expect(
            try about(.screenAdded, after: start) == ["#- Inbox [Inbox]", "#- Settings [Settings]", "#- MenuRow []"])
        for screen in ["Settings", "Inbox"] {
            _ = try ScreenStore.setUses(
                project: "app", screen: screen, component: "MenuRow", isRemoving: false, actor: "ana", on: connection)
        }
        #expect(try about(.screenUses, after: start) == ["#- Settings [Settings]", "#- Inbox [Inbox]"])

        // Triage: a screen's finding, a component's (counted for both users, by key), an app-wide file's.
        start = try EventLog.head(on: connection)
        let inbox = try findingID("DUO007", "Sources/Screens.swift", 7)
        let menu = try findingID("DUO008", "Sources/MenuView.swift", 4)
        let plist = try findingID("DUO020", "App/Info.plist", 1)
        let unmapped = try findingID("DUO002", "Sources/Bar.m", 2)
        for id in [inbox, menu, plist, unmapped] { try setStatus(id, .approved) }
        #expect(
            try about(.findingStatus, after: start) == [
                "#\(try number(inbox)) Inbox [Inbox]", "#\(try number(menu)) MenuRow [Inbox,Settings]",
                "#\(try number(plist)) app [app]", "#\(try number(unmapped)) unmapped []",
            ])

        // Items: added, edited, moved by the SDK, and removed (the number outlives the row).
        start = try EventLog.head(on: connection)
        let item = try addItem("Keep the filter chip horizontal", needs: ["axisBehavior"], screen: "Settings")
        _ = try ItemStore.update(
            project: "app", number: item.number, ItemChanges(title: "Keep the chip horizontal"), actor: "ana",
            on: connection)
        _ = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        try ItemStore.remove(project: "app", number: item.number, actor: "ana", on: connection)
        let itemAbout = "#\(item.number) Settings [Settings]"
        #expect(try about(.findingNew, after: start) == [itemAbout])
        #expect(try about(.itemUpdated, after: start) == [itemAbout])
        #expect(try about(.findingStatus, after: start) == [itemAbout])
        #expect(try about(.itemRemoved, after: start) == [itemAbout])
        #expect(try about(.projectUpdated, after: start) == ["#- - []"])
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM events WHERE finding_number = $1 AND finding_id IS NULL", [item.number],
                as: Int.self) == 4)

        // A failed pose of a screen names the screen, and the component's finding it maps to; a step its screen.
        start = try EventLog.head(on: connection)
        try record(
            NewPoseResult(
                screen: "Settings", pose: "P3", result: .failed, screenshot: "p.png", finding: try number(menu)))
        try record(passed("Inbox", "P1"))
        try setStep("order", of: "Inbox", to: .notApplicable, note: "one bar")
        #expect(
            try about(.poseRecorded, after: start) == ["#\(try number(menu)) Settings [Settings]", "#- Inbox [Inbox]"])
        #expect(try about(.stepState, after: start) == ["#- Inbox [Inbox]"])

        // Every event about a finding has its number; every event about a screen its key.
        for event in try EventLog.events(after: 0, limit: 10_000, on: connection) {
            let kind = try #require(EventKind(rawValue: event.kind), "a kind Core does not know: \(event.kind)")
            if kind.rawValue.hasPrefix("finding.") || kind.rawValue.hasPrefix("item.") {
                #expect(event.findingNumber != nil && event.screen != nil, "\(event)")
            }
            if kind.isAboutScreen { #expect(event.screen != nil, "\(event)") }
            if event.screen == nil { #expect(event.screens.isEmpty) }
        }
    }

    @Test("a screen's history holds its own events, uses among them, and those of the findings it owns")
    func screenHistoryByScreenColumn() throws {
        try ingestAllRules(announcingEach: true)
        try addScreen("Inbox", ["Sources/Screens.swift"])
        _ = try ScreenStore.add(
            project: "app", key: "MenuRow", kind: .component, title: nil, owner: nil,
            paths: ["Sources/MenuView.swift"], actor: "ana", on: connection)
        _ = try ScreenStore.setUses(
            project: "app", screen: "Inbox", component: "MenuRow", isRemoving: false, actor: "ana", on: connection)
        try setStatus(try findingID("DUO007", "Sources/Screens.swift", 7), .approved)
        try setStatus(try findingID("DUO008", "Sources/MenuView.swift", 4), .approved)
        let history = try ScreenStore.history(project: "app", key: "Inbox", on: connection)
        #expect(
            history.map(\.kind).filter { $0 != EventKind.findingNew.rawValue } == [
                "screen.added", "screen.uses", "finding.status",
            ])
        #expect(history.filter { $0.kind == EventKind.findingNew.rawValue }.count == Self.screensFile.count)
    }
}
