import BarkeepAPI
import BarkeepCommandLine
import BarkeepCore
import BarkeepProtocol
import Foundation

/// The options of `item add` and `item set` whose values the daemon refuses in its own words: kept as given, read
/// into the request when the command runs.
struct ItemOptionValues {
    /// `--severity`.
    let severity: String?
    /// `--needs`, each symbol.
    let needs: [String]
    /// `--sdk`.
    let sdk: String?

    /// The values read as the request's fields; a bad one refused as the daemon would refuse it.
    func read<Symbol: WireValue>() throws(CLIError) -> (severity: Severity?, needs: [Symbol], sdk: SDKVersion?) {
        (
            try severity.map { text throws(CLIError) in try wireValue(text, key: "severity") },
            try needs.map { text throws(CLIError) in try wireValue(text, key: "needs") },
            try sdk.map { text throws(CLIError) in try wireValue(text, key: "sdk") }
        )
    }
}

/// `barkeep item …`.
struct ItemGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "item",
        abstract: "Add, edit and remove audit items by hand.",
        subcommands: [ItemAddCommand.self, ItemSetCommand.self, ItemRemoveCommand.self]
    )
}

struct ItemAddCommand: RunnableCommand {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add an audit item to a screen (writer): a finding with source manual.",
        discussion: """
            An item needing a symbol that the project's SDK does not declare is blocked from the start, with the
            SDK that would bring it (needs the iOS 27.1 SDK (axisBehavior)); barkeep sdk set unblocks it. A symbol
            the SDK symbol table does not know is refused with the nearest known names, unless --sdk says which
            SDK declares it. With --json prints the item as barkeep findings --json prints a finding, with its
            reason.
            """,
        arguments: [
            .positional("project", help: "The project."),
            .option("screen", valueName: "KEY", help: "The screen it belongs to (required)."),
            .option("step", valueName: "STEP", help: "Its checklist step: 1 to 12, or the step's key (required)."),
            .option("title", valueName: "TEXT", help: "What to do (required)."),
            .option("needs", valueName: "SYMBOL", repeatable: true, help: "An SDK symbol the fix needs (repeatable)."),
            .option(
                "severity", valueName: "S", default: Severity.medium.rawValue,
                help: QuantityText.alternatives(Severity.allCases.map(\.rawValue)) + "."),
            .option("sdk", valueName: "VERSION", help: "The SDK declaring the needed symbols the table lacks."),
        ]
    )

    /// The request, less the values the daemon's words refuse (read when it runs).
    let request: ItemAddRequest
    let values: ItemOptionValues

    init(_ parsed: ParsedCommand) throws(UsageError) {
        var required: [String] = []
        for key in ["screen", "step", "title"] {
            guard let value = parsed.value(key) else {
                throw UsageError("item add needs --\(key)", commandPath: parsed.commandPath)
            }
            required.append(value)
        }
        try checkStep(parsed.value("step"), parsed)
        request = ItemAddRequest(
            project: parsed.value("project") ?? "", screen: required[0], step: required[1], title: required[2])
        values = ItemOptionValues(
            severity: parsed.value("severity"),
            needs: parsed.values("needs").flatMap { $0.split(separator: ",") }.map(String.init),
            sdk: parsed.value("sdk"))
    }

    func run(_ context: CLIContext) throws {
        var request = request
        (request.severity, request.needs, request.sdk) = try values.read()
        guard let item = try context.send(request).rows.first else {
            throw CLIError.badReply("ITEM ADD returned nothing")
        }
        if context.isJSON {
            try Output.json(item.itemJSON)
            return
        }
        var line = "Added item \(FindingNumber.label(item.id)) to \(item.screen): \(item.status.rawValue)"
        if let reason = item.reason { line += " (\(reason))" }
        if let gate = item.gate { line += "; its code needs if #available(iOS \(gate), *)" }
        print(line + ".")
    }
}

