/// The screens one bulk change applies to: a key, the keys a glob matches, an owner's, or every one. A selection
/// picks rows of every kind; which aspects of a change each row takes is `treatments(of:aspects:)`'s to say.
public enum ScreenSelection: Sendable, Equatable, CustomStringConvertible {
    /// The row of this key, whatever its kind.
    case key(String)
    /// The rows whose key the glob matches.
    case keys(KeyGlob)
    /// The rows no one owns whose key the glob matches (`--screens GLOB --unowned`).
    case unownedKeys(KeyGlob)
    /// The rows this person owns; `nobody` (`ScreenOwner`): the rows no one owns.
    case owner(String)
    /// Every row.
    case all

    /// Whether a row of `key` and `owner` is selected (the kind is the caller's filter).
    public func includes(key: String, owner: String?) -> Bool {
        switch self {
        case .key(let selected): key == selected
        case .keys(let glob): glob.matches(key)
        case .unownedKeys(let glob): owner == nil && glob.matches(key)
        case .owner(let selected): ScreenOwner.matches(owner, filter: selected)
        case .all: true
        }
    }

    /// Whether it names one row by its key: a change that cannot apply to it is then refused outright.
    public var isSingleKey: Bool {
        if case .key = self { return true }
        return false
    }

    /// `screen Inbox`, `screens matching 'Account*'`, `screens owned by ana`, `every screen`: for messages.
    public var description: String {
        switch self {
        case .key(let key): "screen \(ValueExcerpt.quoted(key))"
        case .keys(let glob): "screens matching \(ValueExcerpt.quoted(glob.pattern))"
        case .unownedKeys(let glob): "unowned screens matching \(ValueExcerpt.quoted(glob.pattern))"
        case .owner(let owner): "screens owned by \(ValueExcerpt.quoted(owner))"
        case .all: "every screen"
        }
    }
}

/// A glob over screen keys: `*` matches any run of characters, `?` one; everything else matches itself.
public struct KeyGlob: Sendable, Hashable {
    /// The glob as written.
    public let pattern: String
    private let glob: PathGlob

    /// A glob; nil unless it is 1 to 128 characters of a screen key's (`A-Z a-z 0-9 . _ -`) or `*` and `?`.
    public init?(_ pattern: String) {
        let allowed = "._-*?".unicodeScalars
        guard !pattern.isEmpty, pattern.unicodeScalars.count <= 128,
            pattern.unicodeScalars.allSatisfy({ scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || allowed.contains(scalar)
            })
        else { return nil }
        self.pattern = pattern
        // Keys hold no `/`, so a path glob's `*` (within one component) is any run of a key's characters.
        glob = PathGlob(pattern)
    }

    /// Whether the whole key matches.
    public func matches(_ key: String) -> Bool { glob.matches(key) }
}
