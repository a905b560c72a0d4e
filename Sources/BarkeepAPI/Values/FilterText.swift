import BarkeepCore
import BarkeepProtocol

/// How a value of the filter language (or FINDING SET's new status) is written in JSON (MCP, HTTP) when that differs
/// from the wire's text: a list as an array, `blocked` as a boolean, a run as an integer, a word with its schema's
/// enumeration. The wire's text is kept as given, so Core's `FindingQuery.parse` (or the handler) still reads it and
/// words every refusal.
public protocol FilterForm: Sendable {
    /// The wire's text of a JSON value.
    static func text(json: Any) throws(ValueProblem) -> String
    /// The JSON value of the wire's text.
    static func json(text: String) -> Any
    /// Its JSON Schema.
    static var schema: ValueSchema { get }
    /// An example's wire text, valid against the schema.
    static var example: String { get }
}

/// A value of the filter language: the wire's text as given, in JSON as `Form` writes it.
public struct FilterText<Form: FilterForm>: WireValue, Equatable {
    /// The wire's text.
    public var text: String

    /// The value of the wire's text `text`.
    public init(_ text: String) { self.text = text }

    /// Any text (Core's FindingQuery refuses what it cannot read, in its words).
    public init(wire: String) throws(ValueProblem) { text = wire }
    /// The text.
    public var wire: String { text }
    /// The JSON form.
    public init(json: Any) throws(ValueProblem) { text = try Form.text(json: json) }
    /// The JSON form.
    public var json: Any { Form.json(text: text) }
    /// The form's schema.
    public static var schema: ValueSchema { Form.schema }
    /// The form's example.
    public static var example: FilterText { FilterText(Form.example) }
}

/// The JSON forms of FindingFilters' values.
public enum FilterForms {
    /// A list (`a,b`) as an array of strings, each one of `Words` (nil: any non-empty string).
    public enum List<Words: FilterWords>: FilterForm {
        /// An array of strings, joined by commas.
        public static func text(json: Any) throws(ValueProblem) -> String {
            guard let array = json as? [Any] else { throw ValueProblem(predicate: "must be an array of strings") }
            var words: [String] = []
            for element in array {
                guard let word = element as? String else {
                    throw ValueProblem(predicate: "must be an array of strings")
                }
                words.append(word)
            }
            return words.joined(separator: ",")
        }
        /// The words, split at commas.
        public static func json(text: String) -> Any { text.split(separator: ",").map(String.init) }
        /// An array of the words' schema.
        public static var schema: ValueSchema { .array(Words.schema) }
        /// The first word.
        public static var example: String { Words.example }
    }

    /// A text with a schema of its own (`source`: one of Core's sources), a JSON string.
    public enum Word<Words: FilterWords>: FilterForm {
        /// A string.
        public static func text(json: Any) throws(ValueProblem) -> String { try String(json: json) }
        /// The text.
        public static func json(text: String) -> Any { text }
        /// The words' schema.
        public static var schema: ValueSchema { Words.schema }
        /// The first word.
        public static var example: String { Words.example }
    }

    /// `yes` or `no` as a boolean.
    public enum Flag: FilterForm {
        /// A boolean.
        public static func text(json: Any) throws(ValueProblem) -> String { try Bool(json: json).wire }
        /// true for `yes`, false otherwise.
        public static func json(text: String) -> Any { text == "yes" }
        /// A boolean.
        public static var schema: ValueSchema { .boolean }
        /// `yes`.
        public static var example: String { "yes" }
    }

    /// A run's number as an integer.
    public enum Run: FilterForm {
        /// An integer.
        public static func text(json: Any) throws(ValueProblem) -> String { try RunNumber(json: json).wire }
        /// The number, or the text when it is none.
        public static func json(text: String) -> Any { Int(text) ?? text }
        /// An integer of 1 or more.
        public static var schema: ValueSchema { RunNumber.schema }
        /// Run 3.
        public static var example: String { "3" }
    }
}

/// The words a filter takes, for its schema: Core's statuses, severities or sources, or any non-empty text.
public protocol FilterWords: Sendable {
    /// The schema of one word.
    static var schema: ValueSchema { get }
    /// A word the schema accepts.
    static var example: String { get }
}

/// The words of the filters.
public enum FilterWordSets {
    /// A status, or the filter language's `open` or `all`.
    public enum Statuses: FilterWords {
        /// One of them.
        public static var schema: ValueSchema {
            .described(
                "A status, open (the default: those that need work) or all.",
                .string(
                    values: [FindingQuery.openWord, FindingQuery.allWord] + FindingStatus.allCases.map(\.rawValue)))
        }
        /// `all`.
        public static var example: String { FindingQuery.allWord }
    }

    /// A status a person may set (FindingLifecycle.personStatuses): FINDING SET's new status.
    public enum SettableStatuses: FilterWords {
        /// One of them.
        public static var schema: ValueSchema { .string(values: FindingLifecycle.personStatuses.map(\.rawValue)) }
        /// The first of them.
        public static var example: String { FindingLifecycle.personStatuses[0].rawValue }
    }

    /// A severity.
    public enum Severities: FilterWords {
        /// One of Core's severities.
        public static var schema: ValueSchema { .string(values: Severity.allCases.map(\.rawValue)) }
        /// The first severity.
        public static var example: String { Severity.allCases[0].rawValue }
    }

    /// A finding's source.
    public enum Sources: FilterWords {
        /// One of Core's sources.
        public static var schema: ValueSchema { .string(values: FindingSource.allCases.map(\.rawValue)) }
        /// The first source.
        public static var example: String { FindingSource.allCases[0].rawValue }
    }

    /// Any non-empty text (a rule, a screen key, a name, a path).
    public enum Names: FilterWords {
        /// A non-empty string.
        public static var schema: ValueSchema { .string(minLength: 1) }
        /// `example-1`.
        public static var example: String { String.example }
    }
}
