/// Why a text or a JSON value cannot be a field's value: today's wording, either a whole sentence ("a token name is
/// 1 to 64 …") or a predicate the field's name is put before ("must be reader, writer or admin").
public struct ValueProblem: Error, Sendable, Equatable {
    /// The words.
    public var message: String
    /// Whether `message` is a predicate of the field's name (`role must be …`) rather than a sentence of its own.
    public var isPredicate: Bool

    /// A problem stated as a whole sentence.
    public init(_ message: String) {
        self.message = message
        isPredicate = false
    }

    /// A problem stated after the field's name: `ValueProblem(predicate: "must be yes or no")`.
    public init(predicate: String) {
        message = predicate
        isPredicate = true
    }
}

/// A value problem of one field of a request: which key (the wire's) and JSON name it is about, and the message
/// the line protocol answers (`BADARG`). HTTP and MCP name the key from it.
public struct FieldProblem: Error, Sendable, Equatable {
    /// The field's wire key (`deployment-target`), or the positional's name (`name`).
    public var key: String
    /// The field's JSON name (`deployment_target`).
    public var jsonName: String
    /// The message, as the line protocol words it.
    public var message: String

    /// The problem `problem` of the field named `key`, `jsonName`.
    public init(key: String, jsonName: String, problem: ValueProblem) {
        self.key = key
        self.jsonName = jsonName
        message = problem.isPredicate ? "\(key) \(problem.message)" : problem.message
    }

    /// A problem of the request as a whole (no single field).
    public init(key: String, jsonName: String, message: String) {
        self.key = key
        self.jsonName = jsonName
        self.message = message
    }
}
