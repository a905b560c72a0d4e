import Foundation
import Testing

/// The README's layout notes against Package.swift: every target is named there, and nothing named there as a
/// target is missing from the package.
@Suite("README.md's layout matches Package.swift")
struct RepositoryLayoutTests {
    /// The names of the targets Package.swift declares (`.target(name: "X"`, `.testTarget(`, `.plugin(`, …).
    static func targets() throws -> Set<String> {
        let manifest = try String(
            contentsOf: CLIReferenceTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(?:target|executableTarget|testTarget|systemLibrary|plugin)\(\s*name:\s*"([^"]+)""#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        return Set(
            pattern.matches(in: manifest, range: range).compactMap { match in
                Range(match.range(at: 1), in: manifest).map { String(manifest[$0]) }
            })
    }

    @Test("every target of Package.swift is named in the README's layout notes, and no other")
    func layout() throws {
        let readme = try MarkdownDocument("README.md", root: CLIReferenceTests.root)
        let more = try #require(readme.section("More"), "README.md has no section More")
        let layout = try #require(
            more.blocks.first { $0.text.hasPrefix("- Layout:") }, "README.md: no '- Layout:' item under More")
        // Code spans that are paths (`Sources/`, `Package.swift`) or commands (`make bench`) are not target names.
        let named = Set(
            MarkdownDocument.codeSpans(layout.text).filter {
                !$0.contains("/") && !$0.contains(".") && !$0.contains(" ")
            })
        let targets = try Self.targets()
        #expect(!targets.isEmpty, "no target found in Package.swift")
        for missing in targets.subtracting(named).sorted() {
            Issue.record("README.md:\(layout.line): the layout notes do not name the target \(missing)")
        }
        for unknown in named.subtracting(targets).sorted() {
            Issue.record("README.md:\(layout.line): the layout notes name \(unknown), which Package.swift lacks")
        }
    }
}
