import Foundation
import Testing

/// A golden file of a transcript test: rewritten from the current output under `BARKEEP_UPDATE_GOLDEN=1`, else
/// compared with it, naming the first line that differs.
enum GoldenFile {
    /// Records an issue unless `text` equals the file at `url` byte for byte (after writing it there if asked).
    static func check(_ text: String, against url: URL) throws {
        if ProcessInfo.processInfo.environment["BARKEEP_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: url)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(text == golden, "differs from Golden/\(url.lastPathComponent)")
        guard text != golden else { return }
        let mine = text.split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = golden.split(separator: "\n", omittingEmptySubsequences: false)
        if let first = zip(mine, theirs).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("line \(first.offset + 1): got \(first.element.0), golden \(first.element.1)")
        } else {
            Issue.record("lengths differ: \(mine.count) lines, golden \(theirs.count)")
        }
    }
}
