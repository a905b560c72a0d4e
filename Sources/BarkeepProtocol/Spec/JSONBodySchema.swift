/// The pieces of the JSON Schemas of bodies a command shapes by hand (`barkeep findings --json`'s objects, STATUS's
/// dashboard): each built beside the code shaping its body, from the fields' own schemas, closed (no other member)
/// so that SpecWalkTests and the HTTP API's conformance walk fail when the body and its schema part.
public enum JSONBodySchema {
    /// An object with exactly `properties`: each required but those in `optional`, no other member.
    public static func closed(_ properties: [String: [String: Any]], optional: Set<String> = []) -> [String: Any] {
        [
            "type": "object", "properties": properties,
            "required": properties.keys.filter { !optional.contains($0) }.sorted(), "additionalProperties": false,
        ]
    }

    /// `schema`, or null.
    public static func nullable(_ schema: [String: Any]) -> [String: Any] { ["anyOf": [schema, ["type": "null"]]] }

    /// An array of `items`.
    public static func array(_ items: [String: Any]) -> [String: Any] { ["type": "array", "items": items] }

    /// `schema` (an object's) with `changes` made to its members: nil removes one (from `required` too), a schema
    /// adds or replaces one (required when `required`).
    public static func amended(
        _ schema: [String: Any], _ changes: [String: [String: Any]?], required: Bool = true
    ) -> [String: Any] {
        var schema = schema
        var properties = schema["properties"] as? [String: Any] ?? [:]
        var names = schema["required"] as? [String] ?? []
        for (name, change) in changes {
            properties[name] = change
            names.removeAll { $0 == name }
            if change != nil && required { names.append(name) }
        }
        schema["properties"] = properties
        schema["required"] = names.sorted()
        return schema
    }
}

extension WireFields {
    /// The schema of the member `jsonName` of `json`, with its field's summary; null allowed too when `isNullable`
    /// (a hand-shaped body writes an absent optional field as null). A name no field has: a schema nothing matches
    /// (`enum: []`), so the body's own tests fail.
    public static func memberSchema(_ jsonName: String, isNullable: Bool = false) -> [String: Any] {
        guard let field = fields.first(where: { $0.jsonName == jsonName }) else { return ["enum": [Any]()] }
        let schema = field.schema.json(description: field.summary)
        return isNullable ? JSONBodySchema.nullable(schema) : schema
    }

    /// The members `names` of `json` as a hand-shaped body writes them: each field's schema, null allowed for an
    /// optional field (written as null when absent).
    public static func memberSchemas(_ names: [String]) -> [String: [String: Any]] {
        var schemas: [String: [String: Any]] = [:]
        for name in names {
            let isRequired = fields.first { $0.jsonName == name }?.isRequired ?? true
            schemas[name] = memberSchema(name, isNullable: !isRequired)
        }
        return schemas
    }
}
