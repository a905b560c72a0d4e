import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Items that close

    @Test("an item goes proposed → approved → applied → verified by hand, and then no longer holds its step open")
    func itemLifecycleByHand() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Give the filter a title", step: 3, needs: [])
        #expect(item.status == .proposed)
        // Verified needs the fix applied first.
        let early = #expect(throws: StoreError.self) { try setStatus(item.id, .verified) }
        #expect(early == .conflict("finding \(item.number) is proposed: its fix must be applied before it is verified"))
        #expect(try setStatus(item.id, .approved).status == .approved)
        #expect(throws: StoreError.self) { try setStep("3", of: "Inbox", to: .done) }
        #expect(try setStatus(item.id, .applied).status == .applied)
        #expect(throws: StoreError.self) { try setStep("3", of: "Inbox", to: .done) }
        #expect(try setStatus(item.id, .verified).status == .verified)
        try setStep("3", of: "Inbox", to: .done)
        #expect(
            try events(["finding.status"]).map { "\($0.from ?? "") → \($0.to ?? "")" } == [
                "proposed → approved", "approved → applied", "applied → verified",
            ])
    }

    @Test("a scanner finding the scanner no longer reports can be marked verified; a reader can change nothing")
    func fixedFindingVerified() throws {
        try ingestAllRules()
        let id = try findingID("DUO008", "Sources/MenuView.swift", 4)
        try setStatus(id, .applied)
        _ = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: String(repeating: "c", count: 64), format: .duoScan, project: "app", actor: "ci"
            ), scan: ScanReport(format: .duoScan, tool: "duo_scan", findings: []), on: connection)
        #expect(try show(id).status == .fixed)
        let approve = #expect(throws: StoreError.self) { try setStatus(id, .approved) }
        #expect(
            approve
                == .conflict(
                    "finding \(try number(id)) is fixed; it can only be verified, declined, kept or marked "
                        + "false_positive"))
        #expect(try setStatus(id, .verified).status == .verified)
        let reader = #expect(throws: StoreError.self) {
            try FindingStore.setStatus(
                project: "app", number: try number(id), to: .approved, reason: nil, role: .reader, actor: "r",
                on: connection)
        }
        #expect(reader == .forbidden("a reader cannot change finding \(try number(id))"))
    }

    @Test("the item a failed pose created is verified when that pose passes on that screen, and only then")
    func poseVerifiesItsItem() throws {
        try addScreen("Inbox", ["Sources/Inbox/**"])
        try addScreen("Compose", ["Sources/Compose/**"])
        let failed = try record(
            NewPoseResult(
                screen: "Inbox", pose: "P3", result: .failed, screenshot: "p3.png", itemTitle: "Toolbar overlaps"))
        let item = try #require(failed.finding)
        // Another pose passing, or the same pose on another screen, leaves it open.
        try record(passed("Inbox", "P1"))
        try record(passed("Compose", "P3"))
        #expect(try status(of: item) == .proposed)
        let approved = try FindingStore.setStatus(
            project: "app", number: item, to: .approved, reason: nil, role: .writer, actor: "lead", on: connection)
        #expect(approved.status == .approved)
        try record(passed("Inbox", "P3"))
        #expect(try status(of: item) == .verified)
        #expect(
            try events(["finding.status"]).last
                == EventRow(
                    kind: "finding.status", subject: "Toolbar overlaps", from: "approved", to: "verified",
                    reason: "pose P3 passed", findingID: try findingRowID(item), actor: "qa"))
    }

    @Test("a failed pose maps only to an open finding or item of its own screen")
    func failedPoseMapping() throws {
        try ingestAllRules()
        try addScreen("Menu", ["Sources/MenuView.swift"])
        try addScreen("Other", ["Sources/Other/**"])
        let menuFinding = try number(try findingID("DUO008", "Sources/MenuView.swift", 4))
        let elsewhere = #expect(throws: StoreError.self) {
            try record(
                NewPoseResult(screen: "Other", pose: "P3", result: .failed, screenshot: "p.png", finding: menuFinding))
        }
        #expect(
            elsewhere
                == .invalid(
                    "finding \(menuFinding) belongs to screen Menu, not to Other: a failed pose maps to a finding or "
                        + "item of its screen or of a component it uses"))
        try setStatus(try findingID("DUO008", "Sources/MenuView.swift", 4), .falsePositive, reason: "a menu")
        let settled = #expect(throws: StoreError.self) {
            try record(
                NewPoseResult(screen: "Menu", pose: "P3", result: .failed, screenshot: "p.png", finding: menuFinding))
        }
        #expect(
            settled
                == .invalid(
                    "finding \(menuFinding) is false_positive: a failed pose maps to a finding or item that needs work "
                        + "(or give --item TITLE to add one)"))
    }

    @Test("an item is edited (an event per field; new needs block it at once) and removed (an event), never a scan's")
    func itemEditAndRemove() throws {
        try ingestAllRules()
        try addScreen("Inbox", ["Sources/Inbox/**"])
        let item = try addItem("Filter chip", step: 5, needs: [])
        let edited = try ItemStore.update(
            project: "app", number: item.number,
            ItemChanges(
                title: "Keep the filter chip horizontal", step: "axis", severity: "high", needs: ["axisBehavior"]),
            actor: "ana", on: connection)
        #expect(edited.title == "Keep the filter chip horizontal" && edited.severity == "high")
        #expect(edited.status == .blocked && edited.reason == "needs the iOS 27.1 SDK (axisBehavior)")
        #expect(
            try events(["item.updated"]).map { "\($0.subject): \($0.from ?? "∅") → \($0.to ?? "∅")" } == [
                "title: Filter chip → Keep the filter chip horizontal", "severity: medium → high",
                "needs:  → axisBehavior",
            ])
        // Needs taken away: back to what it was before it was blocked.
        let cleared = try ItemStore.update(
            project: "app", number: item.number, ItemChanges(needs: []), actor: "ana", on: connection)
        #expect(cleared.status == .proposed && cleared.reason == nil && cleared.needs.isEmpty)

        let scanner = try number(try findingID("DUO008", "Sources/MenuView.swift", 4))
        let refused = #expect(throws: StoreError.self) {
            try ItemStore.remove(project: "app", number: scanner, actor: "ana", on: connection)
        }
        #expect(
            refused
                == .invalid(
                    "finding \(scanner) comes from a scanner: only items added by hand are edited or removed; triage "
                        + "it with finding set"))
        try ItemStore.remove(project: "app", number: item.number, actor: "ana", on: connection)
        #expect(throws: StoreError.notFound("no finding \(item.number) in project 'app'")) {
            try FindingStore.show(project: "app", number: item.number, on: connection)
        }
        #expect(
            try events(["item.removed"]) == [
                EventRow(
                    kind: "item.removed", subject: "Keep the filter chip horizontal", from: "proposed", actor: "ana")
            ])
        // An item a pose result maps to keeps its evidence.
        let failed = try record(
            NewPoseResult(screen: "Inbox", pose: "P3", result: .failed, screenshot: "p.png", itemTitle: "Clipped"))
        let mapped = try #require(failed.finding)
        #expect(
            throws: StoreError.conflict(
                "item \(mapped) is the finding of pose P3 of Inbox: verify the pose, or decline the item")
        ) { try ItemStore.remove(project: "app", number: mapped, actor: "ana", on: connection) }
    }

    /// The status of finding `number` of app.
    func status(of number: Int) throws -> FindingStatus {
        try FindingStore.show(project: "app", number: number, on: connection).0.status
    }

    /// The row id of finding `number` of app.
    func findingRowID(_ number: Int) throws -> Int64 {
        let projectID = try #require(
            try connection.queryValue("SELECT id FROM projects WHERE name = 'app'", as: Int64.self))
        return try #require(
            try connection.queryValue(
                "SELECT id FROM findings WHERE project_id = $1 AND number = $2", [projectID, number], as: Int64.self))
    }
}
