import Foundation

/// Checks a JSON value, as `JSONSerialization` reads it, against a JSON Schema written in a small subset of draft
/// 2020-12: the subset the MCP tools' input schemas use, so that what a tool lists is exactly what it enforces.
///
/// Assertions (checked): `type` (one name or a list: object, array, string, integer, number, boolean, null),
/// `enum`, `properties`, `required`, `additionalProperties` (only `false`: no other members), `dependentRequired`,
/// `items`, `minItems`, `maxItems`, `minLength`, `maxLength`, `minimum`, `maximum` and `anyOf`. Annotations (carried,
/// never checked): `description`, `title`, `default`. Any other keyword is not understood: `unsupportedKeywords`
/// names it, so that a schema never claims a rule nothing enforces. An integer is a number without a fraction
/// (`3.0` is one, as in JSON Schema); `true` is a boolean, never the number 1.
///
/// The first violation found is returned, in the order of the schema's members (an unknown member before any
/// other, then the required ones), naming its place as a tool's caller wrote it: `dry_run`, `numbers[2]`.
public enum JSONSchemaValidator {
    /// The keywords it checks.
    public static let assertions: Set<String> = [
        "type", "enum", "properties", "required", "additionalProperties", "dependentRequired", "items", "minItems",
        "maxItems", "minLength", "maxLength", "minimum", "maximum", "anyOf",
    ]

    /// The keywords it carries without checking: they describe, they do not constrain.
    public static let annotations: Set<String> = ["description", "title", "default"]

    /// The keywords of `schema` and of the schemas inside it that are neither checked nor annotations, each with
    /// its place (`properties.step.anyOf[1].pattern`); empty when the validator understands all of it.
    public static func unsupportedKeywords(in schema: [String: Any], at place: String = "") -> [String] {
        var found: [String] = []
        func inner(_ name: String) -> String { place.isEmpty ? name : place + "." + name }
        for (keyword, value) in schema.sorted(by: { $0.key < $1.key }) {
            guard assertions.contains(keyword) || annotations.contains(keyword) else {
                found.append(inner(keyword))
                continue
            }
            switch keyword {
            case "properties":
                for (name, property) in (value as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    found += unsupportedKeywords(in: property as? [String: Any] ?? [:], at: inner("properties.\(name)"))
                }
            case "items":
                found += unsupportedKeywords(in: value as? [String: Any] ?? [:], at: inner("items"))
            case "anyOf":
                for (index, alternative) in (value as? [Any] ?? []).enumerated() {
                    found += unsupportedKeywords(in: alternative as? [String: Any] ?? [:], at: inner("anyOf[\(index)]"))
                }
            case "additionalProperties"
            where !(JSONValueKind(value) == .boolean && (value as? NSNumber)?.boolValue == false):
                found.append(inner("additionalProperties (only false is understood)"))
            default:
                break
            }
        }
        return found
    }

    /// The first way `value` breaks `schema`, or nil when it conforms. `place` names the value (empty: the arguments
    /// object itself, whose members are called arguments).
    public static func violation(of value: Any, against schema: [String: Any], at place: String = "")
        -> SchemaViolation?
    {
        let kind = JSONValueKind(value)
        if let alternatives = schema["anyOf"] as? [[String: Any]] {
            if let violation = anyOfViolation(of: value, kind: kind, alternatives, at: place) { return violation }
        }
        if let types = typeNames(schema), !types.contains(where: { kind.isInstance(of: $0) }) {
            return SchemaViolation(
                place: place, problem: "must be \(expectation(of: schema)), not \(kind.phrase(value))")
        }
        if let values = schema["enum"] as? [Any], !values.contains(where: { isEqual($0, value) }) {
            return enumViolation(of: value, values, at: place)
        }
        switch kind {
        case .object: return objectViolation(of: value as? [String: Any] ?? [:], schema, at: place)
        case .array: return arrayViolation(of: value as? [Any] ?? [], schema, at: place)
        case .string: return stringViolation(of: value as? String ?? "", schema, at: place)
        case .integer, .number: return numberViolation(of: value, schema, at: place)
        case .boolean, .null: return nil
        }
    }

    // MARK: - By kind of value

