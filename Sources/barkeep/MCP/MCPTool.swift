import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import Foundation

/// One tool of `barkeep mcp`: its name and description, its input and output JSON Schemas, what it does to the
/// audit (the MCP annotations) and the function that runs it.
struct MCPTool {
    /// What a tool does to the audit, as the MCP annotations say it.
    enum Effect: Equatable {
        /// Reads only.
        case read
        /// Changes the audit. `isDestructive`: it may overwrite what people decided (a status, an assignee);
        /// `isIdempotent`: calling it again with the same arguments changes nothing more.
        case write(isDestructive: Bool, isIdempotent: Bool)
    }

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
    /// The arguments whose CLI option and wire key are not their own name with `-` for `_`, by argument
    /// (`current_status` is the wire's `status` filter), for `MCPWording`.
    var wireNames: [String: String] = [:]
    /// Runs it.
    let run: (MCPToolCall) throws -> MCPToolOutput

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

extension MCPTool {
    /// A tool bound to the command `request` specifies: its arguments (JSON names, schemas, documentation), which
    /// of them are required and its effect come from the request's spec, written nowhere else.
    init<R: CommandRequest>(
        name: String, title: String, description: String, request: R.Type, output: [String: Any],
        run: @escaping (MCPToolCall) throws -> MCPToolOutput
    ) {
        var arguments: [String: [String: Any]] = [:]
        for field in R.fields { arguments[field.jsonName] = field.schema.json(description: field.summary) }
        let effect: Effect =
            switch R.spec.effect {
            case .read: .read
            case .write(let isDestructive, let isIdempotent):
                .write(isDestructive: isDestructive, isIdempotent: isIdempotent)
            }
        self.init(
            name: name, title: title, description: description, arguments: arguments,
            required: R.fields.filter(\.isRequired).map(\.jsonName), output: output, effect: effect, run: run)
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
    /// A tool bound to `R` end to end: its input schema is `R`'s arguments by JSON name (less `hiding`, with the
    /// renames of `renaming`, tool name → field JSON name), `project` optional (the server's `--project`); a call
    /// is decoded into an `R` through the spec (an unknown, mistyped or invalid argument refused naming the tool's
    /// argument), sent, and its typed reply shown by `present`. No per-tool argument code. Required arguments are
    /// listed in the order of the request's fields.
    static func bound<R: CommandRequest>(
        _ request: R.Type, name: String, title: String, description: String, hiding: Set<String> = [],
        renaming: [String: String] = [:], output: [String: Any],
        present: @escaping (R.Reply, R) throws -> MCPToolOutput
    ) -> MCPTool {
        let toolName = Dictionary(uniqueKeysWithValues: renaming.map { ($0.value, $0.key) })
        // Of a command with several layouts, the tool takes the first whose required key it does not hide: its
        // positionals are required.
        let shape = R.spec.shapes.first { shape in
            shape.requiredKey.map { !hiding.contains($0.replacingOccurrences(of: "-", with: "_")) } ?? true
        }
        var arguments: [String: [String: Any]] = [:]
        var required: [String] = []
        for field in R.fields where !hiding.contains(field.jsonName) {
            let argument = toolName[field.jsonName] ?? field.jsonName
            arguments[argument] = field.schema.json(description: field.summary)
            let isRequired = field.isRequired || shape?.positionals.contains(field.key) == true
            if isRequired && field.jsonName != "project" { required.append(argument) }
        }
        let effect: Effect =
            switch R.spec.effect {
            case .read: .read
            case .write(let isDestructive, let isIdempotent):
                .write(isDestructive: isDestructive, isIdempotent: isIdempotent)
            }
        return MCPTool(
            name: name, title: title, description: description, arguments: arguments, required: required,
            output: output, effect: effect
        ) { call in
            var json: [String: Any] = [:]
            for (key, value) in call.arguments where !(value is NSNull) { json[renaming[key] ?? key] = value }
            if R.fields.contains(where: { $0.jsonName == "project" }) { json["project"] = try call.project() }
            let decoded: R
            do throws(FieldProblem) {
                decoded = try R(json: json)
            } catch {
                var message = error.message
                if let argument = toolName[error.jsonName] {
                    message = message.replacingOccurrences(of: error.jsonName, with: argument)
                }
                throw MCPArgumentError(message: message)
            }
            return try present(try call.send(decoded), decoded)
        }
    }
}
