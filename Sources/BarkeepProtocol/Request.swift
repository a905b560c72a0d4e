/// A request line split into its verb, positional arguments and keyword arguments.
///
/// The verb is matched case-insensitively and kept in upper case. Which commands take a second word (a subverb) is
/// the command table's business: here every word after the verb is a positional argument.
public struct Request: Sendable, Equatable {
    /// The command name, upper-cased.
    public let verb: String
    /// The positional arguments after the verb, in order.
    public var arguments: [String]
    /// The `key=value` arguments in the order given (a key may repeat; the command table refuses that).
    public var keywordList: [(key: String, value: String)]

    /// Creates a request.
    public init(verb: String, arguments: [String] = [], keywords: KeyValuePairs<String, String> = [:]) {
        self.verb = verb.uppercased()
        self.arguments = arguments
        self.keywordList = keywords.map { ($0.key, $0.value) }
    }

    /// Parses a line (already framed and validated); nil for a blank line. Malformed quoting throws `.badLine`.
    public init?(line: String) throws(ProtocolError) {
        let tokens = try Quoting.tokenize(line)
        guard let first = tokens.first else { return nil }
        switch first {
        case .word(let verb): self.verb = Self.uppercased(verb)
        // Not a command anyone has: the command table answers UNKNOWN, as for any other unknown verb.
        case .keyword(let key, let value): self.verb = "\(key)=\(value)".uppercased()
        }
        arguments = []
        keywordList = []
        for token in tokens.dropFirst() {
            switch token {
            case .word(let word): arguments.append(word)
            case .keyword(let key, let value): keywordList.append((key, value))
            }
        }
    }

    /// `verb` upper-cased: a verb already in upper-case ASCII (as clients send them) as it is, other ASCII by byte,
    /// anything else as `String.uppercased()` does it.
    static func uppercased(_ verb: String) -> String {
        var isUpper = true
        for byte in verb.utf8 {
            if byte >= 0x80 { return verb.uppercased() }
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { isUpper = false }
        }
        if isUpper { return verb }
        return String(
            decoding: verb.utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 & 0xDF : $0 },
            as: UTF8.self)
    }

    /// The value of a keyword (the last one given), or nil.
    public func keyword(_ key: String) -> String? { keywordList.last { $0.key == key }?.value }

    /// Every value of a key that may be repeated (`path=A path=B`), in order.
    public func keywords(_ key: String) -> [String] { keywordList.filter { $0.key == key }.map(\.value) }

    /// The request as one line, without its terminator, quoted as the protocol requires.
    public var line: String {
        ([verb] + arguments.map(Quoting.quote) + keywordList.map { "\($0.key)=\(Quoting.quoteValue($0.value))" })
            .joined(separator: " ")
    }

    public static func == (lhs: Request, rhs: Request) -> Bool {
        lhs.verb == rhs.verb && lhs.arguments == rhs.arguments
            && lhs.keywordList.map(\.key) == rhs.keywordList.map(\.key)
            && lhs.keywordList.map(\.value) == rhs.keywordList.map(\.value)
    }
}
