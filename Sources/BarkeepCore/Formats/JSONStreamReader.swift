/// A pull reader of one JSON document over its bytes, for the scan parsers: the caller walks the document value by
/// value and keeps only what it needs, so no object tree of the whole document is ever built.
///
/// The reader checks the whole grammar (RFC 8259) as it goes, including the values the caller skips: UTF-8 in
/// strings, escapes and surrogate pairs, numbers, commas and colons, nothing after the top-level value. A key that
/// appears twice in one object is refused (`duplicate key`), whatever object it is in, because a later member would
/// silently replace an earlier one. Nesting deeper than `maximumDepth` and objects of more than `maximumMembers`
/// members are refused, so the memory the reader holds besides the caller's values is bounded.
///
/// Errors are `JSONProblem`s: a type the caller did not expect at the value being read (path relative to it, as
/// `JSONMembers` reports them), or bytes that are not JSON (`isSyntaxError`, reported with an empty path as
/// `not valid JSON (…)`). A message quotes at most `maximumQuoted` characters of the document.
struct JSONStreamReader {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 64
    /// The most members one object may have (the set of its keys, kept to find duplicates, stays bounded).
    static let maximumMembers = 100_000
    /// Up to this many keys, an object's keys are compared one by one to find a duplicate.
    private static let linearKeys = 16
    /// The most characters of the document a message quotes.
    static let maximumQuoted = 40
    /// The largest integer a document may hold anywhere: what a PostgreSQL `integer` column stores.
    static let largestInteger = Int(Int32.max)

    /// The kinds of JSON value.
    enum Kind {
        /// `{`.
        case object
        /// `[`.
        case array
        /// A string.
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case boolean
        /// `null`.
        case null
    }

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    /// A reader at the start of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is tolerated at the start, as `JSONSerialization` does.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    // MARK: - Document

    /// Reads a whole document whose top level must be an object: `member` is called with each key, positioned at its
    /// value, which it must read or skip. Throws `expected an object` at the top for an array, and a syntax error for
    /// anything else that is not one JSON object or array followed by white space only.
    mutating func readDocument(
        _ member: (inout JSONStreamReader, String) throws(JSONProblem) -> Void
    ) throws(JSONProblem) {
        switch try peekKind() {
        case .object: try readObject(member)
        case .array:
            try skipValue()
            try finish()
            throw JSONProblem(problem: JSONProblem.expectedObject)
        default: throw syntaxError("the top level is not an object or an array")
        }
        try finish()
    }

    private mutating func finish() throws(JSONProblem) {
        skipWhiteSpace()
        guard position == bytes.count else { throw syntaxError("\(describeNext()) after the document") }
    }

    /// The one way a parser reads a whole document: `body` walks a reader over `bytes` (usually through
    /// `readDocument`), and a problem it throws, the reader's or the parser's own, becomes the
    /// `CoreError.invalidDocument` naming its place.
    static func read<Result>(
        _ bytes: [UInt8],
        _ body: (inout JSONStreamReader) throws(JSONProblem) -> Result
    ) throws(CoreError) -> Result {
        var reader = JSONStreamReader(bytes)
        do {
            return try body(&reader)
        } catch {
            throw error.coreError
        }
    }

    /// Runs `read` (one pass of a document) twice: first with no array, so that the whole document is checked and
    /// nothing kept, then with an array reserved to the element count the first pass returned. A refused document
    /// thus costs no memory beyond its bytes, and the elements of an accepted one are never copied into a larger
    /// array as it grows.
    static func readTwice<Element, Header>(
        _ read: (inout [Element]?) throws(JSONProblem) -> (header: Header, count: Int)
    ) throws(JSONProblem) -> (header: Header, elements: [Element]) {
        var none: [Element]?
        let count = try read(&none).count
        var elements: [Element]? = []
        elements?.reserveCapacity(count)
        let header = try read(&elements).header
        return (header, elements ?? [])
    }

    /// Reads an array whose elements `element` reads, appending them to `elements` unless it is nil; returns their
    /// count, or nil for `null`.
    mutating func readElements<Element>(
        into elements: inout [Element]?,
        _ element: (inout JSONStreamReader) throws(JSONProblem) -> Element
    ) throws(JSONProblem) -> Int? {
        guard try peekKind() != .null else {
            try skipValue()
            return nil
        }
        var count = 0
        try readArray { reader, _ throws(JSONProblem) in
            let value = try element(&reader)
            elements?.append(value)
            count += 1
        }
        return count
    }

