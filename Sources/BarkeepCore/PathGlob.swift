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

/// Attributes findings to screens by their files: the most specific matching glob wins; no match is unmapped.
public struct ScreenAttribution: Sendable {
    private let globs: [(screen: Int64, glob: PathGlob)]

    /// An attribution from every screen's globs.
    public init(_ globs: [(screen: Int64, pattern: String)]) {
        // Most specific first, then the pattern text, so ties resolve the same way every time.
        self.globs = globs.map { ($0.screen, PathGlob($0.pattern)) }.sorted {
            ($0.glob.specificity, $1.glob.pattern) > ($1.glob.specificity, $0.glob.pattern)
        }
    }

    /// The screen owning `file`, or nil (unmapped).
    public func screen(for file: String) -> Int64? {
        globs.first { $0.glob.matches(file) }?.screen
    }
}
