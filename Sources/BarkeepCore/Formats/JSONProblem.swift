/// What is wrong in a JSON document and where, relative to the value being read.
///
/// A reader throws it with the path from the value it was given; each enclosing reader prepends its own key or
/// index as the problem travels outward (`inside(_:)`). The happy path therefore never builds a path: the string
/// form is made once, when the document is refused as `CoreError.invalidDocument`.
struct JSONProblem: Error {
    /// One step into a JSON document.
    enum Component {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
    }

    /// The steps from the value being read to the offending place, outermost first; empty for the value itself.
    var components: [Component]
    /// What was expected there (`expected an integer`).
    var problem: String
    /// The bytes are not JSON: the problem is the document's, reported with an empty path whatever `components` hold.
    var isSyntaxError = false

    /// A problem at the place reached through `components` from the value being read.
    init(at components: Component..., problem: String) {
        self.components = components
        self.problem = problem
    }

    /// The same problem seen from the enclosing value, which reaches this one through `outer` (outermost first).
    func inside(_ outer: Component...) -> JSONProblem {
        var moved = self
        moved.components = outer + components
        return moved
    }

    /// The place in JSONPath-like form without the leading `$`: `findings[12].line`, `runs[0].tool.driver`; a key
    /// that is not an identifier is quoted in brackets (`fingerprints["matchBasedId/v1"]`).
    var path: String {
        var path = ""
        for component in components {
            switch component {
            case .index(let index):
                path += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                path += path.isEmpty ? key : ".\(key)"
            case .key(let key):
                path += "[\(JSONText.quoted(key))]"
            }
        }
        return path
    }

    /// The problem as the error the parsers' callers see.
    var coreError: CoreError {
        .invalidDocument(path: isSyntaxError ? "" : path, problem: problem)
    }

    // MARK: - The problems the readers report

    /// A required member is absent or null.
    static let missing = "missing"
    /// A value is not a string.
    static let expectedString = "expected a string"
    /// A value is not an integral number (or is a boolean).
    static let expectedInteger = "expected an integer"
    /// A value is not an object.
    static let expectedObject = "expected an object"
    /// The value is not `true` or `false`.
    static let expectedBoolean = "expected true or false"
    /// A value is not an array.
    static let expectedArray = "expected an array"
    /// An object holds the same key twice (the path names the key).
    static let duplicateKey = "duplicate key"

    /// An integer is above its maximum.
    static func expectedInteger(atMost maximum: Int) -> String { "expected an integer of at most \(maximum)" }

    /// An integer is below its minimum.
    static func expectedInteger(atLeast minimum: Int) -> String {
        switch minimum {
        case 0: "expected a non-negative integer"
        case 1: "expected a positive integer"
        default: "expected an integer of at least \(minimum)"
        }
    }

    /// A string is not one of a closed set of words.
    static func expectedOne(of words: [String]) -> String {
        "expected one of " + words.joined(separator: ", ")
    }

    // MARK: - Path text

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !isDigit(first) else { return false }
        return key.utf8.allSatisfy { isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "$") }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
