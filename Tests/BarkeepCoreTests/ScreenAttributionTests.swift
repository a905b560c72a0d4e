import BarkeepCore
import BarkeepTestSupport
import Testing

/// The indexed attribution against the rule it replaces, on many generated globs and paths.
struct ScreenAttributionTests {
    /// The rule as it was first written, kept as the oracle: every glob in turn, most literal characters first,
    /// then the pattern text; the first that matches owns the file.
    struct LinearAttribution {
        private let globs: [(screen: Int64, glob: PathGlob)]

        init(_ globs: [(screen: Int64, pattern: String)]) {
            self.globs = globs.map { ($0.screen, PathGlob($0.pattern)) }.sorted {
                ($0.glob.specificity, $1.glob.pattern) > ($1.glob.specificity, $0.glob.pattern)
            }
        }

        func screen(for file: String) -> Int64? {
            globs.first { $0.glob.matches(file) }?.screen
        }
    }

    /// Few names, so globs and paths meet often; composed and decomposed accents and a `\r\n` too.
    static let names = [
        "Sources", "App", "Inbox", "List", "A", "ab", "Café", "Cafe\u{301}", "View.swift", "InboxView.swift",
        "Row.swift", "a.m", "x\r\ny", "_%", "ListRow", "Settings",
    ]

    static func path(_ generator: inout SeededGenerator) -> String {
        let depth = Int.random(in: 1...5, using: &generator)
        return (0..<depth).map { _ in names.randomElement(using: &generator) ?? "A" }.joined(separator: "/")
    }

    static func glob(_ generator: inout SeededGenerator) -> String {
        let depth = Int.random(in: 1...4, using: &generator)
        var components: [String] = []
        for _ in 0..<depth {
            let name = names.randomElement(using: &generator) ?? "A"
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: components.append("**")
            case 1: components.append("*")
            case 2: components.append(String(name.prefix(2)) + "*")
            case 3: components.append("*" + String(name.suffix(4)))
            case 4: components.append(String(name.dropLast()) + "?")
            case 5: components.append("?" + String(name.dropFirst()))
            default: components.append(name)
            }
        }
        return components.joined(separator: "/")
    }

    @Test("the index attributes every path exactly as every glob in turn does")
    func indexMatchesLinearRule() {
        var matched = 0
        for seed in UInt64(0)..<60 {
            var generator = SeededGenerator(seed: seed)
            let count = Int.random(in: 1...60, using: &generator)
            var patterns: Set<String> = []
            while patterns.count < count { patterns.insert(Self.glob(&generator)) }
            let globs = patterns.sorted().enumerated().map { (screen: Int64($0.offset % 7), pattern: $0.element) }
            let index = ScreenAttribution(globs)
            let oracle = LinearAttribution(globs)
            for _ in 0..<400 {
                let file = Self.path(&generator)
                let expected = oracle.screen(for: file)
                #expect(index.screen(for: file) == expected, "seed \(seed): \(file) with \(globs.map(\.pattern))")
                if expected != nil { matched += 1 }
            }
        }
        // The generated paths do meet the globs, not only miss them.
        #expect(matched > 2_000)
    }

    @Test("unanchored globs, ties and globs with no wildcard")
    func edges() {
        let screens = ScreenAttribution([
            (1, "*"), (2, "**"), (3, "A/B.swift"), (4, "**/B.swift"), (5, "A/*.swift"), (6, "?/C.swift"),
            (7, "*/B.swift"),
        ])
        #expect(screens.screen(for: "A/B.swift") == 3)
        #expect(screens.screen(for: "C/B.swift") == 7)  // one literal character more than `**/B.swift`
        #expect(screens.screen(for: "C/C.swift") == 6)
        // `A/*.swift` and `?/C.swift` have 8 literal characters each: the pattern text decides.
        #expect(screens.screen(for: "A/C.swift") == 6)
        #expect(screens.screen(for: "A/D.swift") == 5)
        #expect(screens.screen(for: "x") == 1)
        #expect(screens.screen(for: "x/y") == 2)
        #expect(ScreenAttribution([]).screen(for: "A") == nil)
    }

    @Test(
        "a glob's literal ends",
        arguments: [
            ("Sources/Inbox/**", "Sources/Inbox/", "", true), ("**/Inbox*.swift", "", ".swift", true),
            ("Sources/A.swift", "Sources/A.swift", "", false), ("S?/x", "S", "/x", true), ("**", "", "", true),
        ])
    func literalEnds(pattern: String, prefix: String, suffix: String, wildcards: Bool) {
        let glob = PathGlob(pattern)
        #expect(glob.literalPrefix == prefix && glob.literalSuffix == suffix && glob.hasWildcards == wildcards)
    }
}
