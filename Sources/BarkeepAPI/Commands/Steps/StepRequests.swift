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
        "STEPS", role: .reader, effect: .read, summary: "Every checklist step of every screen of a project.")
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
        "CHECKLIST", role: .reader, effect: .read, summary: "The audit checklist's steps and the rules of each.")
    /// No arguments.
    public static let fields: [Field<ChecklistRequest>] = []
}