/// `barkeep item set PROJECT N …`: edits an item.
struct ItemSetCommand: RunnableCommand, NamesNumberInProject {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Edit an audit item (writer): its title, step, severity or the SDK symbols it needs.",
        discussion: """
            Each field that changes is an item.updated event. --needs replaces the symbols the item needs (give it
            once per symbol, or comma-separated; --needs '' clears them): an item whose new symbols the project's
            SDK lacks is blocked at once, and one that no longer needs a missing symbol returns to the status it had
            before it was blocked. Only items added by hand are edited; a scanner finding is triaged with finding
            set. With --json prints the item as barkeep findings --json prints a finding, with its reason.
            """,
        arguments: NumberInProject.arguments("The item's number in the project.") + [
            .option("title", valueName: "TEXT", help: "A new title."),
            .option("step", valueName: "STEP", help: "A new checklist step: 1 to 12, or the step's key."),
            .option(
                "severity", valueName: "S", help: QuantityText.alternatives(Severity.allCases.map(\.rawValue)) + "."),
            .option("needs", valueName: "SYMBOL", repeatable: true, help: "The SDK symbols the fix needs (replaces)."),
            .option("sdk", valueName: "VERSION", help: "The SDK declaring the needed symbols the table lacks."),
        ]
    )

    let target: NumberInProject
    /// The request, less the values the daemon's words refuse (read when it runs).
    let request: ItemSetRequest
    let values: ItemOptionValues

    init(_ parsed: ParsedCommand) throws(UsageError) {
        target = try NumberInProject.finding(parsed)
        var request = ItemSetRequest(project: target.project, number: Int(target.number) ?? 0)
        (request.title, request.step) = (parsed.value("title"), parsed.value("step"))
        try checkStep(parsed.value("step"), parsed)
        let given = parsed.values("needs")
        let symbols = given.flatMap { $0.split(separator: ",") }.map(String.init)
        // One empty value says "needs nothing".
        values = ItemOptionValues(
            severity: parsed.value("severity"), needs: given.isEmpty ? [] : symbols.isEmpty ? [""] : symbols,
            sdk: parsed.value("sdk"))
        guard request.title != nil || request.step != nil || values.severity != nil || !values.needs.isEmpty else {
            throw UsageError(
                "item set needs --title, --step, --severity or --needs", commandPath: parsed.commandPath)
        }
        self.request = request
    }

    func run(_ context: CLIContext) throws {
        var request = request
        (request.severity, request.needs, request.sdk) = try values.read()
        guard let item = try context.send(request).rows.first else {
            throw CLIError.badReply("ITEM SET returned nothing")
        }
        if context.isJSON {
            try Output.json(item.itemJSON)
            return
        }
        var line = "Item \(FindingNumber.label(item.id)) of \(project): \(item.title ?? "?"), \(item.status.rawValue)"
        if let reason = item.reason { line += " (\(reason))" }
        print(line + ".")
    }
}

/// `barkeep item remove PROJECT N --yes`: removes an item.
struct ItemRemoveCommand: RunnableCommand, NamesNumberInProject {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Remove an audit item added by mistake (writer; needs --yes).",
        discussion: """
            The removal is an item.removed event; the item's history stays in the project's events. An item a
            failed pose maps to is kept (CONFLICT): the pose result would lose its evidence; pass the pose again,
            which verifies the item, or decline it. To say an item will not be done, decline it instead.
            """,
        arguments: NumberInProject.arguments("The item's number in the project.") + [
            .flag("yes", help: "Confirm the removal.")
        ]
    )

    let target: NumberInProject

    init(_ parsed: ParsedCommand) throws(UsageError) {
        target = try NumberInProject.finding(parsed)
        guard parsed.flag("yes") else {
            throw UsageError(
                "removing item \(number) of \(project) cannot be undone; add --yes to confirm",
                commandPath: parsed.commandPath)
        }
    }

    func run(_ context: CLIContext) throws {
        let removed = try context.send(ItemRemoveRequest(project: project, number: Int(number) ?? 0)).summary
        if context.isJSON {
            try Output.json(["removed": removed.removed])
        } else {
            print("Removed item \(number) of \(project).")
        }
    }
}
