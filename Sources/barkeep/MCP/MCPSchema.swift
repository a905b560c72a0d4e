import BarkeepCore

/// JSON Schema (draft 2020-12, MCP's default) pieces for the tools' input and output schemas. Every enumeration
/// comes from Core's types (statuses, severities, sources, step states, pose results) or the checklist's one
/// home, never spelled here. Input schemas use only the keywords JSONSchemaValidator checks (a test holds them to
/// it): what a tool lists is what every call is checked against.
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

    // MARK: - Vocabulary from Core

    /// Every finding status, and the filter language's words for groups of them (`open`, `all`).
    static var statusWords: [String] {
        [FindingQuery.openWord, FindingQuery.allWord] + FindingStatus.allCases.map(\.rawValue)
    }

    /// The statuses a person may set (FindingLifecycle.personStatuses).
    static var settableStatuses: [String] { FindingLifecycle.personStatuses.map(\.rawValue) }

    /// Every severity.
    static var severities: [String] { Severity.allCases.map(\.rawValue) }

    /// A checklist step: its number or its key.
    static var step: [String: Any] {
        let numbers = ChecklistStep.numbers
        return [
            "description": "A checklist step: its number (\(numbers.lowerBound) to \(numbers.upperBound)) or its key.",
            "anyOf": [
                integer("The step's number.", minimum: numbers.lowerBound, maximum: numbers.upperBound),
                string("The step's key.", values: ChecklistStep.all.map(\.key)),
            ],
        ]
    }

    /// The filter language, as top-level arguments of the tools that select findings, typed for agents (lists as
    /// arrays, `blocked` a boolean): a schema per FindingFilters field, by its JSON name (a walk test holds the keys
    /// to the fields).
    static var findingFilters: [String: [String: Any]] {
        [
            "status": array(
                string("A status, open (the default: those that need work) or all.", values: statusWords),
                "Only these statuses; default: open (the findings that need work)."),
            "severity": array(string("A severity.", values: severities), "Only these severities."),
            "rule": array(string("A scanner rule (DUO007).", minLength: 1), "Only these rules."),
            "screen": array(
                string(
                    "A screen key, or unmapped for the findings no screen counts (each says why: unmapped).",
                    minLength: 1),
                "Only the findings counting for these screens (their own and their components')."),
            "owner": string(
                "Only the findings counting for the screens this person owns; \(ScreenOwner.nobody): those no one owns.",
                minLength: 1),
            "assignee": string("Only the findings assigned to this name; none: to no one.", minLength: 1),
            "source": string(
                "Only scanner findings, or only manual items.", values: FindingSource.allCases.map(\.rawValue)),
            "step": step,
            "file": string(
                "Only this file and the files under it as a directory; only those under it when it ends with /.",
                minLength: 1),
            "blocked": boolean("true: only the findings blocked on the SDK; false: only the others."),
            "new_in": integer("Only the findings first seen in this run (its number): new in it.", minimum: 1),
        ]
    }

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
