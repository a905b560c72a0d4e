import BarkeepCore
import Foundation

/// A type a field of a request or a reply holds: how it is written on the wire (`key=value`, a positional) and in
/// JSON, and its JSON Schema. Parsing refuses with today's wording; a Core rule stays Core's (the conformance calls
/// it).
public protocol WireValue: Sendable {
    /// Parses the wire's text.
    init(wire: String) throws(ValueProblem)
    /// The wire's text.
    var wire: String { get }
    /// Reads a JSON value (as JSONSerialization gives it).
    init(json: Any) throws(ValueProblem)
    /// The JSON value.
    var json: Any { get }
    /// Its JSON Schema.
    static var schema: ValueSchema { get }
    /// A value for the spec walk's round trips.
    static var example: Self { get }
}

extension String: WireValue {
    /// Any text.
    public init(wire: String) throws(ValueProblem) { self = wire }
    /// The text.
    public var wire: String { self }
    /// A JSON string.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be a string") }
        self = text
    }
    /// The text.
    public var json: Any { self }
    /// A string.
    public static var schema: ValueSchema { .string() }
    /// A word every name rule accepts (a project, token or screen name), so examples pass the fields' checks.
    public static var example: String { "example-1" }
}

extension Int: WireValue {
    /// Decimal digits, an optional leading `-`.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Int(wire) else { throw ValueProblem(predicate: "must be a whole number") }
        self = value
    }
    /// Decimal.
    public var wire: String { String(self) }
    /// A JSON integer, as JSONSerialization gives it: an NSNumber that is not a boolean and holds a whole number
    /// (on Linux an NSNumber of 0 or 1 also casts to Bool, so `is Bool` cannot tell them apart).
    public init(json: Any) throws(ValueProblem) {
        guard let value = Int(jsonNumber: json) else { throw ValueProblem(predicate: "must be an integer") }
        self = value
    }

    /// The whole number a JSON value holds; nil for a boolean, a fraction or anything else.
    public init?(jsonNumber json: Any) {
        if let number = json as? NSNumber {
            guard String(cString: number.objCType) != "c" else { return nil }
            let double = number.doubleValue
            guard double == double.rounded(), abs(double) < 9e15 else { return nil }
            self = number.intValue
        } else if let value = json as? Int {
            self = value
        } else {
            return nil
        }
    }
    /// The number.
    public var json: Any { self }
    /// An integer.
    public static var schema: ValueSchema { .integer() }
    /// Past the byte cache of small numbers.
    public static var example: Int { 1234 }
}

extension Bool: WireValue {
    /// `yes` or `no`.
    public init(wire: String) throws(ValueProblem) {
        switch wire {
        case "yes": self = true
        case "no": self = false
        default: throw ValueProblem(predicate: "must be yes or no")
        }
    }
    /// `yes` or `no`.
    public var wire: String { self ? "yes" : "no" }
    /// A JSON boolean.
    public init(json: Any) throws(ValueProblem) {
        // An NSNumber is a boolean only when made from one (on Linux 0 and 1 cast to Bool too).
        if let number = json as? NSNumber, String(cString: number.objCType) != "c" {
            throw ValueProblem(predicate: "must be true or false")
        }
        guard let value = json as? Bool else { throw ValueProblem(predicate: "must be true or false") }
        self = value
    }
    /// The boolean.
    public var json: Any { self }
    /// A boolean.
    public static var schema: ValueSchema { .boolean }
    /// True.
    public static var example: Bool { true }
}

extension Array: WireValue where Element: WireValue {
    /// A comma-separated list (empty text: none).
    public init(wire: String) throws(ValueProblem) {
        var values: [Element] = []
        for part in wire.split(separator: ",") { values.append(try Element(wire: String(part))) }
        self = values
    }
    /// Comma-separated.
    public var wire: String { map(\.wire).joined(separator: ",") }
    /// A JSON array.
    public init(json: Any) throws(ValueProblem) {
        guard let array = json as? [Any] else { throw ValueProblem(predicate: "must be an array") }
        var values: [Element] = []
        for value in array { values.append(try Element(json: value)) }
        self = values
    }
    /// The elements' JSON values.
    public var json: Any { map(\.json) }
    /// An array of the element's schema.
    public static var schema: ValueSchema { .array(Element.schema) }
    /// Two examples.
    public static var example: [Element] { [Element.example, Element.example] }
}

/// A closed set of Core's vocabulary (roles, poses, statuses…), written as its raw value: the values come from the
/// enumeration, never spelled again.
public protocol WireEnum: WireValue, RawRepresentable, CaseIterable where RawValue == String {}

extension WireEnum {
    /// One of the raw values.
    public init(wire: String) throws(ValueProblem) {
        guard let value = Self(rawValue: wire) else { throw ValueProblem(predicate: "must be \(Self.choices)") }
        self = value
    }
    /// The raw value.
    public var wire: String { rawValue }
    /// A JSON string holding one of the raw values.
    public init(json: Any) throws(ValueProblem) {
        guard let text = json as? String else { throw ValueProblem(predicate: "must be \(Self.choices)") }
        try self.init(wire: text)
    }
    /// The raw value.
    public var json: Any { rawValue }
    /// A string of the raw values.
    public static var schema: ValueSchema { .string(values: allCases.map(\.rawValue)) }
    /// The last case.
    public static var example: Self { Array(allCases)[allCases.count - 1] }

    /// `a, b or c`.
    static var choices: String {
        let values = allCases.map(\.rawValue)
        guard let last = values.last, values.count > 1 else { return values.first ?? "" }
        return values.dropLast().joined(separator: ", ") + " or " + last
    }
}

extension Role: WireEnum {}
