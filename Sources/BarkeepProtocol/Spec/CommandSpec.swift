import BarkeepCore

/// What running a command does to the data, as MCP's annotations and the HTTP method say it.
public enum Effect: Sendable, Equatable {
    /// Reads only.
    case read
    /// Changes the audit; `isDestructive`: may overwrite what people decided; `isIdempotent`: again changes nothing.
    case write(isDestructive: Bool, isIdempotent: Bool)
}

/// One layout of a command's positional arguments, for a command that takes several (`POSE RECORD PROJECT
/// SCREEN POSE RESULT` or `POSE RECORD PROJECT POSE RESULT screens=GLOB`): the positional fields it holds, in
/// order, and the key it requires, which tells two layouts of one length apart.
public struct Shape: Sendable, Equatable {
    /// The positional fields' keys, in order (a subsequence of the request's positional fields).
    public let positionals: [String]
    /// A key this layout requires; nil: none.
    public let requiredKey: String?

    /// A layout of `positionals`, requiring `requiredKey` when given.
    public init(_ positionals: String..., requiring requiredKey: String? = nil) {
        self.positionals = positionals
        self.requiredKey = requiredKey
    }
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
    /// Its route in the HTTP API, or why it has none.
    public let http: HTTPRoute
    /// Its layouts of positional arguments; empty: one, every positional field in order (trailing optional ones
    /// may be left out).
    public let shapes: [Shape]
    /// Whether it is an upload: its line ends with the payload's size in bytes (a positional argument of the
    /// table's, no field's), and that many bytes follow the line.
    public let payload: Bool
    /// Whether a read must still run on the primary database: it records something on the side (HELLO a token's
    /// use, CHECK a `scan.checked` event), which a read-only replica refuses, or it starts where the primary's log
    /// is (WATCH: its `since=` is the primary's head, where the events it streams begin).
    public let readsPrimary: Bool

    /// Whether it may be served by a streaming replica (`barkeepd --read-database-url`): it reads only and writes
    /// nothing on the side. The one rule of what goes to the replica.
    public var readsReplica: Bool { effect == .read && !readsPrimary }

    /// Whether it is a write for the daemon's presence (`Presence`): its effect is not a read. The reads that record
    /// something on the side (HELLO a token's last use, CHECK a `scan.checked` event) change nothing STATUS answers
    /// from, so they are not: the one rule of what voids a sole daemon's kept STATUS checks, separate from where a
    /// command reads (`readsReplica`).
    public var writes: Bool { effect != .read }

    /// Declares a command; `http`: its route in the HTTP API; `payload`: an upload (`INGEST PROJECT … SIZE` then
    /// SIZE bytes); `readsPrimary`: a read that writes on the side, kept off replicas.
    public init(
        _ name: String, role: Role?, effect: Effect, summary: String, http: HTTPRoute, shapes: [Shape] = [],
        payload: Bool = false, readsPrimary: Bool = false
    ) {
        self.name = name
        self.role = role
        self.effect = effect
        self.summary = summary
        self.http = http
        self.shapes = shapes
        self.payload = payload
        self.readsPrimary = readsPrimary
    }
}

/// A request of one command: its fields are its arguments, its spec the rest; `Reply` is what the server answers.
public protocol CommandRequest: WireFields {
    /// The reply.
    associatedtype Reply: CommandReply
    /// The command.
    static var spec: CommandSpec { get }
    /// The reply's JSON view: what `barkeep … --json` prints and the HTTP API's 200 body (the reply's own
    /// `jsonBody` unless the command shapes one).
    func jsonBody(of reply: Reply) -> Any
    /// The JSON Schema of `jsonBody(of:)`; nil where none is declared yet. A command shaping its own body declares
    /// its schema too (SpecWalkTests checks each example body against it).
    static var jsonBodySchema: [String: Any]? { get }
}

extension CommandRequest {
    /// The reply's own JSON view.
    public func jsonBody(of reply: Reply) -> Any { reply.jsonBody }

