import Foundation

/// The real scanner outputs beside the checkout (`../shared/fixtures`, see its README), for every test target.
///
/// Found upwards from this source file. Tests assert that the directory was found and how many files it holds, so a
/// missing directory fails instead of running zero cases.
public enum Fixtures {
    /// The fixtures directory; nil when the checkout has no `shared/` beside it.
    public static let directory: String? = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("shared/fixtures").path
            if FileManager.default.fileExists(atPath: candidate + "/README.md") { return candidate }
            url.deleteLastPathComponent()
        }
        return nil
    }()

    /// Every duo_scan report: the top-level ones and the NetNewsWire history (its `expected.json` is the reference
    /// tracker's answer, not a scan).
    public static let duoScanFiles: [String] =
        ((try? files(in: "duo_scan", extension: "json")) ?? [])
        + ((try? files(in: "duo_scan/history/NetNewsWire", extension: "json")) ?? [])
        .filter { !$0.hasSuffix("/expected.json") }

    /// Every SARIF log.
    public static let sarifFiles: [String] =
        ((try? files(in: "sarif/NetNewsWire", extension: "sarif")) ?? [])
        + ((try? files(in: "sarif/small", extension: "sarif")) ?? [])

    /// The bytes of a fixture file, by its path inside the fixtures directory.
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let directory else { throw TestSupportError("the shared fixtures (../shared/fixtures) are missing") }
        guard let data = FileManager.default.contents(atPath: directory + "/" + path) else {
            throw TestSupportError("no fixture \(path)")
        }
        return Array(data)
    }

    /// A JSON fixture as `JSONSerialization` reads it: the independent view parser tests compare with.
    public static func json(_ path: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(try bytes(path))) as? [String: Any] else {
            throw TestSupportError("fixture \(path) is not a JSON object")
        }
        return object
    }

    /// The files of a fixture directory ending in `.extension`, as paths inside the fixtures, sorted by name.
    public static func files(in path: String, extension fileExtension: String) throws -> [String] {
        guard let directory else { throw TestSupportError("the shared fixtures (../shared/fixtures) are missing") }
        return try FileManager.default.contentsOfDirectory(atPath: directory + "/" + path)
            .filter { $0.hasSuffix("." + fileExtension) }
            .sorted()
            .map { path + "/" + $0 }
    }

    /// A domain file beside the fixtures (`../shared/domain/checklist.json`, …) as `JSONSerialization` reads it:
    /// what the reference tables of the schema must hold.
    public static func domain(_ name: String) throws -> [String: Any] {
        guard let directory else { throw TestSupportError("the shared fixtures (../shared/fixtures) are missing") }
        let path = URL(fileURLWithPath: directory).deletingLastPathComponent().appendingPathComponent("domain/" + name)
        guard let data = FileManager.default.contents(atPath: path.path),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw TestSupportError("no domain file \(name) beside the fixtures") }
        return object
    }
}
