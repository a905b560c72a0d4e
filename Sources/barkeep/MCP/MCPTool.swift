import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// One tool of `barkeep mcp`: its name and description, its input and output JSON Schemas, what it does to the
/// audit (the MCP annotations) and the function that runs it.
struct MCPTool {
    /// What a tool does to the audit, as the MCP annotations say it: a command's effect, as its spec says it.
    typealias Effect = BarkeepProtocol.Effect

    /// The tool's name (`list_findings`).
    let name: String
    /// A title for people.
    let title: String
    /// What it does, for the model.
    let description: String
    /// Its own arguments (`project` is added to every tool), as JSON Schema properties.
    let arguments: [String: [String: Any]]
    /// The arguments it cannot do without.
    let required: [String]
    /// The schema of its structured content: always an object.
    let output: [String: Any]
    /// What it does to the audit.
    let effect: Effect
    /// Arguments that need others (`commit_time` needs `commit`), as the input schema's `dependentRequired`.
    var dependencies: [String: [String]] = [:]
    /// Each argument's wire key (and CLI option), by argument (`current_status` is the wire's `status` filter,
    /// `commit_time` its `commit-time`), from the fields it is declared by: for `MCPWording`.
    var wireKeys: [String: String] = [:]
    /// Runs it.
    let run: (MCPToolCall) throws -> MCPToolOutput
    /// The fields every call is decoded into (a request's, or a composite tool's arguments by reference to the
    /// request fields it forwards), each argument's JSON Schema taken from its field: for the tests.
    var fields: [(jsonName: String, schema: [String: Any])] = []
    /// The fields it does not offer, by JSON name.
    var hidden: Set<String> = []
    /// Its arguments named otherwise than their fields: tool argument → field JSON name.
    var renamed: [String: String] = [:]

    /// Whether it changes the audit (left out under `--read-only`).
    var isWrite: Bool { effect != .read }

    /// Its input schema: its arguments and `project`, closed (no other argument). `tools/list` lists it and every call
    /// is checked against it (JSONSchemaValidator) before the tool runs.
    var inputSchema: [String: Any] {
        var properties = arguments
        properties["project"] = MCPSchema.string(
            "The project (app under audit); default: the server's --project.", minLength: 1)
        var schema = MCPSchema.object(properties, required: required, isClosed: true)
        if !dependencies.isEmpty { schema["dependentRequired"] = dependencies }
        return schema
    }

    /// The tool as `tools/list` lists it.
    var listing: [String: Any] {
        let annotations: [String: Any]
        switch effect {
        case .read:
            annotations = [
                "title": title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true,
                "openWorldHint": false,
            ]
        case .write(let isDestructive, let isIdempotent):
            annotations = [
                "title": title, "readOnlyHint": false, "destructiveHint": isDestructive,
                "idempotentHint": isIdempotent, "openWorldHint": false,
            ]
        }
        return [
            "name": name, "title": title, "description": description,
            "inputSchema": inputSchema,
            "outputSchema": output, "annotations": annotations,
        ]
    }
}

/// What a tool returns: its structured content and a short text summary of it.
struct MCPToolOutput {
    /// The structured content (valid against the tool's output schema).
    var structured: [String: Any]
    /// One or a few lines for a model that reads text only.
    var summary: String
}

/// An argument a tool cannot use: answered as a tool error (`BADARG`), so the model can correct it.
struct MCPArgumentError: Error {
    /// Which argument, and what is wrong with it.
    let message: String
}

