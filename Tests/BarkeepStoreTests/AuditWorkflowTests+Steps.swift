import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Checklist steps

    @Test("a step with an open finding of its rules cannot be done, by number or key, until the finding is declined")
    func stepBlockedByFinding() throws {
        try ingestAllRules()
        try addScreen("Screens", ["Sources/Screens.swift"])
        let standaloneBar = try findingID("DUO007", "Sources/Screens.swift", 7)
        let before = try snapshot()

        for step in ["1", "container"] {
            let error = #expect(throws: StoreError.self) { try setStep(step, of: "Screens", to: .done) }
            #expect(
                error
                    == .conflict(
                        "step 1 (container) of Screens cannot be done: finding \(standaloneBar) "
                            + "(DUO007 Sources/Screens.swift:7) is open"))
            #expect(error?.description.contains("finding \(standaloneBar) ") == true)
        }
        #expect(try snapshot() == before)

        try setStatus(standaloneBar, .declined, reason: "the camera keeps its own toolbar")
        let status = try setStep("container", of: "Screens", to: .done)
        #expect(status.step == ChecklistStep.numbered(1))
        #expect(status.step.rules == ["DUO007"])
        #expect(status.recorded == .done && status.blockers.isEmpty && status.effective == .done)
        let readiness = try ScreenStore.show(project: "app", key: "Screens", on: connection).readiness
        #expect(readiness.steps[0].effective == .done)
        #expect(try rows("SELECT step, state, actor FROM step_states") == [["1", "done", "ana"]])
    }

    @Test("a finding of a component the screen uses keeps the step open: done is refused, as the screen counts it")
    func stepBlockedByComponentFinding() throws {
        try ingestAllRules()
        try addScreen("Settings", ["Sources/Unlock.swift"])
        _ = try ScreenStore.add(
            project: "app", key: "MenuRow", kind: .component, title: nil, owner: nil,
            paths: ["Sources/MenuView.swift"], actor: "ana", on: connection)
        _ = try ScreenStore.setUses(
            project: "app", screen: "Settings", component: "MenuRow", isRemoving: false, actor: "ana", on: connection)
        let menuOverflow = try findingID("DUO011", "Sources/MenuView.swift", 7)
        let before = try snapshot()
        let error = #expect(throws: StoreError.self) { try setStep("overflow", of: "Settings", to: .done) }
        let held = "finding \(menuOverflow) (DUO011 Sources/MenuView.swift:7) is open"
        #expect(error?.description.contains(held) == true, "\(String(describing: error))")
        #expect(try snapshot() == before)
        // What the screen shows agrees: the step is todo, held open by the component's finding.
        let readiness = try ScreenStore.show(project: "app", key: "Settings", on: connection).readiness
        let overflow = try #require(readiness.steps.first { $0.step.key == "overflow" })
        #expect(overflow.effective == .todo && overflow.blockers.map(\.number) == [Int(menuOverflow)])

        try setStatus(menuOverflow, .declined, reason: "the menu row never shows overflow")
        #expect(try setStep("overflow", of: "Settings", to: .done).effective == .done)
    }

    @Test("a step set done reads as todo once a new finding of its rule opens on the screen")
    func stepReopenedByFinding() throws {
        var report = try ingestAllRules()
        try addScreen("Screens", ["Sources/Screens.swift"])
        try setStatus(try findingID("DUO007", "Sources/Screens.swift", 7), .declined, reason: "kept on purpose")
        try setStep("1", of: "Screens", to: .done)

        report.findings.append(
            ScanFinding(
                rule: "DUO007", title: "Standalone bar instance", severity: "medium", file: "Sources/Screens.swift",
                line: 12, snippet: "let tabs = UITabBar()"))
        let second = try ScanStore.ingest(
            IngestRequest(
                ScanUpload([]), digest: SHA256Digest.hex(of: "all-rules plus a tab bar".utf8), format: .duoScan,
                project: "app", actor: "ci"), scan: report, on: connection)
        #expect(second.run.counts.new == 1 && second.run.counts.fixed == 0)
        let tabBar = try findingID("DUO007", "Sources/Screens.swift", 12)

        let step = try ScreenStore.show(project: "app", key: "Screens", on: connection).readiness.steps[0]
        #expect(step.recorded == .done)
        #expect(step.effective == .todo)
        #expect(step.blockers.map(\.number) == [try number(tabBar)])
        #expect(
            try reasons(of: "Screens").contains(
                "step 1 (container) is marked done but finding \(tabBar) (DUO007 Sources/Screens.swift:12) "
                    + "of it is open"
            ))
        // What the person recorded stays recorded.
        #expect(try rows("SELECT step, state FROM step_states") == [["1", "done"]])
    }

    @Test("an open item of a step blocks that step only, whether proposed or blocked on the SDK")
    func stepBlockedByItem() throws {
        try addScreen("Compose", ["Sources/Compose/**"])
        let item = try addItem("Give the send button a symbol", step: 3, needs: [], screen: "Compose")
        let axis = try addItem(
            "Keep the recipients field horizontal", step: 5, needs: ["axisBehavior"], screen: "Compose")
        #expect(axis.status == .blocked)

        let title = #expect(throws: StoreError.self) { try setStep("3", of: "Compose", to: .done) }
        #expect(
            title
                == .conflict(
                    "step 3 (title-and-symbol) of Compose cannot be done: finding \(item.id) "
                        + "(Give the send button a symbol) is open"))
        let blocked = #expect(throws: StoreError.self) { try setStep("axis", of: "Compose", to: .done) }
        #expect(
            blocked
                == .conflict(
                    "step 5 (axis) of Compose cannot be done: finding \(axis.id) "
                        + "(Keep the recipients field horizontal) is open"))
        #expect(try setStep("4", of: "Compose", to: .done).recorded == .done)

        try setStatus(item.id, .declined, reason: "the button is text-only by design")
        #expect(try setStep("title-and-symbol", of: "Compose", to: .done).recorded == .done)
        #expect(try rows("SELECT step, state FROM step_states ORDER BY step") == [["3", "done"], ["4", "done"]])
    }

    @Test("an unknown step is invalid and an unknown screen notFound; nothing is stored")
    func stepUnknown() throws {
        try addScreen("Compose", ["Sources/Compose/**"])
        let before = try snapshot()
        for step in ["13", "0", "containers", ""] {
            let error = #expect(throws: StoreError.self) { try setStep(step, of: "Compose", to: .done) }
            #expect(
                error
                    == .invalid(
                        "unknown checklist step '\(step)': steps are 1 to 12 or "
                            + Self.stepKeys.joined(separator: ", ")))
        }
        let screen = #expect(throws: StoreError.self) { try setStep("1", of: "Nope", to: .done) }
        #expect(screen == .notFound("no screen 'Nope' in project 'app'"))
        #expect(try snapshot() == before)
    }

    @Test("every step change writes one step.state event; setting what is already set writes none")
    func stepEvents() throws {
        try addScreen("Compose", ["Sources/Compose/**"])
        try addItem("Give the send button a symbol", step: 3, needs: [], screen: "Compose")
        let start = try EventLog.head(on: connection)

        try setStep("2", of: "Compose", to: .done)
        try setStep("order", of: "Compose", to: .done)
        try setStep("11", of: "Compose", to: .notApplicable, note: "no hero image")
        try setStep("backgrounds", of: "Compose", to: .notApplicable, note: "no hero image")
        try setStep("11", of: "Compose", to: .notApplicable)
        try setStep("2", of: "Compose", to: .todo)
        try setStep("12", of: "Compose", to: .todo)
        _ = #expect(throws: StoreError.self) { try setStep("3", of: "Compose", to: .done) }

        #expect(
            try events(["step.state"], after: start) == [
                EventRow(kind: "step.state", subject: "Compose step 2 (order)", from: "todo", to: "done", actor: "ana"),
                EventRow(
                    kind: "step.state", subject: "Compose step 11 (backgrounds)", from: "todo", to: "not_applicable",
                    reason: "no hero image", actor: "ana"),
                EventRow(kind: "step.state", subject: "Compose step 2 (order)", from: "done", to: "todo", actor: "ana"),
            ])
        #expect(
            try rows("SELECT step, state, coalesce(note, '') FROM step_states ORDER BY step") == [
                ["2", "todo", ""], ["11", "not_applicable", "no hero image"],
            ])
    }
}
