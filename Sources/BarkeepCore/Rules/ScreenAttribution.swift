/// Attributes findings to screens by their files: the most specific matching glob wins (the most literal
/// characters, then the pattern text, so ties resolve the same way every time); no match is unmapped.
///
/// The globs are indexed by their literal ends: a glob matches a path only if the path starts with its literal
/// prefix and ends with its literal suffix. Each glob sits in a character trie under the longer of the two (the
/// suffix trie holds suffixes reversed); a path walks both tries once, and only the globs it meets on the way (and
/// the few with no literal end, such as `*`) are matched in full. Attributing a file costs about its length, not
/// the number of globs.
public struct ScreenAttribution: Sendable {
    /// Every glob, most specific first: the first one that matches a file owns it.
    private let globs: [(screen: Int64, glob: PathGlob)]
    private let prefixes: CharacterTrie
    private let suffixes: CharacterTrie
    /// The globs with no literal end, by their place in `globs`.
    private let unanchored: [Int]

    /// An attribution from every screen's globs.
    public init(_ globs: [(screen: Int64, pattern: String)]) {
        let parsed: [(screen: Int64, glob: PathGlob)] = globs.map { ($0.screen, PathGlob($0.pattern)) }
        let ordered = parsed.sorted {
            ($0.glob.specificity, $1.glob.pattern) > ($1.glob.specificity, $0.glob.pattern)
        }
        var prefixes = CharacterTrie()
        var suffixes = CharacterTrie()
        var unanchored: [Int] = []
        for (index, entry) in ordered.enumerated() {
            let prefix = Array(entry.glob.literalPrefix)
            let suffix = Array(entry.glob.literalSuffix)
            if prefix.isEmpty && suffix.isEmpty {
                unanchored.append(index)
            } else if prefix.count >= suffix.count {
                prefixes.insert(prefix, value: index)
            } else {
                suffixes.insert(suffix.reversed(), value: index)
            }
        }
        self.globs = ordered
        self.prefixes = prefixes
        self.suffixes = suffixes
        self.unanchored = unanchored
    }

    /// The screen owning `file`, or nil (unmapped).
    public func screen(for file: String) -> Int64? {
        var candidates = unanchored
        let characters = Array(file)
        prefixes.collect(along: characters, into: &candidates)
        if !suffixes.isEmpty { suffixes.collect(along: characters.reversed(), into: &candidates) }
        // The lowest place is the most specific glob.
        for index in candidates.sorted() where globs[index].glob.matches(file) {
            return globs[index].screen
        }
        return nil
    }
}

/// A trie over characters whose nodes hold values: `collect` gathers the values of every key that starts a
/// sequence.
private struct CharacterTrie: Sendable {
    private var children: [[Character: Int]] = [[:]]
    private var values: [[Int]] = [[]]

    var isEmpty: Bool { children.count == 1 && values[0].isEmpty }

    mutating func insert(_ key: some Sequence<Character>, value: Int) {
        var node = 0
        for character in key {
            if let next = children[node][character] {
                node = next
            } else {
                children.append([:])
                values.append([])
                children[node][character] = children.count - 1
                node = children.count - 1
            }
        }
        values[node].append(value)
    }

    func collect(along sequence: some Sequence<Character>, into result: inout [Int]) {
        var node = 0
        result += values[node]
        for character in sequence {
            guard let next = children[node][character] else { return }
            node = next
            result += values[node]
        }
    }
}
