import BarkeepCore
import Testing

/// What the CLI can tell of a step's name before asking the daemon.
@Suite("ChecklistStep")
struct ChecklistStepTests {
    @Test(
        "a step is a number from 1 to 12 or a word shaped like a key; anything else is named in the problem",
        arguments: [
            ("1", true), ("12", true), ("order", true), ("title-and-symbol", true), ("layout", true), ("0", false),
            ("13", false), ("-1", false), ("Order", false), ("order!", false), ("", false), ("-order", false),
            (String(repeating: "a", count: 65), false),
        ] as [(String, Bool)])
    func stepNaming(word: String, isAccepted: Bool) {
        let problem = ChecklistStep.problem(naming: word)
        #expect((problem == nil) == isAccepted, "\(word): \(problem ?? "accepted")")
        if let problem {
            #expect(problem.hasPrefix("\(ValueExcerpt.quoted(word)) is not a checklist step: steps are 1 to 12"))
        }
    }

    @Test("the checklist is numbered 1 to its count in order, with distinct keys shaped as keys, each found by both")
    func checklistIsNumbered() {
        #expect(ChecklistStep.all.map(\.number) == Array(ChecklistStep.numbers))
        #expect(ChecklistStep.numbers == 1...12)
        #expect(Set(ChecklistStep.all.map(\.key)).count == ChecklistStep.all.count)
        for step in ChecklistStep.all {
            #expect(ChecklistStep.problem(naming: step.key) == nil)
            #expect(ChecklistStep.keyed(step.key) == step)
            #expect(ChecklistStep.numbered(step.number) == step)
            #expect(!step.asks.isEmpty && !step.summary.isEmpty)
        }
        #expect(
            ChecklistStep.numbered(0) == nil && ChecklistStep.numbered(13) == nil
                && ChecklistStep.keyed("layout") == nil)
    }
}
