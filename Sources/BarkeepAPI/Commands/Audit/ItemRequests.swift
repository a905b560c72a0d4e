import BarkeepCore
import BarkeepProtocol

/// `ITEM ADD PROJECT screen=KEY step=STEP title=TEXT [needs=SYMBOL…] [severity=S] [sdk=V]`: adds an audit item by
/// hand, a finding with source manual.
public struct ItemAddRequest: CommandRequest {
    /// The item's `finding` record.
    public typealias Reply = RecordsReply<FindingRecord>
    /// The project.
    public var project = ""
    /// The screen it belongs to.
    public var screen = ""
    /// Its checklist step: a number or a step's key.
    public var step = ChecklistStepName("")
    /// What to do.
    public var title = ""
    /// The SDK symbols the fix needs.
    public var needs: [SDKSymbol] = []
    /// Its severity (default medium).
    public var severity: Severity?
    /// The SDK declaring needed symbols the symbol table lacks.
    public var sdk: SDKVersion?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request adding the item `title` to `screen` at `step`.
    public init(project: String, screen: String, step: String, title: String) {
        self.project = project
        self.screen = screen
        self.step = ChecklistStepName(step)
        self.title = title
    }

    /// The command.
    public static let spec = CommandSpec(
        "ITEM ADD", role: .writer, effect: .write(isDestructive: false, isIdempotent: false),
        summary: "Adds an audit item to a screen by hand: a finding with source manual.",
        http: .post("projects/{project}/items"))
    /// Its arguments.
    public static let fields: [Field<ItemAddRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        Field("screen", \.screen, "The screen it belongs to.").withSchema(.string(minLength: 1)),
        Field(
            "step", \.step,
            "A checklist step: its number (\(ChecklistStep.numbersSpoken)) "
                + "or its key."),
        Field("title", \.title, "What to do.", check: ItemFields.title).withSchema(.string(minLength: 1)),
        .repeated("needs", \.needs, "The SDK symbols the fix needs."),
        Field("severity", \.severity, "Default medium."),
        Field("sdk", \.sdk, "The SDK declaring needed symbols the symbol table lacks."),
    ]
}

/// `ITEM SET PROJECT N [title=] [step=] [severity=] [needs=SYMBOL…] [sdk=V]`: edits an item added by hand;
/// `needs=` with no value clears the symbols it needs.
public struct ItemSetRequest: CommandRequest {
    /// The item's `finding` record.
    public typealias Reply = RecordsReply<FindingRecord>
    /// The project.
    public var project = ""
    /// The item's number.
    public var number = ItemNumber(0)
    /// A new title.
    public var title: String?
    /// A new checklist step.
    public var step: String?
    /// A new severity.
    public var severity: Severity?
    /// The symbols the fix needs, replacing them; `needs=` with no value: none.
    public var needs: [NeededSymbol] = []

    /// The symbols the item is to need; nil: unchanged.
    public var neededSymbols: [String]? {
        guard !needs.isEmpty else { return nil }
        return needs.compactMap { needed in
            guard case .symbol(let symbol) = needed else { return nil }
            return symbol.name
        }
    }
    /// The SDK declaring needed symbols the symbol table lacks.
    public var sdk: SDKVersion?

    /// An empty request, filled by decoding.
    public init() {}
    /// A request editing item `number`.
    public init(project: String, number: Int) {
        self.project = project
        self.number = ItemNumber(number)
    }

    /// The command.
    public static let spec = CommandSpec(
        "ITEM SET", role: .writer, effect: .write(isDestructive: false, isIdempotent: true),
        summary: "Edits an audit item added by hand: its title, step, severity or the SDK symbols it needs.",
        http: .put("projects/{project}/items/{number}"))
    /// Its arguments.
    public static let fields: [Field<ItemSetRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("number", \.number, "The item's number in the project."),
        Field("title", \.title, "A new title.", check: ItemFields.title),
        Field("step", \.step, "A new checklist step: its number (\(ChecklistStep.numbersSpoken)) or its key."),
        Field("severity", \.severity, "A new severity."),
        .repeated("needs", \.needs, "The SDK symbols the fix needs, replacing them; one empty value: none."),
        Field("sdk", \.sdk, "The SDK declaring needed symbols the symbol table lacks."),
    ]
}

/// `ITEM REMOVE PROJECT N`: removes an item added by mistake.
public struct ItemRemoveRequest: CommandRequest {
    /// `OK removed=N`.
    public typealias Reply = OKReply<ItemRemoved>
    /// The project.
    public var project = ""
    /// The item's number.
    public var number = ItemNumber(0)

    /// An empty request, filled by decoding.
    public init() {}
    /// A request removing item `number`.
    public init(project: String, number: Int) {
        self.project = project
        self.number = ItemNumber(number)
    }

    /// The command.
    public static let spec = CommandSpec(
        "ITEM REMOVE", role: .writer, effect: .write(isDestructive: true, isIdempotent: false),
        summary: "Removes an audit item added by mistake; its history stays.",
        http: .delete("projects/{project}/items/{number}"))
    /// Its arguments.
    public static let fields: [Field<ItemRemoveRequest>] = [
        .argument("project", \.project, "The project.", names: .project),
        .argument("number", \.number, "The item's number in the project."),
    ]
}

/// ITEM REMOVE's `OK` fields.
public struct ItemRemoved: WireFields, Equatable {
    /// The item removed.
    public var removed = 0
    /// An empty value, filled by decoding.
    public init() {}
    /// The value naming item `removed`.
    public init(removed: Int) { self.removed = removed }
    /// The fields.
    public static let fields: [Field<ItemRemoved>] = [Field("removed", \.removed, "The item's number.")]
}

/// The check of an item's title, in the server's words.
enum ItemFields {
    /// The longest title, in bytes.
    static let maximumTitleBytes = 500

    /// A title of 1 to 500 bytes.
    @Sendable static func title(_ title: String) -> ValueProblem? {
        title.isEmpty || title.utf8.count > maximumTitleBytes ? ValueProblem(predicate: "must be 1 to 500 bytes") : nil
    }
}