extension MCPTool {
    /// A tool whose arguments are the fields of `A`, by JSON name (less `hiding`, with the renames of `renaming`,
    /// tool argument → field JSON name), `project` optional (the server's `--project`): its input schema is made
    /// from the fields, and every call is decoded into an `A` through them (an unknown, mistyped or invalid argument
    /// refused naming the tool's argument) before `run` sees it. No per-tool argument code. `required`: the
    /// arguments required (default: the required fields'); `implied`: keys set to true before decoding, given the
    /// call's arguments by field JSON name (a layout's required key the tool hides), or a refusal.
    static func taking<A: WireFields>(
        _ arguments: A.Type, name: String, title: String, description: String, effect: Effect,
        hiding: Set<String> = [], renaming: [String: String] = [:], required: [String]? = nil,
        dependencies: [String: [String]] = [:],
        implied: @escaping ([String: Any]) throws(MCPArgumentError) -> [String] = { _ in [] },
        decode: (@Sendable ([String: Any]) throws(FieldProblem) -> A)? = nil, output: [String: Any],
        run: @escaping (A, MCPToolCall) throws -> MCPToolOutput
    ) -> MCPTool {
        let toolName = Dictionary(uniqueKeysWithValues: renaming.map { ($0.value, $0.key) })
        let offered = A.fields.filter { !hiding.contains($0.jsonName) }
        var schemas: [String: [String: Any]] = [:]
        var wireKeys: [String: String] = [:]
        for field in offered {
            let argument = toolName[field.jsonName] ?? field.jsonName
            schemas[argument] = field.schema.json(description: field.summary)
            wireKeys[argument] = field.key
        }
        let hasProject = A.fields.contains { $0.jsonName == "project" }
        let required =
            required
            ?? offered.filter { $0.isRequired && $0.jsonName != "project" }.map {
                toolName[$0.jsonName] ?? $0.jsonName
            }
        var tool = MCPTool(
            name: name, title: title, description: description, arguments: schemas, required: required,
            output: output, effect: effect, dependencies: dependencies
        ) { call in
            var json: [String: Any] = [:]
            for (key, value) in call.arguments where !(value is NSNull) && key != "project" {
                json[renaming[key] ?? key] = value
            }
            // Only what the tool offers: an unknown name, or a field it hides, is refused first.
            for key in json.keys.sorted() where !offered.contains(where: { $0.jsonName == key }) {
                let argument = toolName[key] ?? key
                throw MCPArgumentError(message: "\(argument) is not an argument of \(name)")
            }
            // A layout the call chooses; a refusal of the layout waits for the values' own (a wrong type first).
            var layoutProblem: MCPArgumentError?
            do throws(MCPArgumentError) {
                for key in try implied(json) { json[key] = true }
            } catch {
                layoutProblem = error
            }
            // `project` is every tool's (the server's --project when absent); a tool of no project checks and ignores it.
            let project = try call.project(isNeeded: hasProject)
            if hasProject { json["project"] = project }
            let decoded: A
            do throws(FieldProblem) {
                if let decode { decoded = try decode(json) } else { decoded = try A(json: json, argumentsOf: name) }
            } catch {
                if let layoutProblem, error.jsonName.isEmpty { throw layoutProblem }
                throw MCPArgumentError(message: Self.naming(error, toolName[error.jsonName]))
            }
            if let layoutProblem { throw layoutProblem }
            return try run(decoded, call)
        }
        tool.fields = A.fields.map { ($0.jsonName, $0.schema.json(description: $0.summary)) }
        tool.wireKeys = wireKeys
        tool.hidden = hiding
        tool.renamed = renaming
        return tool
    }

    /// A layout of a command a tool chooses without an argument for it: the layout's required key (`where`), which
    /// the tool hides, is set when the call gives one of the fields that choose (`by`, JSON names; the filters) and
    /// none of the positionals only other layouts take (`number`). A call that gives both, or neither, is refused
    /// before anything is sent: `noun` names the choosing fields in that refusal, `unless` says why neither is.
    struct ImpliedLayout {
        /// The layout's required key, a flag.
        let key: String
        /// The fields whose presence chooses it, by JSON name.
        let by: [String]
        /// What the refusal calls them (`filters`).
        let noun: String
        /// Why giving neither is refused (`an empty filter would choose every finding`).
        let unless: String
    }

