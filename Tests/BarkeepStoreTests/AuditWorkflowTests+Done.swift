import BarkeepCore
import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

extension AuditWorkflowTests {
    // MARK: - Done

    @Test("a screen is done exactly when no finding needs work, every step is settled and every required pose passed")
    func screenDone() throws {
        try ingestAllRules()
        try addScreen("Menu", ["Sources/MenuView.swift"])
        let navigationView = try findingID("DUO008", "Sources/MenuView.swift", 4)
        let overflow = try findingID("DUO011", "Sources/MenuView.swift", 7)
        let labels = [navigationView: "DUO008 Sources/MenuView.swift:4", overflow: "DUO011 Sources/MenuView.swift:7"]
        let openFindings =
            "2 findings need work: "
            + labels.keys.sorted().map { "\($0) (\(labels[$0, default: ""]))" }.joined(separator: ", ")
        let stepsToDo = Self.stepKeys.enumerated().map { "step \($0.offset + 1) (\($0.element)) is to do" }
        let posesWithoutResult = Self.defaultPoses.map { "pose \($0) has no result" }

        // Nothing done yet.
        #expect(try reasons(of: "Menu") == [openFindings] + stepsToDo + posesWithoutResult)
        #expect(try readiness(of: "Menu").isDone == false)

        // Findings settled.
        try setStatus(navigationView, .declined, reason: "NavigationView stays while iOS 15 is supported")
        try setStatus(overflow, .kept, reason: "the filter menu is not an overflow")
        #expect(try reasons(of: "Menu") == stepsToDo + posesWithoutResult)

        // Steps: all but one settled, then that one.
        for step in ["1", "2", "3", "4", "6", "7", "9"] { try setStep(step, of: "Menu", to: .done) }
        for step in ["5", "8", "10", "11"] { try setStep(step, of: "Menu", to: .notApplicable) }
        #expect(try reasons(of: "Menu") == ["step 12 (sheets) is to do"] + posesWithoutResult)
        #expect(try readiness(of: "Menu").stepCounts == (7, 8))
        try setStep("sheets", of: "Menu", to: .notApplicable)
        #expect(try reasons(of: "Menu") == posesWithoutResult)
        #expect(try readiness(of: "Menu").stepCounts == (7, 7))

        // Poses: the last one not run, then passed.
        for pose in ["P1", "P2", "P3", "P4", "P11"] { try record(passed("Menu", pose)) }
        #expect(try reasons(of: "Menu") == ["pose P12 has no result"])
        #expect(try readiness(of: "Menu").passedPoses == ["P1", "P2", "P3", "P4", "P11"])
        try record(NewPoseResult(screen: "Menu", pose: "P12", result: .notRun, reason: "no Reduce Transparency build"))
        #expect(try reasons(of: "Menu") == ["pose P12 was not run"])
        try record(passed("Menu", "P12"))
        #expect(try readiness(of: "Menu").isDone)
        #expect(try reasons(of: "Menu") == [])
        #expect(try readiness(of: "Menu").passedPoses == Self.defaultPoses)

        // A later failure of a passed pose undoes it, and the item it created needs work; passing again verifies
        // the item and redoes it.
        let failure = try record(
            NewPoseResult(
                screen: "Menu", pose: "P3", result: .failed, screenshot: "p3.png", itemTitle: "Menu hides the title"))
        let poseItem = try #require(failure.finding)
        #expect(
            try reasons(of: "Menu") == ["finding \(poseItem) (Menu hides the title) needs work", "pose P3 failed"])
        #expect(try readiness(of: "Menu").isDone == false)
        try record(passed("Menu", "P3"))
        #expect(try readiness(of: "Menu").isDone)
        #expect(try FindingStore.show(project: "app", number: poseItem, on: connection).0.status == .verified)

        // A newly required pose must pass too.
        _ = try ProjectStore.update(
            name: "app", requiredPoses: Self.defaultPoses + ["P5"], actor: "lead", on: connection)
        #expect(try reasons(of: "Menu") == ["pose P5 has no result"])
        try record(passed("Menu", "P5"))
        #expect(try readiness(of: "Menu").isDone)

        // A new item of a done step: the finding needs work and the step is open again.
        let item = try addItem("Merge the sort menu into the overflow", step: 7, needs: [], screen: "Menu")
        let reference = "\(item.id) (Merge the sort menu into the overflow)"
        #expect(
            try reasons(of: "Menu") == [
                "finding \(reference) needs work",
                "step 7 (overflow) is marked done but finding \(reference) of it is open",
            ])
        try setStatus(item.id, .declined, reason: "the sort menu stays")
        #expect(try readiness(of: "Menu").isDone)
        let listed = try ScreenStore.list(project: "app", on: connection)
        #expect(listed.map(\.screen.key) == ["Menu", "app"])
        #expect(listed.first?.readiness.isDone == true && listed.first?.openFindings == 0)
    }
}