    private static func objectViolation(of object: [String: Any], _ schema: [String: Any], at place: String)
        -> SchemaViolation?
    {
        let properties = schema["properties"] as? [String: Any] ?? [:]
        let isClosed = (schema["additionalProperties"] as? NSNumber).map {
            JSONValueKind($0) == .boolean && !$0.boolValue
        }
        if isClosed == true {
            for name in object.keys.sorted() where properties[name] == nil {
                let known = properties.keys.sorted()
                let suggestions = NameSuggestion.closest(to: name, among: known)
                let what = place.isEmpty ? "unknown argument" : "\(place) has no member"
                let hint =
                    suggestions.isEmpty
                    ? (known.isEmpty ? "; it takes none" : "; known: " + known.joined(separator: ", "))
                    : NameSuggestion.hint(suggestions)
                return SchemaViolation(place: "", problem: "\(what) \(ValueExcerpt.quoted(name))\(hint)")
            }
        }
        for name in schema["required"] as? [String] ?? [] where object[name] == nil {
            return SchemaViolation(place: member(name, of: place), problem: "is required")
        }
        for (name, needed) in (schema["dependentRequired"] as? [String: [String]] ?? [:]).sorted(by: { $0.key < $1.key }
        )
        where object[name] != nil {
            let missing = needed.filter { object[$0] == nil }
            if !missing.isEmpty {
                return SchemaViolation(
                    place: member(name, of: place),
                    problem: "needs " + QuantityText.conjunction(missing.map { member($0, of: place) }))
            }
        }
        for name in object.keys.sorted() {
            guard let property = properties[name] as? [String: Any], let value = object[name] else { continue }
            if let violation = violation(of: value, against: property, at: member(name, of: place)) { return violation }
        }
        return nil
    }

    private static func arrayViolation(of array: [Any], _ schema: [String: Any], at place: String) -> SchemaViolation? {
        if let minimum = integer(schema["minItems"]), array.count < minimum {
            return SchemaViolation(
                place: place, problem: minimum == 1 ? "must not be empty" : "must hold at least \(minimum) items")
        }
        if let maximum = integer(schema["maxItems"]), array.count > maximum {
            return SchemaViolation(place: place, problem: "must hold at most \(maximum) items, not \(array.count)")
        }
        guard let items = schema["items"] as? [String: Any] else { return nil }
        for (index, item) in array.enumerated() {
            if let violation = violation(of: item, against: items, at: "\(place)[\(index)]") { return violation }
        }
        return nil
    }

    private static func stringViolation(of text: String, _ schema: [String: Any], at place: String) -> SchemaViolation?
    {
        // JSON Schema counts characters as code points.
        let length = text.unicodeScalars.count
        if let minimum = integer(schema["minLength"]), length < minimum {
            return SchemaViolation(
                place: place, problem: minimum == 1 ? "must not be empty" : "must be at least \(minimum) characters")
        }
        if let maximum = integer(schema["maxLength"]), length > maximum {
            return SchemaViolation(place: place, problem: "must be at most \(maximum) characters")
        }
        return nil
    }

    private static func numberViolation(of value: Any, _ schema: [String: Any], at place: String) -> SchemaViolation? {
        guard let number = (value as? NSNumber)?.doubleValue else { return nil }
        let minimum = (schema["minimum"] as? NSNumber)?.doubleValue
        let maximum = (schema["maximum"] as? NSNumber)?.doubleValue
        guard number < (minimum ?? -.infinity) || number > (maximum ?? .infinity) else { return nil }
        let given = JSONValueKind.numberText(number)
        switch (minimum, maximum) {
        case (let low?, let high?):
            return SchemaViolation(
                place: place,
                problem:
                    "must be from \(JSONValueKind.numberText(low)) to \(JSONValueKind.numberText(high)), not \(given)")
        case (let low?, nil):
            return SchemaViolation(
                place: place, problem: "must be at least \(JSONValueKind.numberText(low)), not \(given)")
        default:
            return SchemaViolation(
                place: place, problem: "must be at most \(JSONValueKind.numberText(maximum ?? 0)), not \(given)")
        }
    }

    private static func enumViolation(of value: Any, _ values: [Any], at place: String) -> SchemaViolation {
        let allowed = values.map { JSONValueKind($0) == .string ? ($0 as? String ?? "") : "\($0)" }
        var problem = "must be one of \(allowed.joined(separator: ", ")), not \(JSONValueKind(value).phrase(value))"
        if let text = value as? String, JSONValueKind(value) == .string {
            problem += NameSuggestion.hint(NameSuggestion.closest(to: text, among: allowed))
        }
        return SchemaViolation(place: place, problem: problem)
    }

    /// The alternatives of `anyOf`: none matching is answered by the alternative of the value's own type (its enum or
    /// its range), else by naming the types the alternatives take.
    private static func anyOfViolation(
        of value: Any, kind: JSONValueKind, _ alternatives: [[String: Any]], at place: String
    )
        -> SchemaViolation?
    {
        var violations: [SchemaViolation] = []
        for alternative in alternatives {
            guard let violation = violation(of: value, against: alternative, at: place) else { return nil }
            violations.append(violation)
        }
        let sameType = alternatives.indices.filter { index in
            typeNames(alternatives[index])?.contains { kind.isInstance(of: $0) } ?? true
        }
        if let first = sameType.first { return violations[first] }
        let expected = alternatives.map { expectation(of: $0) }
        return SchemaViolation(
            place: place, problem: "must be \(QuantityText.alternatives(expected)), not \(kind.phrase(value))")
    }

