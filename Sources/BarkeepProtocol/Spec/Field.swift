/// One field of a request or a reply record, declared once: its wire key, where it sits, what it holds, its
/// documentation, the protocol versions that carry it and its JSON name. Everything else — the command table's
/// keys, decoding and encoding, the JSON view, JSON Schema — is computed from a type's list of fields.
public struct Field<Root>: Sendable {
    /// Where a request's field sits on the line (a reply's fields are always `key=value`).
    public enum Placement: Sendable, Equatable {
        /// A positional argument, in the order of the fields.
        case positional
        /// A `key=value` argument.
        case key
        /// A key that may be given several times (`path=A path=B`), each time adding a value.
        case repeatedKey
    }

    /// The wire key (`deployment-target`), or a positional's name as the docs write it in lower case.
    public let key: String
    /// The name in JSON (MCP arguments, `--json`, HTTP): the key with `-` as `_`.
    public let jsonName: String
    /// What it means, for docs and schemas.
    public let summary: String
    /// Positional or key.
    public let placement: Placement
    /// Whether a request must give it (a positional that is not optional, a key like TOKEN CREATE's `role`).
    public let isRequired: Bool
    /// What a positional names, for the table's length checks before any lookup.
    public let names: ArgumentKind
    /// The protocol versions that carry it (since…until).
    public let versions: ClosedRange<Int>
    /// Its JSON Schema.
    public let schema: ValueSchema

    let read: @Sendable (inout Root, String) throws(ValueProblem) -> Void
    let write: @Sendable (Root) -> String?
    /// A repeated key's values, one text each (empty for any other field).
    let writeEach: @Sendable (Root) -> [String]
    let readJSON: @Sendable (inout Root, Any) throws(ValueProblem) -> Void
    let writeJSON: @Sendable (Root) -> Any?
    /// Sets the field to its type's example (the walk's round trips).
    let setExample: @Sendable (inout Root) -> Void

    private init<V: WireValue>(
        key: String, summary: String, placement: Placement, isRequired: Bool, names: ArgumentKind,
        versions: ClosedRange<Int>, type: V.Type, check: (@Sendable (V) -> ValueProblem?)?,
        set: @escaping @Sendable (inout Root, V) -> Void, get: @escaping @Sendable (Root) -> V?
    ) {
        self.key = key
        jsonName = key.replacingOccurrences(of: "-", with: "_")
        self.summary = summary
        self.placement = placement
        self.isRequired = isRequired
        self.names = names
        self.versions = versions
        schema = V.schema
        read = { root, text throws(ValueProblem) in
            let value = try V(wire: text)
            if let problem = check?(value) { throw problem }
            set(&root, value)
        }
        write = { root in get(root)?.wire }
        writeEach = { _ in [] }
        readJSON = { root, json throws(ValueProblem) in
            let value = try V(json: json)
            if let problem = check?(value) { throw problem }
            set(&root, value)
        }
        writeJSON = { root in get(root)?.json }
        setExample = { root in set(&root, V.example) }
    }

    /// A field that is always present: a reply's field, or a request's required positional or key.
    public init<V: WireValue>(
        _ key: String, _ path: WritableKeyPath<Root, V> & Sendable, _ summary: String,
        placement: Placement = .key, names: ArgumentKind = .other,
        versions: ClosedRange<Int> = ProtocolVersion.supported, check: (@Sendable (V) -> ValueProblem?)? = nil
    ) {
        self.init(
            key: key, summary: summary, placement: placement, isRequired: true, names: names, versions: versions,
            type: V.self, check: check, set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
    }

    /// A field that may be absent (nil: left out of the record, the request or the JSON object).
    public init<V: WireValue>(
        _ key: String, _ path: WritableKeyPath<Root, V?> & Sendable, _ summary: String,
        placement: Placement = .key, names: ArgumentKind = .other,
        versions: ClosedRange<Int> = ProtocolVersion.supported, check: (@Sendable (V) -> ValueProblem?)? = nil
    ) {
        self.init(
            key: key, summary: summary, placement: placement, isRequired: false, names: names, versions: versions,
            type: V.self, check: check, set: { $0[keyPath: path] = $1 }, get: { $0[keyPath: path] })
    }

    /// A positional argument (required unless its value is optional).
    public static func argument<V: WireValue>(
        _ name: String, _ path: WritableKeyPath<Root, V> & Sendable, _ summary: String, names: ArgumentKind = .other,
        check: (@Sendable (V) -> ValueProblem?)? = nil
    ) -> Field {
        Field(name, path, summary, placement: .positional, names: names, check: check)
    }

    /// A key that may be given several times, each time adding one value (`path=A path=B`); in JSON an array.
    /// `isRequired`: at least once.
    public static func repeated<V: WireValue>(
        _ key: String, _ path: WritableKeyPath<Root, [V]> & Sendable, _ summary: String, isRequired: Bool = false,
        versions: ClosedRange<Int> = ProtocolVersion.supported, check: (@Sendable (V) -> ValueProblem?)? = nil
    ) -> Field {
        Field(repeating: key, path, summary, isRequired: isRequired, versions: versions, check: check)
    }

    private init<V: WireValue>(
        repeating key: String, _ path: WritableKeyPath<Root, [V]> & Sendable, _ summary: String, isRequired: Bool,
        versions: ClosedRange<Int>, check: (@Sendable (V) -> ValueProblem?)?
    ) {
        self.key = key
        jsonName = key.replacingOccurrences(of: "-", with: "_")
        self.summary = summary
        placement = .repeatedKey
        self.isRequired = isRequired
        names = .other
        self.versions = versions
        schema = .array(V.schema)
        read = { root, text throws(ValueProblem) in
            let value = try V(wire: text)
            if let problem = check?(value) { throw problem }
            root[keyPath: path].append(value)
        }
        write = { _ in nil }
        writeEach = { root in root[keyPath: path].map(\.wire) }
        readJSON = { root, json throws(ValueProblem) in
            guard let array = json as? [Any] else { throw ValueProblem(predicate: "must be an array") }
            var values: [V] = []
            for element in array {
                let value = try V(json: element)
                if let problem = check?(value) { throw problem }
                values.append(value)
            }
            if isRequired && values.isEmpty { throw ValueProblem(predicate: "must have at least one value") }
            root[keyPath: path] = values
        }
        writeJSON = { root in
            let values = root[keyPath: path]
            return values.isEmpty ? nil : values.map(\.json)
        }
        setExample = { root in root[keyPath: path] = [V.example] }
    }
}

/// A type whose values are written as fields: a request, a reply record, the fields of an `OK` line.
public protocol WireFields: WireRow {
    /// A value with every field at its default, filled by decoding.
    init()
    /// Its fields, in wire order.
    static var fields: [Field<Self>] { get }
    /// The name docs/protocol.md gives a record of this type (`token`, `project`); nil for the fields of an `OK`
    /// line or a request.
    static var recordName: String? { get }
}

extension WireFields {
    /// No record name: the fields of an `OK` line or a request.
    public static var recordName: String? { nil }

    /// Its fields' wire keys, in order.
    public static var fieldKeys: [String] { fields.map(\.key) }
}
