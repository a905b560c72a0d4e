import Foundation

/// The shared fixtures (real scanner outputs) beside the checkout: `../shared/fixtures`.
public enum Fixtures {
    /// The fixtures directory, found upwards from this source file; nil when the checkout has no `shared/` beside it.
    public static let directory: String? = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("shared/fixtures").path
            if FileManager.default.fileExists(atPath: candidate + "/README.md") { return candidate }
            url.deleteLastPathComponent()
        }
        return nil
    }()

    /// The bytes of a fixture file, by its path inside the fixtures directory.
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let directory else { throw TestSupportError("the shared fixtures (../shared/fixtures) are missing") }
        guard let data = FileManager.default.contents(atPath: directory + "/" + path) else {
            throw TestSupportError("no fixture \(path)")
        }
        return Array(data)
    }

    /// The files of a fixture directory, sorted by name.
    public static func files(in path: String, extension fileExtension: String) throws -> [String] {
        guard let directory else { throw TestSupportError("the shared fixtures (../shared/fixtures) are missing") }
        return try FileManager.default.contentsOfDirectory(atPath: directory + "/" + path)
            .filter { $0.hasSuffix("." + fileExtension) }
            .sorted()
            .map { path + "/" + $0 }
    }
}