    // MARK: - Helpers

    /// The type names of `schema`, or nil when it names none.
    private static func typeNames(_ schema: [String: Any]) -> [String]? {
        if let name = schema["type"] as? String { return [name] }
        return schema["type"] as? [String]
    }

    /// What `schema` asks for, in words: `an array of integers`, `a string or null`.
    static func expectation(of schema: [String: Any]) -> String {
        guard let names = typeNames(schema) else { return "a value" }
        return QuantityText.alternatives(
            names.map { name in
                guard name == "array", let items = schema["items"] as? [String: Any], let inner = typeNames(items)
                else { return JSONValueKind.article(of: name) }
                return "an array of " + QuantityText.alternatives(inner.map(JSONValueKind.plural(of:)))
            })
    }

    /// `name` as a member of the object at `place`.
    private static func member(_ name: String, of place: String) -> String {
        place.isEmpty ? name : "\(place).\(name)"
    }

    /// A schema's integer keyword.
    private static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, JSONValueKind(number) == .integer else { return nil }
        return number.intValue
    }

    /// JSON equality for the scalars an enum holds: strings by their text, numbers by value, booleans apart.
    private static func isEqual(_ left: Any, _ right: Any) -> Bool {
        let (leftKind, rightKind) = (JSONValueKind(left), JSONValueKind(right))
        switch (leftKind, rightKind) {
        case (.string, .string): return (left as? String) == (right as? String)
        case (.integer, .integer), (.number, .number), (.integer, .number), (.number, .integer):
            return (left as? NSNumber)?.doubleValue == (right as? NSNumber)?.doubleValue
        case (.boolean, .boolean): return (left as? NSNumber)?.boolValue == (right as? NSNumber)?.boolValue
        case (.null, .null): return true
        default: return false
        }
    }
}

/// One way a value breaks a schema: where, and what is wrong there.
public struct SchemaViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// The place, as a caller wrote it (`dry_run`, `numbers[2]`, `filter.owner`); empty for the value itself.
    public var place: String
    /// What is wrong there (`must be a boolean, not a string ('yes')`).
    public var problem: String

    /// A violation at `place`.
    public init(place: String, problem: String) {
        self.place = place
        self.problem = problem
    }

    /// `dry_run must be a boolean, not a string ('yes')`; the problem alone for the value itself.
    public var description: String { place.isEmpty ? problem : "\(place) \(problem)" }
}

/// The kind of a JSON value as `JSONSerialization` reads it (numbers and booleans are both `NSNumber`; a boolean's
/// is of the C type `char`), or as Swift code writes one.
enum JSONValueKind: Equatable {
    case null, boolean, integer, number, string, array, object

    /// The kind of `value`.
    init(_ value: Any) {
        switch value {
        case is NSNull: self = .null
        case is String: self = .string
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" {
                self = .boolean
            } else {
                let double = number.doubleValue
                self = double.isFinite && double == double.rounded() && abs(double) < 9e15 ? .integer : .number
            }
        case is [Any]: self = .array
        case is [String: Any]: self = .object
        default: self = .null
        }
    }

    /// Whether a value of this kind is an instance of the JSON Schema type `name` (an integer is a number too).
    func isInstance(of name: String) -> Bool {
        switch (self, name) {
        case (.null, "null"), (.boolean, "boolean"), (.integer, "integer"), (.integer, "number"), (.number, "number"),
            (.string, "string"), (.array, "array"), (.object, "object"):
            true
        default: false
        }
    }

    /// The value as a refusal quotes it: its kind, and a short excerpt of a scalar (`a string ('yes')`, `null`).
    func phrase(_ value: Any) -> String {
        switch self {
        case .null: return "null"
        case .boolean: return (value as? NSNumber)?.boolValue == true ? "true" : "false"
        case .integer, .number: return Self.numberText((value as? NSNumber)?.doubleValue ?? 0)
        case .string: return ValueExcerpt.quoted(value as? String ?? "")
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// `a string`, `an integer`, `a boolean (true or false)`.
    static func article(of name: String) -> String {
        switch name {
        case "integer", "object", "array": "an \(name)"
        case "boolean": "a boolean (true or false)"
        case "null": "null"
        default: "a \(name)"
        }
    }

    /// `strings`, `integers`.
    static func plural(of name: String) -> String { name == "null" ? "nulls" : name + "s" }

    /// A number as JSON writes it: `3`, not `3.0`.
    static func numberText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 9e15 ? String(Int(number)) : String(number)
    }
}
