import BarkeepCore

/// JSON Schema (draft 2020-12, MCP's default) pieces for the tools' output schemas. Every enumeration comes from
/// Core's types (step states, pose results, unmapped reasons), never spelled here. Input schemas are not written
/// here: they are made from the fields that declare a tool's arguments (MCPTool.taking), in the keywords
/// JSONSchemaValidator checks, so what a tool lists is what every call is checked against.
enum MCPSchema {
    /// An object with these properties; `isClosed`: no others (input schemas, so a misspelt argument is refused).
    static func object(
        _ properties: [String: [String: Any]],
        required: [String] = [],
        isClosed: Bool = false,
        description: String? = nil
    ) -> [String: Any] {
        var schema: [String: Any] = ["type": "object", "properties": properties]
        if !required.isEmpty { schema["required"] = required }
        if isClosed { schema["additionalProperties"] = false }
        if let description { schema["description"] = description }
        return schema
    }

    /// A string, maybe one of `values`, of `minLength` to `maxLength` characters.
    static func string(
        _ description: String, values: [String]? = nil, minLength: Int? = nil, maxLength: Int? = nil
    ) -> [String: Any] {
        var schema: [String: Any] = ["type": "string", "description": description]
        if let values { schema["enum"] = values }
        if let minLength { schema["minLength"] = minLength }
        if let maxLength { schema["maxLength"] = maxLength }
        return schema
    }

    /// An integer.
    static func integer(_ description: String, minimum: Int? = nil, maximum: Int? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "integer", "description": description]
        if let minimum { schema["minimum"] = minimum }
        if let maximum { schema["maximum"] = maximum }
        return schema
    }

    /// A boolean.
    static func boolean(_ description: String) -> [String: Any] { ["type": "boolean", "description": description] }

    /// An array of `items`, of at least `minItems`.
    static func array(_ items: [String: Any], _ description: String? = nil, minItems: Int? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "array", "items": items]
        if let description { schema["description"] = description }
        if let minItems { schema["minItems"] = minItems }
        return schema
    }

    /// A value of one of these JSON types (`["string", "null"]`).
    static func types(_ names: String...) -> [String: Any] { ["type": names] }

    // MARK: - Records

    /// A finding as `barkeep findings --json` prints it.
    static var finding: [String: Any] {
        var properties: [String: [String: Any]] = [:]
        for key in [
            "source", "rule", "title", "severity", "file", "snippet", "status", "screen", "assignee", "gate",
            "excluded",
        ] {
            properties[key] = types("string", "null")
        }
        properties["unmapped"] = [
            "type": ["string", "null"],
            "description": "Why no screen counts it: "
                + UnmappedReason.allCases.map { "\($0.rawValue) (\($0.explanation))" }.joined(separator: ", ")
                + "; null when a screen does.",
        ]
        for key in ["line", "step", "first_seen_run", "last_seen_run", "still_reported_run"] {
            properties[key] = types("integer", "null")
        }
        properties["id"] = integer("The finding's number in the project.")
        properties["needs"] = array(["type": "string"], "The SDK symbols its fix needs.")
        return object(properties, required: ["id", "status", "needs"])
    }

    /// An event as `barkeep watch --json` prints it.
    static var event: [String: Any] {
        object(
            ["seq": integer("The event's sequence number."), "kind": ["type": "string"]], required: ["seq", "kind"])
    }

    /// A screen record as `barkeep screen list --json` prints it.
    static var screen: [String: Any] {
        object(
            [
                "key": ["type": "string"], "kind": ["type": "string"], "title": ["type": "string"],
                "owner": ["type": "string"], "paths": array(["type": "string"]), "uses": array(["type": "string"]),
                "components": array(["type": "string"], "A component's: the components it uses itself."),
                "poses": array(["type": "string"]), "findings": ["type": "integer"], "done": ["type": "boolean"],
            ], required: ["key"])
    }

    /// A pose record as `barkeep poses --json` prints it.
    static var pose: [String: Any] {
        object(
            [
                "screen": ["type": "string"], "pose": ["type": "string"],
                "result": string("The latest result; none: nothing recorded.", values: ["none"] + poseResults),
                "finding": ["type": "integer"],
            ], required: ["screen", "pose", "result"])
    }

    /// Every pose result.
    static var poseResults: [String] { PoseResult.allCases.map(\.rawValue) }

    /// A step record of a screen.
    static var screenStep: [String: Any] {
        object(
            [
                "step": ["type": "integer"], "key": ["type": "string"],
                "state": string("What counts.", values: StepState.allCases.map(\.rawValue)),
                "recorded": string("What a person set.", values: StepState.allCases.map(\.rawValue)),
                "blockers": array(["type": "string"], "The open findings that keep it from being done."),
            ], required: ["step", "key", "state"])
    }
}
