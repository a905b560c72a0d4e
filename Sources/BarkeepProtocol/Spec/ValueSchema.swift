/// The JSON Schema of one value, in the subset JSONSchemaValidator checks (`type`, `enum`, `minLength`, `maxLength`,
/// `minimum`, `maximum`, `items`): what MCP's input and output schemas, and the HTTP API's OpenAPI document, say of a
/// field. Sendable, unlike the `[String: Any]` it renders to.
public indirect enum ValueSchema: Sendable, Equatable {
    /// A string, maybe one of `values`, of `minLength` to `maxLength` characters.
    case string(values: [String]? = nil, minLength: Int? = nil, maxLength: Int? = nil)
    /// An integer between `minimum` and `maximum`.
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// `true` or `false`.
    case boolean
    /// An array of values of one schema.
    case array(ValueSchema)
    /// A value matching any of these (a checklist step: its number or its key).
    case anyOf([ValueSchema])
    /// A schema with its own description (an array's items, an alternative of `anyOf`); a field's summary, when
    /// given, describes it instead.
    case described(String, ValueSchema)

    /// The schema as a JSON object, with `description` when given.
    public func json(description: String? = nil) -> [String: Any] {
        var schema: [String: Any]
        switch self {
        case .string(let values, let minLength, let maxLength):
            schema = ["type": "string"]
            if let values { schema["enum"] = values }
            if let minLength { schema["minLength"] = minLength }
            if let maxLength { schema["maxLength"] = maxLength }
        case .integer(let minimum, let maximum):
            schema = ["type": "integer"]
            if let minimum { schema["minimum"] = minimum }
            if let maximum { schema["maximum"] = maximum }
        case .boolean: schema = ["type": "boolean"]
        case .array(let items): schema = ["type": "array", "items": items.json()]
        case .anyOf(let alternatives): schema = ["anyOf": alternatives.map { $0.json() }]
        case .described(let text, let schema): return schema.json(description: description ?? text)
        }
        if let description { schema["description"] = description }
        return schema
    }

    /// A JSON value of the wrong type for this schema: the walk gives it to every MCP argument and expects a refusal.
    public var wrongExample: Any {
        switch self {
        case .string: 1
        case .integer, .boolean, .array: "x"
        case .anyOf: true
        case .described(_, let schema): schema.wrongExample
        }
    }
}
