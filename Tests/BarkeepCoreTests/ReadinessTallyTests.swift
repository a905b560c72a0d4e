import BarkeepCore
import BarkeepTestSupport
import Testing

@Suite("ReadinessTally")
struct ReadinessTallyTests {
    @Test("decides every random screen as ScreenReadiness does", arguments: [1, 2, 3] as [UInt64])
    func agreesWithReadiness(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let rules = ["DUO001", "DUO007", "DUO011"]
        let poses = ["P1", "P2", "P3", "P4", "P5"]
        for _ in 0..<2_000 {
            let checklist = (1...Int.random(in: 1...12, using: &random)).compactMap { number in
                Bool.random(using: &random) && number > 1
                    ? nil
                    : ChecklistStep(
                        number: number, key: "s\(number)", asks: "", summary: "",
                        rules: rules.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }, sdkSymbols: [])
            }
            let findings = (0..<Int.random(in: 0...3, using: &random)).map { number in
                OpenFinding(
                    number: number, label: "", status: .proposed,
                    rule: Bool.random(using: &random) ? rules.randomElement(using: &random) : nil,
                    step: Bool.random(using: &random) ? Int.random(in: 1...14, using: &random) : nil)
            }
            var states: [Int: StepState] = [:]
            for number in 1...14 where Bool.random(using: &random) {
                states[number] = StepState.allCases.randomElement(using: &random)
            }
            var latest: [String: PoseResult] = [:]
            for pose in poses where Int.random(in: 0..<3, using: &random) > 0 {
                latest[pose] = PoseResult.allCases.randomElement(using: &random)
            }
            let required = poses.filter { _ in Bool.random(using: &random) }
            let facts = ScreenFacts(
                openFindings: findings,
                openFindingCount: Int.random(in: 0..<3, using: &random) == 0
                    ? nil : Int.random(in: 0...2, using: &random),
                checklist: checklist, stepStates: states, requiredPoses: required, latestPoses: latest)
            let readiness = ScreenReadiness(facts)
            #expect(facts.tally == ReadinessTally(readiness), "\(facts)")
            #expect(facts.tally.isDone == readiness.isDone)
        }
    }

    @Test("a screen blocked on a step recorded done has it open, and counts it applicable but not done")
    func blockedStep() {
        let tally = ReadinessTally(
            openFindingCount: 1, recorded: [.done, .notApplicable, .done], blocked: [true, true, false],
            poseResults: [.passed, .notApplicable])
        #expect(!tally.isDone && tally.stepsDone == 1 && tally.stepsApplicable == 2 && tally.posesPassed == 2)
    }
}
