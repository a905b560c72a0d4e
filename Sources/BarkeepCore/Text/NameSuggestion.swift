/// What a refusal of an unknown name suggests: the known names closest to it, so that `Settingsview` finds
/// `SettingsView`. Names equal but for case come first; else those within a small edit distance.
public enum NameSuggestion {
    /// At most this many suggestions.
    public static let maximumCount = 3

    /// The names of `known` closest to `name`: those equal to it but for case, or else those at the smallest edit
    /// distance (insertions, deletions, substitutions, ignoring case) when it is at most a third of the name's
    /// length (at least 1, at most 3); at most `maximumCount`, in the order of `known`.
    public static func closest(to name: String, among known: [String]) -> [String] {
        let lowered = Array(name.lowercased().unicodeScalars)
        let sameButCase = known.filter { $0 != name && $0.lowercased() == name.lowercased() }
        if !sameButCase.isEmpty { return Array(sameButCase.prefix(maximumCount)) }
        let limit = min(3, max(1, lowered.count / 3))
        var best: [(name: String, distance: Int)] = []
        for candidate in known where candidate != name {
            let scalars = Array(candidate.lowercased().unicodeScalars)
            guard abs(scalars.count - lowered.count) <= limit else { continue }
            let distance = editDistance(lowered, scalars, limit: limit)
            if distance <= limit { best.append((candidate, distance)) }
        }
        guard let smallest = best.map(\.distance).min() else { return [] }
        return Array(best.filter { $0.distance == smallest }.map(\.name).prefix(maximumCount))
    }

    /// The suffix of a refusal naming `suggestions`: ` (did you mean 'A' or 'B'?)`, or empty.
    public static func hint(_ suggestions: [String]) -> String {
        guard !suggestions.isEmpty else { return "" }
        let quoted = suggestions.map { ValueExcerpt.quoted($0) }
        return " (did you mean \(QuantityText.alternatives(quoted))?)"
    }

    /// The Levenshtein distance of `a` and `b`, or more than `limit` once it must exceed it.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
