/// The members of one JSON object, for the SARIF parser: where each member it asked for starts in the document, so
/// that it can read them in its own order, whatever order the document gives them, without an object tree.
///
/// Reading the object once notes a `JSONStreamReader` positioned at each wanted member's value and skips the value;
/// the accessors then read that value. Every accessor treats an absent member and `null` alike (`nil` from the
/// optional accessors, `missing` from the required ones) and throws a `JSONProblem` naming the member when it has
/// the wrong type. Members not asked for are skipped (still checked: grammar, duplicate keys).
struct JSONMembers {
    private var members: [String: JSONStreamReader] = [:]

    /// Reads the object at `reader`, noting the members named in `keys`; throws `expected an object` at the value
    /// itself for another kind of value. With `isDocument`, the object is a whole document, checked as
    /// `JSONStreamReader.readDocument` checks it.
    init(_ reader: inout JSONStreamReader, keys: Set<String>, isDocument: Bool = false) throws(JSONProblem) {
        var members: [String: JSONStreamReader] = [:]
        let note = { (reader: inout JSONStreamReader, key: String) throws(JSONProblem) in
            if keys.contains(key) { members[key] = reader }
            try reader.skipValue()
        }
        if isDocument { try reader.readDocument(note) } else { try reader.readObject(note) }
        self.members = members
    }

    /// A reader positioned at the value of member `key`; nil when the object has no such member.
    func member(_ key: String) -> JSONStreamReader? { members[key] }

    // MARK: - Optional members

    /// The member `key` as a string; nil when absent or null.
    func string(_ key: String) throws(JSONProblem) -> String? {
        try reading(key) { reader throws(JSONProblem) in try reader.readString() }
    }

    /// The member `key` as an integer between `minimum` and `JSONStreamReader.largestInteger`; nil when absent or
    /// null.
    func integer(_ key: String, minimum: Int) throws(JSONProblem) -> Int? {
        try reading(key) { reader throws(JSONProblem) in try reader.readInteger(minimum: minimum) }
    }

    /// The member `key` as an object, noting its members named in `keys`; nil when absent or null.
    func object(_ key: String, keys: Set<String>) throws(JSONProblem) -> JSONMembers? {
        try reading(key) { reader throws(JSONProblem) in
            try reader.peekKind() == .null ? nil : JSONMembers(&reader, keys: keys)
        }
    }

    /// A reader positioned at the member `key`, an array (read it with `JSONStreamReader.readArray`, which names the
    /// index of a problem; the caller names the key); nil when absent or null.
    func array(_ key: String) throws(JSONProblem) -> JSONStreamReader? {
        try reading(key) { reader throws(JSONProblem) in
            switch try reader.peekKind() {
            case .null: return nil
            case .array: return reader
            default: throw JSONProblem(problem: JSONProblem.expectedArray)
            }
        }
    }

    /// The member `key` as an object whose members are all strings (SARIF fingerprints); nil when absent or null.
    func stringDictionary(_ key: String) throws(JSONProblem) -> [String: String]? {
        try reading(key) { reader throws(JSONProblem) in
            guard try reader.peekKind() != .null else { return nil }
            var strings: [String: String] = [:]
            try reader.readObject { reader, name throws(JSONProblem) in
                guard try reader.peekKind() == .string, let string = try reader.readString() else {
                    throw JSONProblem(problem: JSONProblem.expectedString)
                }
                strings[name] = string
            }
            return strings
        }
    }

    /// The string member `key` of the object member `outer` (`message.text`); nil when either is absent or null.
    func string(in outer: String, _ key: String) throws(JSONProblem) -> String? {
        guard let object = try object(outer, keys: [key]) else { return nil }
        do {
            return try object.string(key)
        } catch {
            throw error.inside(.key(outer))
        }
    }

    /// The integer member `key` of the object member `outer` (`rule.index`); nil when either is absent or null.
    func integer(in outer: String, _ key: String, minimum: Int) throws(JSONProblem) -> Int? {
        guard let object = try object(outer, keys: [key]) else { return nil }
        do {
            return try object.integer(key, minimum: minimum)
        } catch {
            throw error.inside(.key(outer))
        }
    }

    // MARK: - Required members

    /// The member `key` as a string; throws `missing` when absent or null.
    func requiredString(_ key: String) throws(JSONProblem) -> String {
        guard let string = try string(key) else { throw JSONProblem(at: .key(key), problem: JSONProblem.missing) }
        return string
    }

    /// The member `key` as an object, noting its members named in `keys`; throws `missing` when absent or null.
    func requiredObject(_ key: String, keys: Set<String>) throws(JSONProblem) -> JSONMembers {
        guard let object = try object(key, keys: keys) else {
            throw JSONProblem(at: .key(key), problem: JSONProblem.missing)
        }
        return object
    }

    // MARK: - Reading

    /// Runs `read` on a copy of the reader at member `key` (nil when there is none), naming the key in its problems.
    private func reading<Value>(
        _ key: String,
        _ read: (inout JSONStreamReader) throws(JSONProblem) -> Value?
    ) throws(JSONProblem) -> Value? {
        guard var reader = members[key] else { return nil }
        do {
            return try read(&reader)
        } catch {
            throw error.inside(.key(key))
        }
    }
}
