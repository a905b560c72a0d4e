/// A one-line reply: `OK …` or `ERR <CODE> <message>`.
public enum Reply: Sendable, Equatable {
    /// Success, with an optional text after `OK`.
    case ok(String)
    /// Failure with a stable code and a human message.
    case error(ErrorCode, String)

    /// The reply word for success.
    public static let okWord = "OK"
    /// The reply word for failure.
    public static let errorWord = "ERR"

    /// The reply as one line ending in LF. Line breaks in a message are replaced by spaces.
    public var encoded: String {
        switch self {
        case .ok(let text): text.isEmpty ? "OK\n" : "OK \(Self.flatten(text))\n"
        case .error(let code, let message): "ERR \(code.rawValue) \(Self.flatten(message))\n"
        }
    }

    /// Parses a reply line (without its terminator).
    public init(parsing line: String) throws(ProtocolError) {
        if line == Self.okWord {
            self = .ok("")
        } else if line.hasPrefix(Self.okWord + " ") {
            self = .ok(String(line.dropFirst(Self.okWord.count + 1)))
        } else if line.hasPrefix(Self.errorWord + " ") {
            let rest = line.dropFirst(Self.errorWord.count + 1)
            let codeText = rest.prefix { $0 != " " }
            guard let code = ErrorCode(rawValue: String(codeText)) else {
                throw .badReply("unknown error code '\(codeText)'")
            }
            self = .error(code, String(rest.dropFirst(codeText.count).drop { $0 == " " }))
        } else {
            throw .badReply("a reply starts with OK or ERR")
        }
    }

    private static func flatten(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
