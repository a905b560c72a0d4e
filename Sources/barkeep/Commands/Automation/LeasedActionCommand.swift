import BarkeepAPI
import BarkeepCommandLine
import BarkeepProtocol

/// `hook pause|resume ID`, `source pause|resume|run-now ID`: one typed request naming a leased resource by id,
/// answered by its record, told in one sentence (or printed as JSON). Generic over the request (`HookPauseRequest`,
/// `SourceRunRequest`…), so every leased kind shares it.
protocol LeasedActionCommand: RunnableCommand {
    /// The request sent.
    associatedtype Request: LeasedRecordRequest
    /// The id given.
    var id: String { get }
    /// A command for the id given.
    init(id: String)
    /// What the command did, from the record it returned.
    func sentence(_ record: Request.Noun.Record) -> String
}

extension LeasedActionCommand {
    /// The one positional argument: the resource's id.
    static var idArgument: [ArgumentDefinition] { [.positional("id", help: "The \(Request.Noun.noun)'s id.")] }

    /// The configuration of an action named `name`: its abstract, and the id as its one argument.
    static func action(_ name: String, _ abstract: String) -> CommandConfiguration {
        CommandConfiguration(name: name, abstract: abstract, arguments: idArgument)
    }

    /// The protocol command it sends.
    static var requests: [String]? { [Request.spec.name] }

    init(_ parsed: ParsedCommand) throws(UsageError) { self.init(id: parsed.value("id") ?? "") }

    func run(_ context: CLIContext) throws {
        let reply = try context.send(Request(id: try LeasedID.given(id)))
        try context.printRecord(reply.rows.first, of: Request.Noun.noun, sentence)
    }
}

/// `hook list [PROJECT]`, `source list [PROJECT]`: the resources of one project or of every project, as a table (or
/// JSON). Each kind says only its columns, its row and what to print when there is none.
protocol LeasedListCommand: RunnableCommand {
    /// The kind listed.
    associatedtype Noun: LeasedNoun
    /// Only this project's; nil: every project's.
    var project: String? { get }
    /// A command listing `project`'s (nil: every project's).
    init(project: String?)
    /// The table's columns.
    static var columns: [String] { get }
    /// What to print when there is none.
    static var emptyMessage: String { get }
    /// A resource's row.
    static func row(_ record: Noun.Record) -> [String]
}

extension LeasedListCommand {
    /// The configuration of a list that `abstract` describes, with the project as its one optional argument.
    static func listing(_ abstract: String) -> CommandConfiguration {
        CommandConfiguration(
            name: "list", abstract: abstract,
            arguments: [.positional("project", optional: true, help: "Only this project's \(Noun.noun)s.")])
    }

    init(_ parsed: ParsedCommand) throws(UsageError) { self.init(project: parsed.value("project")) }

    func run(_ context: CLIContext) throws {
        let records = try context.send(LeasedListRequest<Noun>(project: project)).rows
        if context.isJSON {
            try Output.json(records.map(\.listJSON))
        } else if records.isEmpty {
            print(Self.emptyMessage)
        } else {
            Output.table(Self.columns, records.map(Self.row))
        }
    }
}

extension LeasedID {
    /// The id a user gave, read as the daemon reads it: one that is no id is refused before anything is sent, with
    /// the daemon's words and code (`a hook id is a number (BADARG)`).
    static func given(_ text: String) throws(CLIError) -> LeasedID {
        do {
            return try LeasedID(wire: text)
        } catch {
            throw .refused(.badArgument, error.message)
        }
    }
}

extension CLIContext {
    /// Prints the one record of a leased resource (`noun`) a command replied with: its JSON object, or the sentence.
    func printRecord<Record: LeasedRecord>(
        _ record: Record?, of noun: String, _ sentence: (Record) -> String
    ) throws {
        guard let record else { throw CLIError.badReply("no \(noun) record in the reply") }
        if isJSON {
            try Output.json(record.listJSON)
        } else {
            print(Output.plain(sentence(record)))
        }
    }
}
