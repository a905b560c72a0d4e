import BarkeepCore

extension WireFields {
    /// The value as a record of the reply, at protocol `version`: its fields in order, absent ones left out.
    public func record(version: Int) -> Record {
        var record = Record()
        append(to: &record, version: version)
        return record
    }

    /// Appends the value's fields at protocol `version` to `record`, after those it holds (a typed reply's `type=`).
    public func append(to record: inout Record, version: Int) {
        let fields = Self.fields
        record.reserveCapacity(record.fields.count + fields.count)
        for field in fields where field.versions.contains(version) { record.append(field.key, field.write(self)) }
    }

    /// Reads a record (or the fields of an `OK` line) as the client gets it: the one place a reply's fields are
    /// read by key. A required field missing, or a value that does not parse, is a bad reply naming the command
    /// and the field.
    public init(reading value: (String) -> String?, version: Int, context: String) throws(ProtocolError) {
        self.init()
        for field in Self.fields where field.versions.contains(version) {
            guard let text = value(field.key) else {
                guard !field.isRequired else { throw .badReply("\(context) has no \(field.key)") }
                continue
            }
            do {
                try field.read(&self, text)
            } catch {
                throw .badReply("\(context) \(field.key): \(error.message), got \(ValueExcerpt.quoted(text))")
            }
        }
    }

    /// Reads a reply's record.
    public init(record: Record, version: Int, context: String) throws(ProtocolError) {
        try self.init(reading: { record[$0] }, version: version, context: context)
    }

    /// The value as a JSON object by JSON name (`--json`, MCP, HTTP): absent fields left out.
    public var json: [String: Any] {
        var object: [String: Any] = [:]
        for field in Self.fields { object[field.jsonName] = field.writeJSON(self) }
        return object
    }

    /// The JSON Schema of `json`: closed, as `json` writes no member but its fields.
    public static var jsonSchema: [String: Any] {
        var properties: [String: Any] = [:]
        for field in fields { properties[field.jsonName] = field.schema.json(description: field.summary) }
        var schema: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
        let required = fields.filter(\.isRequired).map(\.jsonName)
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    /// Reads a JSON object of arguments by JSON name (MCP, HTTP; a request's or a tool's own): unknown names and
    /// values of the wrong type are refused naming the argument, missing required ones too; `owner` names what they
    /// are arguments of (`FINDING SET`, `list_screens`). `wireValues`: fields given outside the object, by wire key
    /// in wire form (an HTTP path's `{project}`); the object may not give them again.
    public init(
        json: [String: Any], argumentsOf owner: String, wireValues: [String: String] = [:]
    ) throws(FieldProblem) {
        self.init()
        let fields = Self.fields
        for name in json.keys.sorted() where !fields.contains(where: { $0.jsonName == name }) {
            throw FieldProblem(key: name, jsonName: name, message: "\(name) is not an argument of \(owner)")
        }
        for field in fields {
            if let text = wireValues[field.key] {
                guard json[field.jsonName] == nil else {
                    throw FieldProblem(
                        key: field.key, jsonName: field.jsonName,
                        message: "\(field.jsonName) is given by the path, not the body")
                }
                do {
                    try field.read(&self, text)
                } catch {
                    throw FieldProblem(key: field.key, jsonName: field.jsonName, problem: error)
                }
                continue
            }
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
}