    /// The reply's own JSON view's schema.
    public static var jsonBodySchema: [String: Any]? { Reply.jsonBodySchema }

    /// The positional fields, in order.
    public static var positionals: [Field<Self>] { fields.filter { $0.placement == .positional } }

    /// How many positional arguments it takes (an upload's SIZE included).
    public static var positionalRange: ClosedRange<Int> {
        let size = spec.payload ? 1 : 0
        let shapes = spec.shapes
        guard !shapes.isEmpty else {
            return positionals.filter(\.isRequired).count + size...positionals.count + size
        }
        let counts = shapes.map(\.positionals.count)
        return (counts.min() ?? 0) + size...(counts.max() ?? 0) + size
    }

    /// The keys it accepts.
    public static var keys: Set<String> { Set(fields.filter { $0.placement != .positional }.map(\.key)) }

    /// The keys it requires.
    public static var requiredKeys: Set<String> {
        Set(fields.filter { $0.placement != .positional && $0.isRequired }.map(\.key))
    }

    /// Each field's JSON name and JSON Schema (with its documentation), in order: what a tool bound to the command
    /// offers.
    public static var argumentSchemas: [(jsonName: String, schema: [String: Any])] {
        fields.map { ($0.jsonName, $0.schema.json(description: $0.summary)) }
    }

    /// The keys that may be given more than once.
    public static var repeatableKeys: Set<String> {
        Set(fields.filter { $0.placement == .repeatedKey }.map(\.key))
    }

    /// What its positionals name, for the table's checks: by position, from its longest layout.
    public static var argumentKinds: [ArgumentKind] {
        guard let longest = spec.shapes.max(by: { $0.positionals.count < $1.positionals.count }) else {
            return positionals.map(\.names)
        }
        return longest.positionals.map { key in positionals.first { $0.key == key }?.names ?? .other }
    }

    /// Reads a request the command table has checked (arity, keys, role): each field's value parsed, the first
    /// problem naming its field. (A server decoding many requests of one command keeps a `RequestDecoder`.)
    public init(decoding request: Request) throws(FieldProblem) {
        self = try RequestDecoder<Self>().decode(request)
    }

    static func read(_ text: String, into request: inout Self, field: Field<Self>) throws(FieldProblem) {
        do {
            try field.read(&request, text)
        } catch {
            throw FieldProblem(key: field.key, jsonName: field.jsonName, problem: error)
        }
    }
    /// A request with every field of its first layout set to its type's example (the other layouts' positionals
    /// and required keys left out), for the spec walk's round trips.
    public static var exampleRequest: Self {
        guard let shape = spec.shapes.first else { return example }
        let otherKeys = Set(spec.shapes.compactMap(\.requiredKey)).subtracting(shape.requiredKey.map { [$0] } ?? [])
        var value = Self()
        for field in fields {
            let isInShape =
                field.placement == .positional
                ? shape.positionals.contains(field.key) : !otherKeys.contains(field.key)
            if isInShape { field.setExample(&value) }
        }
        return value
    }

    /// The request line: verb and subverb, positionals, then keys, as the CLI sends it.
    public var wireRequest: Request {
        let words = Self.spec.name.split(separator: " ").map(String.init)
        var request = Request(verb: words[0], arguments: Array(words.dropFirst()))
        for field in Self.fields {
            if field.placement == .repeatedKey {
                for text in field.writeEach(self) { request.keywordList.append((field.key, text)) }
                continue
            }
            guard let text = field.write(self) else { continue }
            if field.placement == .positional {
                request.arguments.append(text)
            } else {
                request.keywordList.append((field.key, text))
            }
        }
        return request
    }

    /// Reads a JSON object of arguments by JSON name (MCP, HTTP): unknown names and values of the wrong type are
    /// refused naming the argument, missing required ones too.
    public init(json: [String: Any]) throws(FieldProblem) {
        try self.init(json: json, path: [:])
    }

    /// Reads an HTTP write: the fields its route's path gives (`{project}`), by wire key in wire form, and the rest
    /// from the JSON body by JSON name, as `init(json:)` does.
    public init(json: [String: Any], path: [String: String]) throws(FieldProblem) {
        try self.init(json: json, argumentsOf: Self.spec.name, wireValues: path)
        try checkShape()
    }

