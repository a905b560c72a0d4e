/// A source path glob owning a screen: `*` matches within one path component, `**` across components (`**/`
/// also matches no directory at all), `?` one character; everything else matches itself.
public struct PathGlob: Sendable, Hashable {
    /// The glob as written.
    public let pattern: String
    private let parts: [Part]

    private enum Part: Hashable {
        case literal(Character)
        case any  // ?
        case star  // *
        case globstar  // ** not followed by /
        case directories  // **/ : zero or more whole directories

        var character: Character? {
            if case .literal(let character) = self { return character }
            return nil
        }
    }

    /// Parses a glob.
    public init(_ pattern: String) {
        self.pattern = pattern
        var parts: [Part] = []
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*":
                if characters.first == "*" {
                    characters.removeFirst()
                    if characters.first == "/" {
                        characters.removeFirst()
                        parts.append(.directories)
                    } else {
                        parts.append(.globstar)
                    }
                } else {
                    parts.append(.star)
                }
            case "?": parts.append(.any)
            default: parts.append(.literal(character))
            }
        }
        self.parts = parts
    }

    /// The literal characters before the first wildcard (the whole glob when it has none): every path the glob
    /// matches starts with them.
    public var literalPrefix: String {
        String(parts.prefix { $0.character != nil }.compactMap(\.character))
    }

    /// The literal characters after the last wildcard (empty when the glob has none): every path the glob matches
    /// ends with them.
    public var literalSuffix: String {
        guard hasWildcards else { return "" }
        return String(parts.reversed().prefix { $0.character != nil }.compactMap(\.character).reversed())
    }

    /// Whether the glob holds a `*`, `**` or `?` (otherwise it matches its own text only).
    public var hasWildcards: Bool { parts.contains { $0.character == nil } }

    /// How specific the glob is: longer globs win when several match (the count of literal characters).
    public var specificity: Int {
        parts.reduce(0) { count, part in
            if case .literal = part { return count + 1 }
            return count
        }
    }

    /// Whether `path` matches the whole glob.
    public func matches(_ path: String) -> Bool {
        let text = Array(path)
        var memo: [Int: Bool] = [:]
        func match(_ part: Int, _ position: Int) -> Bool {
            let key = part * (text.count + 1) + position
            if let known = memo[key] { return known }
            let result: Bool
            if part == parts.count {
                result = position == text.count
            } else {
                switch parts[part] {
                case .literal(let character):
                    result = position < text.count && text[position] == character && match(part + 1, position + 1)
                case .any:
                    result = position < text.count && text[position] != "/" && match(part + 1, position + 1)
                case .star:
                    var end = position
                    var found = match(part + 1, end)
                    while !found && end < text.count && text[end] != "/" {
                        end += 1
                        found = match(part + 1, end)
                    }
                    result = found
                case .globstar:
                    var end = position
                    var found = match(part + 1, end)
                    while !found && end < text.count {
                        end += 1
                        found = match(part + 1, end)
                    }
                    result = found
                case .directories:
                    // Nothing, or whole directories: what follows starts right after a `/`.
                    var found = match(part + 1, position)
                    var end = position
                    while !found && end < text.count {
                        end += 1
                        if text[end - 1] == "/" { found = match(part + 1, end) }
                    }
                    result = found
                }
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}
