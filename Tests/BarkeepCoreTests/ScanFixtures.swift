import Foundation

/// The real scanner outputs in `shared/fixtures` (see its README), found from this source file.
///
/// The checkout keeps them at `../../../shared/fixtures` from `Tests/BarkeepCoreTests/`; when a worktree sits
/// deeper, the nearest `shared/fixtures` above this file is used. Tests assert that the directory was found and
/// how many files it holds, so a missing directory fails instead of running zero cases.
enum ScanFixtures {
    /// The fixtures directory, nil when neither place has it.
    static let directory: URL? = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let sibling = here.appendingPathComponent("../../../shared/fixtures").standardizedFileURL
        if isDirectory(sibling) { return sibling }
        var candidate = here
        while candidate.pathComponents.count > 1 {
            let fixtures = candidate.appendingPathComponent("shared/fixtures")
            if isDirectory(fixtures) { return fixtures }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }()

    /// Every duo_scan report: the top-level ones and the NetNewsWire history (its `expected.json` is the
    /// reference tracker's answer, not a scan).
    static let duoScanFiles: [String] =
        files(in: "duo_scan", extension: "json")
        + files(in: "duo_scan/history/NetNewsWire", extension: "json").filter { !$0.hasSuffix("/expected.json") }

    /// Every SARIF log.
    static let sarifFiles: [String] =
        files(in: "sarif/NetNewsWire", extension: "sarif") + files(in: "sarif/small", extension: "sarif")

    /// The bytes of the fixture at `relativePath` (`duo_scan/all-rules.json`).
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    /// The fixture at `relativePath` as `JSONSerialization` reads it: the independent view the tests compare with.
    static func json(_ relativePath: String) throws -> [String: Any] {
        let tree = try JSONSerialization.jsonObject(with: Data(try bytes(relativePath)))
        guard let object = tree as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
        return object
    }

    /// The names of the files in `subdirectory` ending in `.extension`, as paths relative to the fixtures, sorted.
    private static func files(in subdirectory: String, extension pathExtension: String) -> [String] {
        guard let directory,
            let names = try? FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent(subdirectory).path
            )
        else { return [] }
        return names.filter { $0.hasSuffix(".\(pathExtension)") }.sorted().map { "\(subdirectory)/\($0)" }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