    /// A request read from JSON fits one of the layouts: its positional fields given are exactly one layout's,
    /// with that layout's required key.
    private func checkShape() throws(FieldProblem) {
        let shapes = Self.spec.shapes
        guard !shapes.isEmpty else { return }
        let given = Set(Self.fields.filter { $0.placement == .positional && $0.writeJSON(self) != nil }.map(\.key))
        let keys = Set(Self.fields.filter { $0.placement != .positional && $0.writeJSON(self) != nil }.map(\.key))
        let fits = shapes.contains { shape in
            Set(shape.positionals) == given && (shape.requiredKey.map(keys.contains) ?? true)
        }
        guard !fits else { return }
        let layouts = shapes.map { shape in
            let names = shape.positionals + (shape.requiredKey.map { [$0] } ?? [])
            return names.map { $0.replacingOccurrences(of: "-", with: "_") }.joined(separator: ", ")
        }
        throw FieldProblem(
            key: "", jsonName: "",
            message: "\(Self.spec.name) takes one of: " + layouts.map { "(\($0))" }.joined(separator: " or "))
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

/// How requests of `R` are read (`CommandRequest.init(decoding:)`), its layouts and keys worked out once from its
/// spec and fields: a server keeps one per command rather than working them out for every request.
public struct RequestDecoder<R: CommandRequest>: Sendable {
    /// A layout of positionals: the key whose presence picks it (nil: none needed) and its fields in order.
    private typealias Layout = (requiredKey: String?, fields: [Field<R>])

    /// The layouts that take each number of positionals, in the spec's order; nil: the command declares none, and
    /// its positional fields are read in order whatever their number.
    private let layouts: [Int: [Layout]]?
    private let positionals: [Field<R>]
    /// The keyword fields by key (the first of a key, as declared).
    private let keyed: [String: Field<R>]

    /// The decoder of `R`'s requests.
    public init() {
        let positionals = R.fields.filter { $0.placement == .positional }
        self.positionals = positionals
        var keyed: [String: Field<R>] = [:]
        for field in R.fields where field.placement != .positional && keyed[field.key] == nil {
            keyed[field.key] = field
        }
        self.keyed = keyed
        let shapes = R.spec.shapes
        guard !shapes.isEmpty else {
            layouts = nil
            return
        }
        var layouts: [Int: [Layout]] = [:]
        for shape in shapes {
            let fields = shape.positionals.compactMap { key in positionals.first { $0.key == key } }
            layouts[shape.positionals.count, default: []].append((shape.requiredKey, fields))
        }
        self.layouts = layouts
    }

    /// The positional fields of the layout a request of `count` positionals and these keywords takes: the first
    /// that fits whose required key is given, else the first that fits and requires none.
    private func positionalFields(count: Int, keywords: [(key: String, value: String)]) -> [Field<R>] {
        guard let layouts else { return positionals }
        let fitting = layouts[count] ?? []
        let layout =
            fitting.first { layout in layout.requiredKey.map { key in keywords.contains { $0.key == key } } ?? false }
            ?? fitting.first { $0.requiredKey == nil }
        return layout?.fields ?? []
    }

    /// Reads `request` (checked by the command table): each field's value parsed, the first problem naming its
    /// field.
    public func decode(_ request: Request) throws(FieldProblem) -> R {
        var value = R()
        let keywords = request.keywordList
        let layout = positionalFields(count: request.arguments.count, keywords: keywords)
        // An upload's size, last, is past every field: the table reads it. (By index: a generic zip costs more here,
        // where `R` is not known when this module is compiled.)
        for index in 0..<min(layout.count, request.arguments.count) {
            try R.read(request.arguments[index], into: &value, field: layout[index])
        }
        for (key, text) in keywords {
            guard let field = keyed[key] else { continue }
            try R.read(text, into: &value, field: field)
        }
        return value
    }
}
