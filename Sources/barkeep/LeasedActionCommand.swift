import BarkeepCommandLine
import BarkeepProtocol

/// `hook pause|resume ID`, `source pause|resume|run-now ID`: one request naming a leased resource by id, answered by
/// its record, told in one sentence (or printed as JSON).
protocol LeasedActionCommand: RunnableCommand {
    /// The protocol verb, the resource's noun in upper case (`HOOK`).
    static var noun: String { get }
    /// The subcommand sent (`PAUSE`).
    static var verb: String { get }
    /// The resource's record as a JSON object.
    static func json(_ record: Record) -> [String: Any]
    /// The id given.
    var id: String { get }
    /// A command for the id given.
    init(id: String)
    /// What the command did, from the record it returned.
    func sentence(_ record: Record) -> String
}

extension LeasedActionCommand {
    /// The one positional argument: the resource's id.
    static var idArgument: [ArgumentDefinition] { [.positional("id", help: "The \(noun.lowercased())'s id.")] }

    /// The configuration of an action named `name`: its abstract, and the id as its one argument.
    static func action(_ name: String, _ abstract: String) -> CommandConfiguration {
        CommandConfiguration(name: name, abstract: abstract, arguments: idArgument)
    }

    /// The protocol command it sends.
    static var requests: [String]? { ["\(noun) \(verb)"] }

    init(_ parsed: ParsedCommand) throws(UsageError) { self.init(id: parsed.value("id") ?? "") }

    func run(_ context: CLIContext) throws {
        let response = try context.request(Request(verb: Self.noun, arguments: [Self.verb, id]))
        try context.printRecord(of: Self.noun, in: response, json: Self.json, sentence)
    }
}

extension CLIContext {
    /// Prints the one record of a leased resource (`noun`) a command replied with: as JSON, through `json`, or as
    /// the sentence.
    func printRecord(
        of noun: String,
        in response: Response,
        json: (Record) -> [String: Any],
        _ sentence: (Record) -> String
    ) throws {
        guard let record = response.records.first else {
            throw CLIError.badReply("no \(noun.lowercased()) record in the reply")
        }
        if isJSON {
            try Output.json(json(record))
        } else {
            print(Output.plain(sentence(record)))
        }
    }
}
