import BarkeepCore

/// What running a command does to the data, as MCP's annotations and the HTTP method say it.
public enum Effect: Sendable, Equatable {
    /// Reads only.
    case read
    /// Changes the audit; `isDestructive`: may overwrite what people decided; `isIdempotent`: again changes nothing.
    case write(isDestructive: Bool, isIdempotent: Bool)
}

/// The declaration of one command: its name, the least role that may run it, what it does, and (from the request
/// type's fields) its arguments. The server's command table, the CLI, MCP and the docs take it from here.
public struct CommandSpec: Sendable {
    /// The verb, or verb and subverb (`TOKEN CREATE`), upper case.
    public let name: String
    /// The least role that may run it; nil: anyone.
    public let role: Role?
    /// What it does to the data.
    public let effect: Effect
    /// One sentence for docs and tool descriptions.
    public let summary: String

    /// Declares a command.
    public init(_ name: String, role: Role?, effect: Effect, summary: String) {
        self.name = name
        self.role = role
        self.effect = effect
        self.summary = summary
    }
}

/// A request of one command: its fields are its arguments, its spec the rest; `Reply` is what the server answers.
public protocol CommandRequest: WireFields {
    /// The reply.
    associatedtype Reply: CommandReply
    /// The command.
    static var spec: CommandSpec { get }
}

extension CommandRequest {
    /// The positional fields, in order.
    public static var positionals: [Field<Self>] { fields.filter { $0.placement == .positional } }

    /// How many positional arguments it takes.
    public static var positionalRange: ClosedRange<Int> {
        positionals.filter(\.isRequired).count...positionals.count
    }

    /// The keys it accepts.
    public static var keys: Set<String> { Set(fields.filter { $0.placement == .key }.map(\.key)) }

    /// The keys it requires.
    public static var requiredKeys: Set<String> {
        Set(fields.filter { $0.placement == .key && $0.isRequired }.map(\.key))
    }

    /// What its positionals name, for the table's checks.
    public static var argumentKinds: [ArgumentKind] { positionals.map(\.names) }

    /// Reads a request the command table has checked (arity, keys, role): each field's value parsed, the first
    /// problem naming its field.
    public init(decoding request: Request) throws(FieldProblem) {
        self.init()
        let fields = Self.fields
        for (field, argument) in zip(Self.positionals, request.arguments) {
            try Self.read(argument, into: &self, field: field)
        }
        for (key, value) in request.keywordList {
            guard let field = fields.first(where: { $0.placement == .key && $0.key == key }) else { continue }
            try Self.read(value, into: &self, field: field)
        }
    }

    private static func read(_ text: String, into request: inout Self, field: Field<Self>) throws(FieldProblem) {
        do {
            try field.read(&request, text)
        } catch {
            throw FieldProblem(key: field.key, jsonName: field.jsonName, problem: error)
        }
    }

    /// The request line: verb and subverb, positionals, then keys, as the CLI sends it.
    public var wireRequest: Request {
        let words = Self.spec.name.split(separator: " ").map(String.init)
        var request = Request(verb: words[0], arguments: Array(words.dropFirst()))
        for field in Self.fields {
            guard let text = field.write(self) else { continue }
            switch field.placement {
            case .positional: request.arguments.append(text)
            case .key: request.keywordList.append((field.key, text))
            }
        }
        return request
    }

    /// Reads a JSON object of arguments by JSON name (MCP, HTTP): unknown names and values of the wrong type are
    /// refused naming the argument, missing required ones too.
    public init(json: [String: Any]) throws(FieldProblem) {
        self.init()
        let fields = Self.fields
        for name in json.keys.sorted() where !fields.contains(where: { $0.jsonName == name }) {
            throw FieldProblem(key: name, jsonName: name, message: "\(name) is not an argument of \(Self.spec.name)")
        }
        for field in fields {
            guard let value = json[field.jsonName] else {
                guard !field.isRequired else {
                    throw FieldProblem(
                        key: field.key, jsonName: field.jsonName, message: "\(field.jsonName) is required")
                }
                continue
            }
            do {
                try field.readJSON(&self, value)
            } catch {
                var problem = error
                if problem.isPredicate { problem.message = field.jsonName + " " + problem.message }
                problem.isPredicate = false
                throw FieldProblem(key: field.key, jsonName: field.jsonName, problem: problem)
            }
        }
    }

    /// The JSON Schema of its arguments by JSON name: closed (`additionalProperties: false`), required from the
    /// fields. Only keywords JSONSchemaValidator checks.
    public static var inputSchema: [String: Any] {
        var properties: [String: Any] = [:]
        for field in fields { properties[field.jsonName] = field.schema.json(description: field.summary) }
        var schema: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
        let required = fields.filter(\.isRequired).map(\.jsonName)
        if !required.isEmpty { schema["required"] = required }
        return schema
    }
}
