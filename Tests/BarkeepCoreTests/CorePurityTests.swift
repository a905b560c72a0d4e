import Foundation
import Testing

/// Core does no I/O (DESIGN.md's module table): its sources, read from the source tree, name no file-system or
/// standard-stream API. Directory walking lives in BarkeepDiscovery, the logger's standard-error sink in
/// BarkeepCommandLine.
@Suite("BarkeepCore does no I/O")
struct CorePurityTests {
    /// The APIs whose use in Core means I/O: files and the standard streams.
    static let forbidden = [
        "FileManager", "FileHandle", "fputs", "fopen", "fwrite", "stderr", "stdout", "stdin", "print(",
        "readLine(",
    ]

    /// Sources/BarkeepCore, found from this file's place in the tree.
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/BarkeepCore")

    @Test("no source file of BarkeepCore names a file-system or standard-stream API")
    func noInputOutput() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(names.count > 10, "found only \(names) in \(Self.sources.path)")
        for name in names {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(name), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for api in Self.forbidden where line.contains(api) {
                    Issue.record("Sources/BarkeepCore/\(name):\(index + 1) uses \(api): Core does no I/O")
                }
            }
        }
    }
}