    /// A tool bound to `R` end to end: its arguments are `R`'s fields (see `taking`), its effect `R`'s; a call is
    /// decoded into an `R` (its layout checked too), sent, and its typed reply shown by `present`. Of a command
    /// with several layouts, the tool takes the first whose required key it does not hide, and the one `implying`
    /// declares; positionals that all of those take are required.
    static func bound<R: CommandRequest>(
        _ request: R.Type, name: String, title: String, description: String, hiding: Set<String> = [],
        renaming: [String: String] = [:], implying layout: ImpliedLayout? = nil,
        dependencies: [String: [String]] = [:], output: [String: Any],
        present: @escaping (R.Reply, R) throws -> MCPToolOutput
    ) -> MCPTool {
        let jsonName = { (key: String) in key.replacingOccurrences(of: "-", with: "_") }
        let toolName = Dictionary(uniqueKeysWithValues: renaming.map { ($0.value, $0.key) })
        let first = R.spec.shapes.first { shape in shape.requiredKey.map { !hiding.contains(jsonName($0)) } ?? true }
        let impliedShape = layout.flatMap { layout in R.spec.shapes.first { $0.requiredKey == layout.key } }
        let shapes = [first, impliedShape].compactMap { $0 }
        let required = R.fields.filter { field in
            guard !hiding.contains(field.jsonName), field.jsonName != "project" else { return false }
            let isPositional = !shapes.isEmpty && shapes.allSatisfy { $0.positionals.contains(field.key) }
            return field.isRequired || isPositional
        }.map { toolName[$0.jsonName] ?? $0.jsonName }
        // The implied layout's key: set when the call chooses by the fields that choose, and not by positionals.
        let implied = { (json: [String: Any]) throws(MCPArgumentError) -> [String] in
            guard let layout, let impliedShape else { return [] }
            let others = R.positionals.map(\.key).filter { !impliedShape.positionals.contains($0) }
            let givenOthers = others.filter { json[jsonName($0)] != nil }.map { toolName[jsonName($0)] ?? jsonName($0) }
            let isChosen = layout.by.contains { json[$0] != nil }
            let named = others.map { toolName[jsonName($0)] ?? jsonName($0) }.joined(separator: " and ")
            switch (givenOthers.isEmpty, isChosen) {
            case (true, true): return [jsonName(layout.key)]
            case (false, false): return []
            case (false, true): throw MCPArgumentError(message: "give \(named) or \(layout.noun), not both")
            case (true, false):
                throw MCPArgumentError(message: "give \(named), or \(layout.noun) (\(layout.unless))")
            }
        }
        return taking(
            R.self, name: name, title: title, description: description, effect: R.spec.effect, hiding: hiding,
            renaming: renaming, required: required, dependencies: dependencies, implied: implied,
            decode: { json throws(FieldProblem) in try R(json: json) }, output: output
        ) { request, call throws in
            try present(try call.send(request), request)
        }
    }

    /// A field's problem in the words of the tool's argument: the field's JSON name replaced by the argument's
    /// (`argument`, when renamed), and the argument named first when the message does not open with it
    /// (`numbers: a finding is named by its number…`).
    private static func naming(_ problem: FieldProblem, _ argument: String?) -> String {
        guard !problem.jsonName.isEmpty else { return problem.message }
        let name = argument ?? problem.jsonName
        // The field's name as a word (a JSON name is letters and `_`), not inside another.
        let message = problem.message.replacingOccurrences(
            of: "\\b\(problem.jsonName)\\b", with: name, options: .regularExpression)
        // Named already when it opens with the name (`owner must…`, `owner= needs a name`).
        let next = message.dropFirst(name.count).first
        let isNamed = message.hasPrefix(name) && !(next.map { $0.isLetter || $0 == "_" } ?? false)
        return isNamed ? message : "\(name): \(message)"
    }
}
