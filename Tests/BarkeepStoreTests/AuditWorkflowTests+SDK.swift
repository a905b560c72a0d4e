import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Blocked until the SDK moves

    @Test("moving to the 27.1 SDK unblocks exactly the 27.1 items, gated, one event each, in one transaction")
    func sdkUnblocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let edge = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])
        let compression = try addItem(
            "Compress the toolbar first", step: 8, needs: ["toolbarVerticalCompressionBehavior"])
        let priority = try addItem("Rank the toolbar items", step: 9, needs: ["visibilityPriority"])
        #expect([axis, edge, compression, priority].map(\.status) == [.blocked, .blocked, .blocked, .proposed])
        let start = try EventLog.head(on: connection)

        let update = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        #expect(update.previous.sdk == "27.0" && update.project.sdk == "27.1")
        #expect(
            update.itemChanges.map(describe) == [
                "\(axis.id) Keep the filter chip horizontal on Inbox: blocked → proposed gate 27.1",
                "\(edge.id) Read the bar edge in the header on Inbox: blocked → proposed gate 27.1",
                "\(compression.id) Compress the toolbar first on Inbox: blocked → proposed gate 27.1",
            ])
        let reason = "the project moved to the iOS 27.1 SDK; needs if #available(iOS 27.1, *)"
        #expect(
            try events(["project.updated", "finding.status"], after: start) == [
                EventRow(kind: "project.updated", subject: "sdk", from: "27.0", to: "27.1", actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Keep the filter chip horizontal", from: "blocked",
                    to: "proposed", reason: reason, findingID: axis.id, actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Read the bar edge in the header", from: "blocked",
                    to: "proposed", reason: reason, findingID: edge.id, actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Compress the toolbar first", from: "blocked", to: "proposed",
                    reason: reason, findingID: compression.id, actor: "lead"),
            ])
        for item in [axis, edge, compression, priority] {
            #expect(try stored(item.id) == ["proposed", "NULL", "NULL"])
        }
        #expect(try show(axis.id).gate == SDKVersion(27, 1))
        #expect(try show(priority.id).gate == SDKVersion(27, 0))
        // One transaction: now() is the transaction's start, the same for every row it wrote.
        #expect(
            try connection.queryValue("SELECT count(DISTINCT at) FROM events WHERE seq > $1", [start], as: Int.self)
                == 1)
        #expect(
            try connection.queryValue(
                "SELECT count(*) FROM findings WHERE updated_at = (SELECT max(at) FROM events)", as: Int.self) == 3)
    }

    @Test("an item approved before it was blocked returns to approved when the SDK comes back")
    func sdkRestoresApproved() throws {
        _ = try ProjectStore.update(name: "app", sdk: "27.1", actor: "lead", on: connection)
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        #expect(item.status == .proposed && item.gate == SDKVersion(27, 1))
        #expect(try setStatus(item.id, .approved).status == .approved)
        let start = try EventLog.head(on: connection)

        let down = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 0), actor: "lead", on: connection)
        #expect(
            down.itemChanges.map(describe) == [
                "\(item.id) Keep the filter chip horizontal on Inbox: approved → blocked "
                    + "(needs the iOS 27.1 SDK (axisBehavior))"
            ])
        #expect(try stored(item.id) == ["blocked", "approved", "needs the iOS 27.1 SDK (axisBehavior)"])

        let up = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        #expect(
            up.itemChanges.map(describe) == [
                "\(item.id) Keep the filter chip horizontal on Inbox: blocked → approved gate 27.1"
            ])
        #expect(try stored(item.id) == ["approved", "NULL", "NULL"])
        #expect(
            try events(["finding.status"], after: start) == [
                EventRow(
                    kind: "finding.status", subject: "Keep the filter chip horizontal", from: "approved", to: "blocked",
                    reason: "needs the iOS 27.1 SDK (axisBehavior)", findingID: item.id, actor: "lead"),
                EventRow(
                    kind: "finding.status", subject: "Keep the filter chip horizontal", from: "blocked", to: "approved",
                    reason: "the project moved to the iOS 27.1 SDK; needs if #available(iOS 27.1, *)",
                    findingID: item.id, actor: "lead"),
            ])
    }

    @Test("a blocked item cannot be approved by hand but can be declined, and the SDK leaves declined items alone")
    func sdkBlockedTriage() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let before = try snapshot()
        for status in [FindingStatus.approved, .applied] {
            let error = #expect(throws: StoreError.self) { try setStatus(item.id, status) }
            #expect(
                error
                    == .conflict(
                        "finding \(try number(item.id)) (needs the iOS 27.1 SDK (axisBehavior)) is blocked; it "
                            + "unblocks when the project's SDK has what it needs (barkeep sdk set), or it can be "
                            + "declined, kept or marked false_positive"))
        }
        #expect(try snapshot() == before)
        #expect(try stored(item.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])

        let declined = try setStatus(item.id, .declined, reason: "the chip goes away in the redesign")
        #expect(declined.status == .declined && declined.reason == "the chip goes away in the redesign")
        #expect(try stored(item.id) == ["declined", "NULL", "the chip goes away in the redesign"])

        #expect(
            try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection).itemChanges == [])
        #expect(
            try SDKStore.setSDK(project: "app", to: SDKVersion(27, 0), actor: "lead", on: connection).itemChanges == [])
        #expect(try stored(item.id) == ["declined", "NULL", "the chip goes away in the redesign"])
        #expect(try events(["finding.status"]).map(\.to) == ["declined"])
    }

    @Test("an item re-opened by hand while the SDK still lacks its symbol is not workable: blocked, or refused")
    func sdkReopenedItemStaysBlocked() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        try setStatus(item.id, .declined, reason: "not now")

        // DESIGN.md: with the project's SDK below the symbol's SDK an item is blocked; only the SDK unblocks it.
        do {
            let reopened = try setStatus(item.id, .approved)
            #expect(reopened.status == .blocked, "approved on the 27.0 SDK although it needs axisBehavior (27.1)")
            #expect(try stored(item.id) == ["blocked", "approved", "needs the iOS 27.1 SDK (axisBehavior)"])
        } catch let error as StoreError {
            guard case .conflict = error else {
                Issue.record("expected a conflict, got \(error)")
                return
            }
            #expect(try stored(item.id) == ["declined", "NULL", "not now"])
        }
    }

    @Test("ProjectStore.update with a new SDK unblocks items the same way, and a target at 27.1 needs no gate")
    func projectUpdateUnblocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let hinge = try addItem("Avoid the hinge", step: 6, needs: ["UIHinge", "visibilityPriority"])
        let update = try ProjectStore.update(
            name: "app", sdk: "27.1", deploymentTarget: "27.1", actor: "lead", on: connection)
        #expect(
            update.itemChanges.map(describe) == [
                "\(axis.id) Keep the filter chip horizontal on Inbox: blocked → proposed",
                "\(hinge.id) Avoid the hinge on Inbox: blocked → proposed",
            ])
        #expect(try stored(axis.id) == ["proposed", "NULL", "NULL"])
        #expect(
            try events(["finding.status"]).map(\.reason) == [
                "the project moved to the iOS 27.1 SDK", "the project moved to the iOS 27.1 SDK",
            ])
        #expect(try show(hinge.id).gate == nil)
    }

    @Test("the blocked list has one entry per missing symbol, by SDK (undeclared last), symbol, then item")
    func sdkBlockedList() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let a = try addItem("A", step: 5, needs: ["axisBehavior", "toolbarVerticalEdge"])
        let b = try addItem("B", step: 10, needs: ["barMinimizationBehavior"])
        let c = try addItem("C", step: 6, needs: ["UIHinge", "axisBehavior"])
        let d = try addItem("D", step: 6, needs: ["futureSymbol"], sdkForUnknown: SDKVersion(27, 2))
        let e = try addItem("E", step: 9, needs: ["visibilityPriority", "axisBehavior"])
        try addItem("F", step: 9, needs: ["visibilityPriority"])
        try setStatus(try addItem("G", needs: ["axisBehavior"]).id, .declined, reason: "not needed")

        let entries = try SDKStore.blocked(project: "app", on: connection).map { entry in
            "\(entry.sdk?.description ?? "none") \(entry.symbol) \(entry.finding.title ?? "") \(entry.finding.id)"
        }
        #expect(
            entries == [
                "27.1 UIHinge C \(c.id)",
                "27.1 axisBehavior A \(a.id)",
                "27.1 axisBehavior C \(c.id)",
                "27.1 axisBehavior E \(e.id)",
                "27.1 toolbarVerticalEdge A \(a.id)",
                "27.2 futureSymbol D \(d.id)",
                "none barMinimizationBehavior B \(b.id)",
            ])
    }

    // MARK: - SDK checks

    @Test("an SDK check finding a symbol in the 27.0 SDK unblocks items needing it, gated on 27.0; again is a repeat")
    func sdkCheckUnblocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let edge = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let bytes = sdkCheck(sdk: "27.0", [("toolbarVerticalEdge", true, "iOS 27.0")])

        let result = try ingestCheck(bytes)
        #expect(!result.isRepeat && result.checkedSDK == SDKVersion(27, 0))
        #expect(result.found == 1 && result.symbols == 1)
        #expect(result.run.format == "sdk-check" && result.run.tool == "sdk_check" && result.run.actor == "ci")
        #expect(
            result.itemChanges.map(describe) == [
                "\(edge.id) Read the bar edge in the header on Inbox: blocked → proposed gate 27.0"
            ])
        #expect(try stored(edge.id) == ["proposed", "NULL", "NULL"])
        #expect(try stored(axis.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])
        #expect(try show(edge.id).gate == SDKVersion(27, 0))
        #expect(
            try rows("SELECT symbol, found, checked_sdk, checked_run FROM sdk_checks") == [
                ["toolbarVerticalEdge", "t", "27.0", String(result.run.id)]
            ])
        #expect(try rows("SELECT symbol, sdk FROM project_symbols") == [["toolbarVerticalEdge", "27.0"]])
        #expect(
            try events(["sdk.checked", "finding.status"]) == [
                EventRow(
                    kind: "sdk.checked", subject: "sdk_check", to: "1 of 1 symbols in the iOS 27.0 SDK", actor: "ci"),
                EventRow(
                    kind: "finding.status", subject: "Read the bar edge in the header", from: "blocked",
                    to: "proposed",
                    reason: "the SDK check found its symbols in the iOS 27.0 SDK; needs if #available(iOS 27.0, *)",
                    findingID: edge.id, actor: "ci"),
            ])

        let before = try snapshot()
        let again = try ingestCheck(bytes)
        #expect(again.isRepeat && again.run.id == result.run.id && again.itemChanges.isEmpty)
        #expect(try snapshot() == before)
    }

    @Test("an SDK check not finding a symbol the table dates at or below the project's SDK blocks items needing it")
    func sdkCheckBlocks() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Rank the toolbar items", step: 9, needs: ["visibilityPriority"])
        #expect(item.status == .proposed)

        let result = try ingestCheck(sdkCheck(sdk: "27.0", [("visibilityPriority", false, nil)]))
        #expect(result.found == 0 && result.symbols == 1)
        let reason = "the SDK check did not find visibilityPriority in the iOS 27.0 SDK"
        #expect(
            result.itemChanges.map(describe) == [
                "\(item.id) Rank the toolbar items on Inbox: proposed → blocked (\(reason))"
            ])
        #expect(try stored(item.id) == ["blocked", "proposed", reason])
        #expect(
            try events(["finding.status"]) == [
                EventRow(
                    kind: "finding.status", subject: "Rank the toolbar items", from: "proposed", to: "blocked",
                    reason: reason, findingID: item.id, actor: "ci")
            ])
        // A new item needing it is blocked from the start.
        #expect(try addItem("Rank the tab items", step: 9, needs: ["visibilityPriority"]).reason == reason)
    }

    @Test("a check of the 27.1 SDK on a 27.0 project decides nothing until the project moves to 27.1")
    func sdkCheckOfAnotherSDK() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let axis = try addItem("Keep the filter chip horizontal", step: 5, needs: ["axisBehavior"])
        let minimize = try addItem("Minimize the bar on scroll", step: 10, needs: ["barMinimizationBehavior"])
        let edge = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])

        let result = try ingestCheck(
            sdkCheck(
                sdk: "27.1",
                [
                    ("axisBehavior", false, nil), ("barMinimizationBehavior", true, "iOS 27.1"),
                    ("toolbarVerticalEdge", true, "@available(iOS 27.1, *)"),
                ]))
        #expect(!result.isRepeat && result.checkedSDK == SDKVersion(27, 1) && result.found == 2)
        #expect(result.itemChanges.isEmpty)
        #expect([axis, minimize, edge].map { (try? stored($0.id))?.first } == ["blocked", "blocked", "blocked"])
        #expect(try stored(axis.id) == ["blocked", "proposed", "needs the iOS 27.1 SDK (axisBehavior)"])
        #expect(try events(["finding.status"]).isEmpty)

        let update = try SDKStore.setSDK(project: "app", to: SDKVersion(27, 1), actor: "lead", on: connection)
        #expect(
            update.itemChanges.map(describe) == [
                "\(minimize.id) Minimize the bar on scroll on Inbox: blocked → proposed gate 27.1",
                "\(edge.id) Read the bar edge in the header on Inbox: blocked → proposed gate 27.1",
            ])
        #expect(
            try stored(axis.id) == [
                "blocked", "proposed", "the SDK check did not find axisBehavior in the iOS 27.1 SDK",
            ])

        // A later check of another SDK leaves the answer for the project's SDK alone.
        let other = try ingestCheck(sdkCheck(sdk: "27.2", [("axisBehavior", true, "iOS 27.1")]))
        #expect(other.itemChanges.isEmpty)
        #expect(try stored(axis.id).first == "blocked")
        #expect(
            try rows("SELECT checked_sdk, found FROM sdk_checks WHERE symbol = 'axisBehavior' ORDER BY checked_sdk")
                == [["27.1", "f"], ["27.2", "t"]])
    }

    @Test("an SDK check that does not parse stores nothing")
    func sdkCheckParseError() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Read the bar edge in the header", step: 6, needs: ["toolbarVerticalEdge"])
        let before = try snapshot()
        let bytes = Array(
            #"{"tool":"sdk_check","sdk":"27.0","symbols":[{"symbol":"toolbarVerticalEdge","found":"yes"}]}"#.utf8)
        let error = #expect(throws: CoreError.self) { try ingestCheck(bytes) }
        #expect(error == .invalidDocument(path: "symbols[0].found", problem: "expected true or false"))
        let badSDK = #expect(throws: CoreError.self) {
            try ingestCheck(Array(#"{"sdk":"27.x","symbols":[]}"#.utf8))
        }
        #expect(badSDK == .invalidDocument(path: "sdk", problem: "expected a version such as 27.1"))
        #expect(try snapshot() == before)
        #expect(try count("scan_runs") == 0)
        #expect(try stored(item.id).first == "blocked")
    }
}
