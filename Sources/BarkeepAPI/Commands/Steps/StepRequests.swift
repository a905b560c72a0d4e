import BarkeepCore
import BarkeepProtocol

/// `STEPS PROJECT`: every checklist step of every screen, for the readiness report.
public struct StepsRequest: CommandRequest {
    /// A `step` record per screen and step.
    public typealias Reply = RecordsReply<StepRecord>
    /// The project.
    public var project = ""

    /// An empty request, filled by decoding.
    public init() {}
    /// A request for `project`'s steps.
    public init(project: String) { self.project = project }

    /// The command.
    public static let spec = CommandSpec(
        "STEPS", role: .reader, effect: .read, summary: "Every checklist step of every screen of a project.",
        http: .get("projects/{project}/steps"))
    /// Its argument.
    public static let fields: [Field<StepsRequest>] = [.argument("project", \.project, "The project.", names: .project)]
}

/// `CHECKLIST`: the steps of the audit checklist, each with the scanner rules that evidence it.
public struct ChecklistRequest: CommandRequest {
    /// A record per step, in order.
    public typealias Reply = RecordsReply<ChecklistStepRecord>
    /// The request.
    public init() {}
    /// The command.
    public static let spec = CommandSpec(
        "CHECKLIST", role: .reader, effect: .read, summary: "The audit checklist's steps and the rules of each.",
        http: .get("checklist"))
    /// No arguments.
    public static let fields: [Field<ChecklistRequest>] = []
}

/// `STEP SET PROJECT SCREEN STEP STATE [note=]` sets one screen's step; `STEP SET PROJECT STEP STATE` with
/// `screens=GLOB`, `owner=NAME` or `all=yes` (and `dry-run=yes` to change nothing) every picked screen's, leaving
/// alone (and reporting) those where `done` is refused and the components and app area it picked.
public struct StepSetRequest: CommandRequest {
    /// A row per screen (the step, or why it was skipped); for one screen without a dry run `OK count=1`, else
    /// `OK changed= unchanged= refused= skipped= [dry-run=yes] count=`.
    public typealias Reply = SummarizedReply<StepSetRow, StepSetSummary>
    /// The project.
    public var project = ""
    /// The screen (not with `screens`, `owner` or `all`).
    public var screen: String?
    /// The step: its number or its key.
    public var step = ChecklistStepName("")
    /// The state to set.
    public var state = StepState.todo
    /// Why, for the history.
    public var note: String?
    /// Every screen whose key the glob matches.
    public var screens: String?
    /// Every screen this person owns (`nobody`: those no one owns).
    public var owner: String?
    /// Every screen of the project.
    public var all: Bool?
    /// Report what would change; change nothing.
    public var dryRun: Bool?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request setting `step` of `screen` (nil: of the screens the selection keys pick) to `state`.
    public init(
        project: String, screen: String?, step: String, state: StepState, note: String? = nil,
        screens: String? = nil, owner: String? = nil, all: Bool = false, isDryRun: Bool = false
    ) {
        self.project = project
        self.screen = screen
        self.step = ChecklistStepName(step)
        self.state = state
        self.note = note
        self.screens = screens
        self.owner = owner
        self.all = all ? true : nil
        dryRun = isDryRun ? true : nil
    }

    /// Whether nothing is to be stored.
    public var isDryRun: Bool { dryRun ?? false }

    /// The command.
    public static let spec = CommandSpec(
        "STEP SET", role: .writer, effect: .write(isDestructive: true, isIdempotent: true),
        summary: "Sets where a checklist step of a screen, or of many, stands.",
        http: .post("projects/{project}/steps"),
        shapes: [Shape("project", "screen", "step", "state"), Shape("project", "step", "state")])
    /// Its arguments.
    public static let fields: [Field<StepSetRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("screen", \.screen, "The screen's key.", placement: .positional, names: .screenKey)
            .withSchema(.string(minLength: 1)),
        .argument("step", \.step, "A checklist step: its number (\(ChecklistStep.numbersSpoken)) or its key."),
        .argument("state", \.state, "The state."),
        Field("note", \.note, "Why, for the history.").withSchema(.string(minLength: 1)),
        Field("screens", \.screens, "Every screen whose key the glob matches (not with a screen)."),
        Field("owner", \.owner, "Every screen this person owns (not with a screen)."),
        Field("all", \.all, "yes: every screen of the project (not with a screen)."),
        Field("dry-run", \.dryRun, "yes: list what would change, and change nothing."),
    ]
}

/// A row of STEP SET's reply: the screen's step with what happened to it, or a row skipped (a component or the app
/// area, which have no steps), told apart by `why`, which only a skipped row carries.
public typealias StepSetRow = OneOf<StepChangeRecord, StepSkippedRecord>

/// A screen's step after STEP SET: the `step` record, the outcome, the state it had, and why `done` was refused.
public struct StepChangeRecord: WireFields {
    /// The step.
    public var step = StepRecord()
    /// changed, unchanged or refused.
    public var outcome = ""
    /// The state it had.
    public var from = StepState.todo
    /// Why `done` was refused (the open findings of the step's rules).
    public var refusal: String?

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it: a `step` record with what STEP SET did.
    public static let recordName: String? = "step"

    /// The fields, in wire order: the step's, then the outcome's.
    public static let fields: [Field<StepChangeRecord>] =
        Field.group(\.step, StepRecord.fields) + [
            Field("outcome", \.outcome, "changed, unchanged or refused."),
            Field("from", \.from, "The state it had."),
            Field("refusal", \.refusal, "Why done was refused."),
        ]
}

/// A row STEP SET skipped: it has no checklist steps.
public struct StepSkippedRecord: WireFields, Discriminated {
    /// `why`: only skipped rows carry it.
    public static let discriminator = "why"
    /// The row's key.
    public var screen = ""
    /// The step's number.
    public var step = 0
    /// The step's key.
    public var key = ""
    /// skipped.
    public var outcome = ""
    /// Why the row has no steps.
    public var why = ""

    /// An empty record, filled by decoding.
    public init() {}

    /// docs/protocol.md's name for it: a `step` record with what STEP SET did.
    public static let recordName: String? = "step"

    /// The fields, in wire order.
    public static let fields: [Field<StepSkippedRecord>] = [
        Field("screen", \.screen, "The row's key."),
        Field("step", \.step, "The step's number."),
        Field("key", \.key, "The step's key."),
        Field("outcome", \.outcome, "skipped."),
        Field("why", \.why, "Why the row has no checklist steps."),
    ]
}

/// STEP SET's `OK` fields before `count`, over many screens (or a dry run).
public struct StepSetSummary: WireFields {
    /// Screens whose step changed (or would).
    public var changed = 0
    /// Screens whose step already was so.
    public var unchanged = 0
    /// Screens where `done` was refused.
    public var refused = 0
    /// Rows skipped (no steps).
    public var skipped = 0
    /// yes when nothing was stored.
    public var dryRun: Bool?

    /// An empty value, filled by decoding.
    public init() {}

    /// The fields.
    public static let fields: [Field<StepSetSummary>] = [
        Field("changed", \.changed, "Screens whose step changed (or would)."),
        Field("unchanged", \.unchanged, "Screens whose step already was so."),
        Field("refused", \.refused, "Screens where done was refused."),
        Field("skipped", \.skipped, "Rows skipped: they have no checklist steps."),
        Field("dry-run", \.dryRun, "yes when nothing was stored."),
    ]
}
