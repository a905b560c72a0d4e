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
        var line = line
        let parsed = line.withUTF8 { bytes in
            Result { () throws(ProtocolError) -> Request? in try Self.parse(bytes) }
        }
        guard let request = try parsed.get() else { return nil }
        self = request
    }

    /// Checks and parses a line's bytes as framed (`LineFramer.nextLineBytes`): UTF-8 without control characters
    /// but tab, as `LineFramer.decode` checks them; nil for a blank line. The line is never made a string: only the
    /// words are, so a request of one word (`"PING"`) allocates nothing.
    public init?(line bytes: ArraySlice<UInt8>) throws(ProtocolError) {
        let parsed = try bytes.withUnsafeBufferPointer { buffer throws(ProtocolError) -> Request? in
            _ = try LineFramer.check(buffer)
            return try Self.parse(buffer)
        }
        guard let parsed else { return nil }
        self = parsed
    }

    private init(verb: String, arguments: [String], keywordList: [(key: String, value: String)]) {
        self.verb = verb
        self.arguments = arguments
        self.keywordList = keywordList
    }

    /// The request on a line's bytes (UTF-8, checked); nil for a blank line.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> Request? {
        var verb: String?
        var arguments: [String] = []
        var keywordList: [(key: String, value: String)] = []
        try Quoting.scan(bytes) { span in
            guard verb != nil else {
                if let key = span.key {
                    // Not a command anyone has: the command table answers UNKNOWN, as for any other unknown verb.
                    let value = Quoting.text(bytes, span.value, isEscaped: span.isEscaped)
                    verb = (Quoting.text(bytes, key, isEscaped: false) + "=" + value).uppercased()
                } else {
                    verb = uppercasedVerb(bytes, span)
                }
                return
            }
            let value = Quoting.text(bytes, span.value, isEscaped: span.isEscaped)
            if let key = span.key {
                keywordList.append((Quoting.text(bytes, key, isEscaped: false), value))
            } else {
                arguments.append(value)
            }
        }
        guard let verb else { return nil }
        return Request(verb: verb, arguments: arguments, keywordList: keywordList)
    }

    /// The verb of a line, upper-cased: ASCII by byte as the string is made (as clients send them), anything else
    /// (escaped, or not ASCII) as `String.uppercased()` does it, which agrees with the bytes' rule on ASCII.
    private static func uppercasedVerb(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Quoting.Span) -> String {
        let word = UnsafeBufferPointer(rebasing: bytes[span.value])
        guard !span.isEscaped, !word.contains(where: { $0 >= 0x80 }) else {
            return Quoting.text(bytes, span.value, isEscaped: span.isEscaped).uppercased()
        }
        return String(unsafeUninitializedCapacity: word.count) { verb in
            for (index, byte) in word.enumerated() {
                verb[index] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte & 0xDF : byte
            }
            return word.count
        }
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
