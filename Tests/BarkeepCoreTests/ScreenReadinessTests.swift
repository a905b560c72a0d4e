import BarkeepCore
import Testing

@Suite("ScreenReadiness")
struct ScreenReadinessTests {
    private let checklist = ChecklistStep.all.filter { [1, 2, 7].contains($0.number) }

    private func facts(
        findings: [OpenFinding] = [],
        steps: [Int: StepState] = [1: .done, 2: .notApplicable, 7: .done],
        poses: [String: PoseResult] = ["P1": .passed, "P3": .passed]
    ) -> ScreenFacts {
        ScreenFacts(
            openFindings: findings, checklist: checklist, stepStates: steps, requiredPoses: ["P1", "P3"],
            latestPoses: poses)
    }

    @Test("done when nothing needs work, every step is done or not applicable and every required pose passed")
    func done() {
        let readiness = ScreenReadiness(facts())
        #expect(readiness.isDone)
        #expect(readiness.reasons.isEmpty)
        #expect(readiness.stepCounts.done == 2)
        #expect(readiness.stepCounts.applicable == 2)
        #expect(readiness.passedPoses == ["P1", "P3"])
    }

    @Test("an open finding of a step's rule keeps the step from being done, and says which")
    func findingReopensStep() {
        let finding = OpenFinding(number: 12, label: "DUO007 Sources/Inbox.swift:40", status: .proposed, rule: "DUO007")
        let readiness = ScreenReadiness(facts(findings: [finding]))
        #expect(!readiness.isDone)
        let container = readiness.steps[0]
        #expect(container.recorded == .done)
        #expect(container.effective == .todo)
        #expect(container.blockers == [finding])
        #expect(
            readiness.reasons.map(\.description) == [
                "finding 12 (DUO007 Sources/Inbox.swift:40) needs work",
                "step 1 (container) is marked done but finding 12 (DUO007 Sources/Inbox.swift:40) of it is open",
            ])
        #expect(readiness.reasons.map(\.topic) == ["findings", "step"])
    }

    @Test("a manual item of a step blocks that step like a rule's finding")
    func itemBlocksItsStep() {
        let item = OpenFinding(number: 3, label: "Group the overflow", status: .blocked, step: 7)
        let readiness = ScreenReadiness(facts(findings: [item]))
        #expect(readiness.steps.map(\.effective) == [.done, .notApplicable, .todo])
    }

    @Test(
        "each missing piece is a reason: step to do, pose failed, not run or without result",
        arguments: [
            (
                [1: StepState.done, 2: .todo, 7: .done], ["P1": PoseResult.passed, "P3": .passed],
                ["step 2 (order) is to do"]
            ),
            ([1: .done, 2: .done, 7: .done], ["P1": .failed, "P3": .passed], ["pose P1 failed"]),
            ([1: .done, 2: .done, 7: .done], ["P1": .notRun], ["pose P1 was not run", "pose P3 has no result"]),
            (
                [:], ["P1": .passed, "P3": .passed],
                ["step 1 (container) is to do", "step 2 (order) is to do", "step 7 (overflow) is to do"]
            ),
        ] as [([Int: StepState], [String: PoseResult], [String])]
    )
    func reasons(steps: [Int: StepState], poses: [String: PoseResult], expected: [String]) {
        let readiness = ScreenReadiness(facts(steps: steps, poses: poses))
        #expect(readiness.reasons.map(\.description) == expected)
        #expect(!readiness.isDone)
    }

    @Test("poses recorded but not required do not count")
    func unrequiredPoses() {
        let readiness = ScreenReadiness(facts(poses: ["P1": .passed, "P3": .passed, "P10": .failed]))
        #expect(readiness.isDone)
    }

    @Test("many findings are summarised, five named")
    func manyFindings() {
        let findings = (1...7).map { OpenFinding(number: $0, label: "item \($0)", status: .proposed) }
        let reason = ScreenReadiness(facts(findings: findings)).reasons[0].description
        #expect(
            reason
                == "7 findings need work: 1 (item 1), 2 (item 2), 3 (item 3), 4 (item 4), 5 (item 5), and 2 more")
    }
}
