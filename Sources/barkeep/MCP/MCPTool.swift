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
