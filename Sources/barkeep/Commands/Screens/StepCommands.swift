import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// Refuses, as a usage error, a step the CLI can tell names none (`13`, `Order!`); a key the checklist lacks is the
/// daemon's to refuse.
func checkStep(_ word: String?, _ parsed: ParsedCommand) throws(UsageError) {
    guard let word, let problem = ChecklistStep.problem(naming: word) else { return }
    throw UsageError(problem, commandPath: parsed.commandPath)
}

/// `barkeep step …`.
struct StepGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "step",
        abstract: "Set where a checklist step of a screen stands.",
        subcommands: [StepSetCommand.self]
    )
}

struct StepSetCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Set a checklist step of a screen, or of many, to todo, done or not_applicable (writer).",
        discussion: stepDiscussion,
        arguments: [
            .positional("project", help: "The project."),
            .positional(
                "target", repeatable: true,
                help:
                    "SCREEN STEP STATE, or STEP STATE with --screens, --owner or --all; STEP is \(stepRange) or its key, "
                    + "STATE \(QuantityText.alternatives(StepState.allCases.map(\.rawValue)))."),
            .option("screens", valueName: "GLOB", help: "Every screen whose key matches GLOB."),
            .option(
                "owner", valueName: "NAME",
                help: "Every screen NAME owns; '\(ScreenOwner.nobody)': those no one owns."),
            .flag("all", help: "Every screen of the project."),
            .option("note", valueName: "TEXT", help: "Why, for the history."),
        ] + BulkConfirmation.arguments("over many screens: each screen's step from → to, refused or skipped")
    )

    /// The discussion of `--help`, with the steps, their numbers and the rules of each from Core's checklist.
    private static var stepDiscussion: String {
        let steps = ChecklistStep.all
        let keys = steps.map(\.key).joined(separator: ", ")
        let ruled = steps.filter { !$0.rules.isEmpty }.map { "\($0.rules.joined(separator: ", ")) for \($0.key)" }
        let text: String =
            "barkeep step set PROJECT SCREEN STEP STATE sets one screen's step; barkeep step set PROJECT STEP STATE "
            + "with --screens GLOB (keys matching: * any characters, ? one), --owner NAME or --all sets it for every "
            + "such screen in one transaction: the components and the app area it matches have no steps and are "
            + "listed as skipped. Over many screens --dry-run lists what would change and --yes changes it; with "
            + "neither the list is printed and the command exits 1. STEP is a number from \(stepRange) or the "
            + "step's key (\(keys)). A step cannot be done while a finding of its rules "
            + "(\(ruled.joined(separator: ", "))) or an item of the step is open on the screen: for one screen the "
            + "refusal names it; for many, those screens are listed and left alone, the others change, and the "
            + "command exits 1."
        return HelpText.wrapped(text)
    }

    /// `1 to 12`.
    private static var stepRange: String {
        "\(ChecklistStep.numbers.lowerBound) to \(ChecklistStep.numbers.upperBound)"
    }

    let request: StepSetRequest
    let confirmation: BulkConfirmation

    init(_ parsed: ParsedCommand) throws(UsageError) {
        let selection =
            [
                ("screens", parsed.value("screens")), ("owner", parsed.value("owner")),
                ("all", parsed.flag("all") ? "yes" : nil),
            ]
            .compactMap { key, value in value.map { (key, $0) } }
        guard selection.count <= 1 else {
            throw UsageError("give one of --screens, --owner and --all", commandPath: parsed.commandPath)
        }
        let target = parsed.values("target")
        let (screen, step, stateText): (String?, String, String)
        switch (target.count, selection.isEmpty) {
        case (3, true): (screen, step, stateText) = (target[0], target[1], target[2])
        case (2, false): (screen, step, stateText) = (nil, target[0], target[1])
        case (_, true):
            throw UsageError(
                "give SCREEN STEP STATE (or STEP STATE with --screens, --owner or --all)",
                commandPath: parsed.commandPath)
        default:
            throw UsageError("with --screens, --owner or --all give STEP STATE only", commandPath: parsed.commandPath)
        }
        try checkStep(step, parsed)
        confirmation = try BulkConfirmation(parsed, isBulk: screen == nil)
        guard let state = StepState(rawValue: stateText) else {
            throw UsageError(
                "state must be todo, done or not_applicable, not \(ValueExcerpt.quoted(stateText))",
                commandPath: parsed.commandPath)
        }
        request = StepSetRequest(
            project: parsed.value("project") ?? "", screen: screen, step: step, state: state,
            note: parsed.value("note"), screens: parsed.value("screens"), owner: parsed.value("owner"),
            all: parsed.flag("all"), isDryRun: confirmation.isDryRun)
    }

    func run(_ context: CLIContext) throws {
        let rows = try context.send(request).rows
        guard let screen = request.screen else {
            try report(rows, context: context)
            return
        }
        guard case .first(let change) = rows.first else { throw CLIError.badReply("STEP SET returned nothing") }
        let step = change.step
        if context.isJSON {
            try Output.json(change.json)
        } else {
            print("Step \(step.step) (\(step.key)) of \(screen) is now \(step.state.rawValue).")
        }
    }

    /// What a step set over many screens did (or would do): the screens changed, those already so, those refused
    /// (then exit 1) and the rows skipped, which have no steps.
    private func report(_ rows: [StepSetRow], context: CLIContext) throws {
        let changes = rows.compactMap { row -> StepChangeRecord? in
            guard case .first(let change) = row else { return nil }
            return change
        }
        let skipped = rows.compactMap { row -> StepSkippedRecord? in
            guard case .second(let skipped) = row else { return nil }
            return skipped
        }
        func of(_ outcome: String) -> [StepChangeRecord] { changes.filter { $0.outcome == outcome } }
        let refused = of("refused")
        if context.isJSON {
            try Output.json(rows.map(\.json))
        } else {
            let name =
                changes.first.map { "step \($0.step.step) (\($0.step.key))" } ?? skipped.first.map {
                    "step \($0.step) (\($0.key))"
                }
                ?? "step ? (?)"
            print(
                "\(confirmation.isDryRun ? "Would set" : "Set") \(name) to \(request.state.rawValue) on "
                    + "\(Output.count(of("changed").count, "screen")); \(of("unchanged").count) already so; "
                    + "\(refused.count) refused" + (skipped.isEmpty ? "." : "; \(skipped.count) skipped."))
            if confirmation.isDryRun && !of("changed").isEmpty {
                Output.table(
                    ["SCREEN", "STATE"],
                    of("changed").map { [$0.step.screen, "\($0.from.rawValue) → \(request.state.rawValue)"] })
            }
            if !refused.isEmpty || !skipped.isEmpty {
                Output.table(
                    ["SCREEN", "OUTCOME", "OPEN FINDINGS", "WHY"],
                    refused.map {
                        [$0.step.screen, $0.outcome, ($0.step.blockers ?? []).joined(separator: ","), $0.refusal ?? ""]
                    }
                        + skipped.map { [$0.screen, $0.outcome, "", $0.why] })
            }
        }
        try confirmation.finish("\(Output.count(of("changed").count, "screen")) would change")
        if !refused.isEmpty {
            // The list first, then the error after it, even when both go to one pipe.
            fflush(nil)
            throw CLIError.partial(
                "\(Output.count(refused.count, "screen")) left as \(refused.count == 1 ? "it was" : "they were"): "
                    + "a finding of the step is open on each")
        }
    }
}