    // MARK: - Values

    /// The kind of the next value, without reading it; a syntax error if no value starts there.
    mutating func peekKind() throws(JSONProblem) -> Kind {
        skipWhiteSpace()
        guard position < bytes.count else { throw syntaxError("the document ends where a value should start") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw syntaxError("\(describeNext()) where a value should start")
        }
    }

    /// Reads an object, calling `member` with each key positioned at its value (which it must read or skip). A
    /// problem the closure throws is placed under the key. Throws `expected an object` for another kind of value.
    mutating func readObject(
        _ member: (inout JSONStreamReader, String) throws(JSONProblem) -> Void
    ) throws(JSONProblem) {
        guard try peekKind() == .object else {
            try skipValue()
            throw JSONProblem(problem: JSONProblem.expectedObject)
        }
        try enter()
        // Most objects have a handful of keys: a short array searched linearly finds duplicates faster than a set,
        // which takes over past `linearKeys`.
        var recent: [String] = []
        var keys: Set<String> = []
        skipWhiteSpace()
        if next == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipWhiteSpace()
            guard next == UInt8(ascii: "\"") else { throw syntaxError("\(describeNext()) where a key should start") }
            let key = try scanString()
            let isNew: Bool
            if recent.count < Self.linearKeys {
                isNew = !recent.contains(key)
                recent.append(key)
            } else {
                if keys.isEmpty { keys = Set(recent) }
                isNew = keys.insert(key).inserted
            }
            guard isNew else { throw JSONProblem(at: .key(key), problem: JSONProblem.duplicateKey) }
            guard keys.count <= Self.maximumMembers else {
                throw syntaxError("an object has more than \(Self.maximumMembers) members")
            }
            try expect(UInt8(ascii: ":"), "a ':' after a key")
            do {
                try member(&self, key)
            } catch {
                throw error.inside(.key(key))
            }
            skipWhiteSpace()
            if next == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}' in an object")
            depth -= 1
            return
        }
    }

    /// Reads an array, calling `element` with each index positioned at its element (which it must read or skip). A
    /// problem the closure throws is placed under the index. Throws `expected an array` for another kind of value.
    mutating func readArray(
        _ element: (inout JSONStreamReader, Int) throws(JSONProblem) -> Void
    ) throws(JSONProblem) {
        guard try peekKind() == .array else {
            try skipValue()
            throw JSONProblem(problem: JSONProblem.expectedArray)
        }
        try enter()
        skipWhiteSpace()
        if next == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return
        }
        var index = 0
        while true {
            do {
                try element(&self, index)
            } catch {
                throw error.inside(.index(index))
            }
            index += 1
            skipWhiteSpace()
            if next == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']' in an array")
            depth -= 1
            return
        }
    }

    /// Reads a string; nil for `null`; throws `expected a string` for another kind of value.
    mutating func readString() throws(JSONProblem) -> String? {
        switch try peekKind() {
        case .string: return try scanString()
        case .null:
            try skipValue()
            return nil
        default:
            try skipValue()
            throw JSONProblem(problem: JSONProblem.expectedString)
        }
    }

    /// Checks the next value as `readString` does without building the string, and returns the offset of its opening
    /// quote in the document (`JSONStreamReader.content(ofStringAt:in:)` finds it again); nil for `null`.
    mutating func readStringOffset() throws(JSONProblem) -> Int? {
        skipWhiteSpace()
        let start = position
        return try checkString() ? start : nil
    }

    /// Checks that the next value is a string or `null` as `readString` does, without building the string (a pass
    /// that keeps nothing): true for a string, false for `null`.
    mutating func checkString() throws(JSONProblem) -> Bool {
        switch try peekKind() {
        case .string:
            try skipString()
            return true
        case .null:
            try skipValue()
            return false
        default:
            try skipValue()
            throw JSONProblem(problem: JSONProblem.expectedString)
        }
    }

    /// Reads an integer between `minimum` and `largestInteger`; nil for `null`. `12.0` and `1e3`
    /// are integers (JSON has one number type); `12.5`, `true` and strings are not.
    mutating func readInteger(minimum: Int) throws(JSONProblem) -> Int? {
        switch try peekKind() {
        case .number: break
        case .null:
            try skipValue()
            return nil
        default:
            try skipValue()
            throw JSONProblem(problem: JSONProblem.expectedInteger)
        }
        let number = try scanNumber()
        // Like the value `JSONSerialization` would give: a number beyond `Int` is no integer at all. A plain integer
        // of more digits than `Int` has is not converted (the document may hold megabytes of digits).
        let digits = number.range.count - (number.isNegative ? 1 : 0)
        let text = number.isPlainInteger && digits > 19 ? "" : String(decoding: bytes[number.range], as: UTF8.self)
        let value: Int
        if number.isPlainInteger, let integer = Int(text) {
            value = integer
        } else if !number.isPlainInteger, let double = Double(text), let integer = Int(exactly: double) {
            // A fraction or an exponent: an integer when its value is integral (`12.0`, `1e3`).
            value = integer
        } else {
            throw JSONProblem(problem: JSONProblem.expectedInteger)
        }
        return try checked(value, minimum: minimum)
    }

    private func checked(_ value: Int, minimum: Int) throws(JSONProblem) -> Int {
        guard value >= minimum else { throw JSONProblem(problem: JSONProblem.expectedInteger(atLeast: minimum)) }
        guard value <= Self.largestInteger else {
            throw JSONProblem(problem: JSONProblem.expectedInteger(atMost: Self.largestInteger))
        }
        return value
    }

    /// Reads `true` or `false`; nil for `null`; throws `expected true or false` for another kind of value.
    mutating func readBoolean() throws(JSONProblem) -> Bool? {
        switch try peekKind() {
        case .boolean:
            let isTrue = next == UInt8(ascii: "t")
            try scanWord(isTrue ? "true" : "false")
            return isTrue
        case .null:
            try skipValue()
            return nil
        default:
            try skipValue()
            throw JSONProblem(problem: JSONProblem.expectedBoolean)
        }
    }

    /// Reads past the next value, checking it as thoroughly as if it were read.
    mutating func skipValue() throws(JSONProblem) {
        switch try peekKind() {
        case .object: try readObject { reader, _ throws(JSONProblem) in try reader.skipValue() }
        case .array: try readArray { reader, _ throws(JSONProblem) in try reader.skipValue() }
        case .string: try skipString()
        case .number: _ = try scanNumber()
        case .boolean: try scanWord(next == UInt8(ascii: "t") ? "true" : "false")
        case .null: try scanWord("null")
        }
    }

    // MARK: - Lexing

    private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func enter() throws(JSONProblem) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw syntaxError("nesting deeper than \(Self.maximumDepth) levels")
        }
        position += 1
    }

    private mutating func skipWhiteSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONProblem) {
        skipWhiteSpace()
        guard next == byte else { throw syntaxError("\(describeNext()) where \(what) should be") }
        position += 1
    }

    private mutating func scanWord(_ word: StaticString) throws(JSONProblem) {
        let count = word.utf8CodeUnitCount
        let matches =
            position + count <= bytes.count
            && word.withUTF8Buffer { expected in bytes[position..<position + count].elementsEqual(expected) }
        guard matches else { throw syntaxError("\(describeNext()) where a value should start") }
        position += count
    }

    private struct Number {
        var range: Range<Int>
        var isPlainInteger: Bool
        var isNegative: Bool
    }

    private mutating func scanNumber() throws(JSONProblem) -> Number {
        let start = position
        let isNegative = next == UInt8(ascii: "-")
        if isNegative { position += 1 }
        guard let first = next, isDigit(first) else { throw syntaxError("a number without digits") }
        position += 1
        if first == UInt8(ascii: "0"), let byte = next, isDigit(byte) {
            throw syntaxError("a number with a leading zero")
        }
        skipDigits()
        var isPlainInteger = true
        if next == UInt8(ascii: ".") {
            position += 1
            guard let byte = next, isDigit(byte) else { throw syntaxError("a number without digits after '.'") }
            skipDigits()
            isPlainInteger = false
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            position += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { position += 1 }
            guard let byte = next, isDigit(byte) else { throw syntaxError("a number without an exponent") }
            skipDigits()
            isPlainInteger = false
        }
        return Number(range: start..<position, isPlainInteger: isPlainInteger, isNegative: isNegative)
    }

    private mutating func skipDigits() {
        while let byte = next, isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Reads a string at its opening quote.
    /// Moves past a string, checked as `scanString` checks it. ASCII without escapes (nearly every string a scanner
    /// writes) needs neither a copy nor a UTF-8 check; anything else goes through `scanString`.
    private mutating func skipString() throws(JSONProblem) {
        let start = position
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
            guard byte >= 0x20 else { throw syntaxError("a control character in a string") }
            position += 1
        }
        position = start
        _ = try scanString()
    }

    private mutating func scanString() throws(JSONProblem) -> String {
        position += 1
        let start = position
        // The common case: no escape, so the string is the bytes between the quotes; ASCII (every key the parsers
        // look for) needs no UTF-8 check, whose generic path costs more than the rest of a short key's reading.
        var isASCII = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let end = position
                let ascii: String? =
                    isASCII
                    ? bytes.withUnsafeBufferPointer {
                        String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
                    } : nil
                guard let string = ascii ?? String(validating: bytes[start..<position], as: UTF8.self) else {
                    throw syntaxError("a string that is not valid UTF-8", at: start)
                }
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw syntaxError("a control character in a string") }
            isASCII = isASCII && byte < 0x80
            position += 1
        }
        var decoded = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: decoded, as: UTF8.self) else {
                    throw syntaxError("a string that is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                try scanEscape(into: &decoded)
            case ..<0x20:
                position -= 1
                throw syntaxError("a control character in a string")
            default:
                decoded.append(byte)
            }
        }
        throw syntaxError("the document ends inside a string")
    }

    private mutating func scanEscape(into decoded: inout [UInt8]) throws(JSONProblem) {
        guard let byte = next else { throw syntaxError("the document ends inside a string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try scanHex()
            if (0xD800...0xDBFF).contains(scalar) {
                guard next == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                else { throw syntaxError("a lone surrogate in a string") }
                position += 2
                let low = try scanHex()
                guard (0xDC00...0xDFFF).contains(low) else { throw syntaxError("a lone surrogate in a string") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw syntaxError("a lone surrogate in a string")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw syntaxError("a lone surrogate in a string") }
            decoded.append(contentsOf: Character(unicode).utf8)
        default:
            position -= 1
            throw syntaxError("an unknown escape \\\(describeNext())")
        }
    }

    private mutating func scanHex() throws(JSONProblem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next else { throw syntaxError("the document ends inside a string") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError("a \\u escape without four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: - Strings already checked

    /// The bytes between the quotes of the string whose opening quote is at `quote` in `bytes`, a document this
    /// reader has checked, and whether they hold an escape (then `decodedString(at:in:)` gives its value).
    static func content(ofStringAt quote: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
        range: Range<Int>, isEscaped: Bool
    ) {
        var end = quote + 1
        var isEscaped = false
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\\"):
                isEscaped = true
                end += 2
            case UInt8(ascii: "\""): return (quote + 1..<end, isEscaped)
            default: end += 1
            }
        }
        return (quote + 1..<min(end, bytes.count), isEscaped)
    }

    /// The value of the string whose opening quote is at `quote` in `bytes`, a document this reader has checked,
    /// escapes decoded; empty if no valid string starts there (which a checked document rules out).
    static func decodedString(at quote: Int, in bytes: [UInt8]) -> String {
        var reader = JSONStreamReader(bytes)
        reader.position = quote
        return (try? reader.scanString()) ?? ""
    }

    // MARK: - Errors

    /// The next few characters, quoted, for a message; `the end` at the end.
    private func describeNext() -> String {
        guard position < bytes.count else { return "the end" }
        let prefix = bytes[position..<min(bytes.count, position + Self.maximumQuoted)]
        let text = String(decoding: prefix, as: UTF8.self).prefix { $0 != "\n" && $0 != "\r" }
        let first = text.prefix(1)
        return "'\(first.isEmpty ? "?" : String(first))'"
    }

    private func syntaxError(_ what: String, at offset: Int? = nil) -> JSONProblem {
        var problem = JSONProblem(problem: "not valid JSON (\(what) at byte \(offset ?? position))")
        problem.isSyntaxError = true
        return problem
    }
}
