extension Field {
    /// The fields of a part of `Root` held at `path`, as fields of `Root`: a record that carries another's fields
    /// between its own (POSE RECORD's rows: `kind`, then the `pose` record's fields, then `from`) declares them once.
    public static func group<Part>(_ path: WritableKeyPath<Root, Part> & Sendable, _ fields: [Field<Part>]) -> [Field] {
        fields.map { part in
            Field(
                part, schema: part.schema,
                read: { root, text throws(ValueProblem) in try part.read(&root[keyPath: path], text) },
                write: { root in part.write(root[keyPath: path]) },
                writeEach: { root in part.writeEach(root[keyPath: path]) },
                readJSON: { root, json throws(ValueProblem) in try part.readJSON(&root[keyPath: path], json) },
                writeJSON: { root in part.writeJSON(root[keyPath: path]) },
                setExample: { root in part.setExample(&root[keyPath: path]) })
        }
    }

    /// The same field, with a JSON Schema narrower than its type's (a text that MCP and HTTP require non-empty:
    /// `.string(minLength: 1)`). Only what JSONSchemaValidator checks.
    public func withSchema(_ schema: ValueSchema) -> Field {
        Field(
            self, schema: schema, read: read, write: write, writeEach: writeEach, readJSON: readJSON,
            writeJSON: writeJSON, setExample: setExample)
    }

    /// The same text field, with its JSON Schema one of `values` (a record's severity, kept as text on the wire,
    /// is one of Core's severities) and its example the last of them, so the walk's examples fit the schema.
    public func withChoices(_ values: [String]) -> Field {
        let read = read
        return Field(
            self, schema: .string(values: values), read: read, write: write, writeEach: writeEach, readJSON: readJSON,
            writeJSON: writeJSON,
            setExample: { root in
                guard let example = values.last else { return }
                try? read(&root, example)
            })
    }

    private init<Other>(
        _ other: Field<Other>, schema: ValueSchema,
        read: @escaping @Sendable (inout Root, String) throws(ValueProblem) -> Void,
        write: @escaping @Sendable (Root) -> String?,
        writeEach: @escaping @Sendable (Root) -> [String],
        readJSON: @escaping @Sendable (inout Root, Any) throws(ValueProblem) -> Void,
        writeJSON: @escaping @Sendable (Root) -> Any?,
        setExample: @escaping @Sendable (inout Root) -> Void
    ) {
        key = other.key
        jsonName = other.jsonName
        summary = other.summary
        placement =
            switch other.placement {
            case .positional: .positional
            case .key: .key
            case .repeatedKey: .repeatedKey
            }
        isRequired = other.isRequired
        names = other.names
        versions = other.versions
        self.schema = schema
        self.read = read
        self.write = write
        self.writeEach = writeEach
        self.readJSON = readJSON
        self.writeJSON = writeJSON
        self.setExample = setExample
    }
}
