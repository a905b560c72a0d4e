import BarkeepCore

/// What a positional argument names, for the checks the table makes before any handler looks it up.
public enum ArgumentKind: Sendable {
    /// A project name (at most 64 characters).
    case project
    /// A screen key, or a pattern of them (at most 128 characters).
    case screenKey
    /// A token name (at most 64 characters).
    case token
    /// Anything else: the handler checks it.
    case other

    /// Why `argument` cannot be such a name, quoting a short excerpt of it; nil when it may be one. Only the length
    /// is checked here: handlers that create names check every rule (Names).
    public func problem(with argument: String) -> String? {
        let (noun, limit) =
            switch self {
            case .project: ("a project name", Names.maximumNameLength)
            case .screenKey: ("a screen key", Names.maximumScreenKeyLength)
            case .token: ("a token name", Names.maximumNameLength)
            case .other: ("", Int.max)
            }
        let length = argument.unicodeScalars.count
        guard length > limit else { return nil }
        return "\(noun) is at most \(limit) characters, got \(length): \(ValueExcerpt.quoted(argument))"
    }
}
