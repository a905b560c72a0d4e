import Foundation
import Testing

/// Markup is built only by the HTML builder: no page file writes a `<` in a string, a `style` attribute, a URL
/// attribute from a string, or a literal with interpolation.
@Suite struct SourceRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/BarkeepWeb")

    /// The files allowed to hold markup characters: the builder (which writes tags from literal names) and the
    /// assets (CSS and JavaScript text, served as files).
    static let exempt: Set<String> = ["HTML.swift", "AppScript.swift", "AppStylesheet.swift"]

    static func files() throws -> [(name: String, text: String)] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var result: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            result.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
        }
        return result
    }

    @Test func theRulesSeeTheSources() throws {
        let names = try Self.files().map(\.name)
        #expect(names.contains("HTML.swift") && names.contains("OverviewPage.swift") && names.count >= 15)
    }

    @Test func noMarkupIsBuiltFromStringsOutsideTheBuilder() throws {
        let banned = [
            "\"<", "<\\(", "style=", ".literal(\"\\(", "HTMLAttribute(\"href\"", "HTMLAttribute(\"src\"",
            "HTMLAttribute(\"action\"", "HTMLAttribute(\"style\"", "HTMLAttribute(\"on",
        ]
        for file in try Self.files() where !Self.exempt.contains(file.name) {
            for pattern in banned {
                #expect(!file.text.contains(pattern), "\(file.name) contains \(pattern)")
            }
        }
    }
}
