/// The figures the dashboard shows of one screen's readiness, decided by the rules of `ScreenReadiness` from facts
/// in positional form (by checklist step, by required pose) without building the steps and reasons: the dashboard
/// decides a thousand screens per request. Tested against `ScreenReadiness` on random facts.
public struct ReadinessTally: Sendable, Equatable {
    /// Whether the screen is done (`ScreenReadiness.isDone`).
    public var isDone: Bool
    /// How many applicable steps are done (`ScreenReadiness.stepCounts.done`).
    public var stepsDone: Int
    /// How many steps apply (`ScreenReadiness.stepCounts.applicable`).
    public var stepsApplicable: Int
    /// How many required poses are settled (`ScreenReadiness.passedPoses.count`).
    public var posesPassed: Int

    /// Decides from the count of findings needing work, the state recorded for each checklist step and whether an
    /// open finding of it keeps it open (both in checklist order, same length), and the latest result of each
    /// required pose (in order; nil: none recorded).
    public init(openFindingCount: Int, recorded: [StepState], blocked: [Bool], poseResults: [PoseResult?]) {
        var stepsOpen = 0
        var stepsDone = 0
        var stepsApplicable = 0
        for index in recorded.indices {
            let blocked = index < blocked.count ? blocked[index] : false
            switch StepStatus.effective(recorded: recorded[index], blocked: blocked) {
            case .todo:
                stepsOpen += 1
                stepsApplicable += 1
            case .done:
                stepsDone += 1
                stepsApplicable += 1
            case .notApplicable: break
            }
        }
        var posesPassed = 0
        for result in poseResults where result?.isSettled == true { posesPassed += 1 }
        self.stepsDone = stepsDone
        self.stepsApplicable = stepsApplicable
        self.posesPassed = posesPassed
        isDone = openFindingCount == 0 && stepsOpen == 0 && posesPassed == poseResults.count
    }

    /// The figures of a readiness decided in full.
    public init(_ readiness: ScreenReadiness) {
        isDone = readiness.isDone
        (stepsDone, stepsApplicable) = readiness.stepCounts
        posesPassed = readiness.passedPoses.count
    }
}

extension ScreenFacts {
    /// The facts in the positional form of `ReadinessTally`: the recorded state of each checklist step, whether an
    /// open finding keeps it open (`StepStatus.blockers`), and the latest result of each required pose.
    public var positional: (recorded: [StepState], blocked: [Bool], poseResults: [PoseResult?]) {
        (
            checklist.map { stepStates[$0.number] ?? .todo },
            checklist.map { step in openFindings.contains(where: step.isKeptOpen) },
            requiredPoses.map { latestPoses[$0] }
        )
    }

    /// The tally of these facts.
    public var tally: ReadinessTally {
        let (recorded, blocked, poseResults) = positional
        return ReadinessTally(
            openFindingCount: openFindingCount, recorded: recorded, blocked: blocked, poseResults: poseResults)
    }
}
