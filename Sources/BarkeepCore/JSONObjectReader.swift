import Foundation

/// Typed access to one JSON object that `JSONSerialization` produced, for the SARIF parser (duo_scan and SDK check
/// documents are read by `JSONStreamReader`, without an object tree).
///
/// Every accessor treats an absent member and `null` alike (`nil` from the optional accessors, `missing` from the
/// required ones) and throws a `JSONProblem` naming the member when it has the wrong type.
///
/// `JSONSerialization` gives `NSNumber` for both numbers and booleans, so `integer` looks at the number's storage
/// type: `true` and `12.5` are never read as integers, while `12.0` and `1e3` are (JSON has one number type).
///
/// Each accessor tries the expected type before testing for `NSNull`: on Linux, `is NSNull` on a Swift array or
/// dictionary bridges the whole subtree to Foundation objects, which cost more than the rest of the walk.
struct JSONObjectReader {
    /// The largest integer a document may hold anywhere: what a PostgreSQL `integer` column stores.
    static let largestInteger = Int(Int32.max)

    /// The object's members as `JSONSerialization` returned them.
    let members: [String: Any]

    /// Reads `value` as an object, or throws `expected an object` at the value itself.
    init(_ value: Any) throws(JSONProblem) {
        guard let members = value as? [String: Any] else { throw JSONProblem(problem: JSONProblem.expectedObject) }
        self.members = members
    }

    /// Parses a whole document whose top level must be an object.
    ///
    /// Bytes that are not JSON (garbage, a truncated file, a nesting deeper than `JSONSerialization` allows)
    /// throw `invalidDocument` with an empty path and the parser's own explanation in parentheses.
    static func parseDocument(_ bytes: [UInt8]) throws(CoreError) -> JSONObjectReader {
        let tree: Any
        do {
            tree = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            let nsError = error as NSError
            let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
            throw .invalidDocument(path: "", problem: "not valid JSON (\(detail))")
        }
        do {
            return try JSONObjectReader(tree)
        } catch {
            throw error.coreError
        }
    }

    // MARK: - Optional members

    /// The member `key` as a string; nil when absent or null.
    func string(_ key: String) throws(JSONProblem) -> String? {
        guard let value = members[key] else { return nil }
        if let string = value as? String { return string }
        if value is NSNull { return nil }
        throw JSONProblem(at: .key(key), problem: JSONProblem.expectedString)
    }

    /// The member `key` as an integer of at least `minimum`; nil when absent or null.
    func integer(_ key: String, minimum: Int) throws(JSONProblem) -> Int? {
        guard let value = members[key] else { return nil }
        guard let integer = Self.integer(from: value) else {
            if value is NSNull { return nil }
            throw JSONProblem(at: .key(key), problem: JSONProblem.expectedInteger)
        }
        guard integer >= minimum else {
            throw JSONProblem(at: .key(key), problem: JSONProblem.expectedInteger(atLeast: minimum))
        }
        guard integer <= Self.largestInteger else {
            throw JSONProblem(at: .key(key), problem: JSONProblem.expectedInteger(atMost: Self.largestInteger))
        }
        return integer
    }

    /// The member `key` as an object; nil when absent or null.
    func object(_ key: String) throws(JSONProblem) -> JSONObjectReader? {
        guard let value = members[key] else { return nil }
        if let members = value as? [String: Any] { return JSONObjectReader(members: members) }
        if value is NSNull { return nil }
        throw JSONProblem(at: .key(key), problem: JSONProblem.expectedObject)
    }

    /// The member `key` as an array; nil when absent or null.
    func array(_ key: String) throws(JSONProblem) -> [Any]? {
        guard let value = members[key] else { return nil }
        if let array = value as? [Any] { return array }
        if value is NSNull { return nil }
        throw JSONProblem(at: .key(key), problem: JSONProblem.expectedArray)
    }

    /// The member `key` as an object whose members are all strings (SARIF fingerprints); nil when absent or null.
    func stringDictionary(_ key: String) throws(JSONProblem) -> [String: String]? {
        guard let object = try object(key) else { return nil }
        var strings: [String: String] = [:]
        strings.reserveCapacity(object.members.count)
        for (name, value) in object.members {
            guard let string = value as? String else {
                throw JSONProblem(at: .key(key), .key(name), problem: JSONProblem.expectedString)
            }
            strings[name] = string
        }
        return strings
    }

    /// The string member `key` of the object member `outer` (`message.text`); nil when either is absent or null.
    func string(in outer: String, _ key: String) throws(JSONProblem) -> String? {
        guard let object = try object(outer) else { return nil }
        do {
            return try object.string(key)
        } catch {
            throw error.inside(.key(outer))
        }
    }

    /// The integer member `key` of the object member `outer` (`rule.index`); nil when either is absent or null.
    func integer(in outer: String, _ key: String, minimum: Int) throws(JSONProblem) -> Int? {
        guard let object = try object(outer) else { return nil }
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

    /// The member `key` as an integer of at least `minimum`; throws `missing` when absent or null.
    func requiredInteger(_ key: String, minimum: Int) throws(JSONProblem) -> Int {
        guard let integer = try integer(key, minimum: minimum) else {
            throw JSONProblem(at: .key(key), problem: JSONProblem.missing)
        }
        return integer
    }

    /// The member `key` as an object; throws `missing` when absent or null.
    func requiredObject(_ key: String) throws(JSONProblem) -> JSONObjectReader {
        guard let object = try object(key) else { throw JSONProblem(at: .key(key), problem: JSONProblem.missing) }
        return object
    }

    /// The member `key` as an array; throws `missing` when absent or null.
    func requiredArray(_ key: String) throws(JSONProblem) -> [Any] {
        guard let array = try array(key) else { throw JSONProblem(at: .key(key), problem: JSONProblem.missing) }
        return array
    }

    /// The member `key` as a boolean; throws `missing` when absent or null.
    func requiredBoolean(_ key: String) throws(JSONProblem) -> Bool {
        guard let value = members[key], !(value is NSNull) else {
            throw JSONProblem(at: .key(key), problem: JSONProblem.missing)
        }
        guard let number = value as? NSNumber,
            [UInt8(ascii: "c"), UInt8(ascii: "B")].contains(UInt8(bitPattern: number.objCType.pointee))
        else { throw JSONProblem(at: .key(key), problem: JSONProblem.expectedBoolean) }
        return number.boolValue
    }

    // MARK: - Values

    /// `value` as an `Int` if it is a JSON number with an integral value in range; nil for booleans, fractions,
    /// strings and numbers too large for `Int`.
    static func integer(from value: Any) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "c"), UInt8(ascii: "B"):
            // How JSONSerialization stores `true` and `false`.
            return nil
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            return Int(exactly: number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            // Unsigned storage: `intValue` would wrap 2^63 and above to negative numbers.
            return Int(exactly: number.uint64Value)
        default:
            return number.intValue
        }
    }

    private init(members: [String: Any]) {
        self.members = members
    }
}
