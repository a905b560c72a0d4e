import Foundation

/// The package's source files, for tests that read them (what a file may import or read): found by module and name
/// wherever their folder puts them, so that moving a file between folders does not break the test that reads it.
public enum SourceTree {
    /// The package's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift file of `module` (`Sources/MODULE`, its subfolders included), by path relative to the module.
    public static func files(of module: String) throws -> [String] {
        let directory = root.appendingPathComponent("Sources/\(module)")
        let all = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The file `name` (`ItemCommands.swift`, or a path inside the module such as `MCP/Tools/AuditTools.swift`) of
    /// `module`, wherever it sits; nil when the module has none or several of that name.
    public static func file(_ name: String, of module: String) throws -> URL? {
        let matches = try files(of: module).filter { $0 == name || $0.hasSuffix("/" + name) }
        guard matches.count == 1 else { return nil }
        return root.appendingPathComponent("Sources/\(module)/\(matches[0])")
    }

    /// The text of `file(name, of: module)`; throws when there is no such single file.
    public static func text(_ name: String, of module: String) throws -> String {
        guard let url = try file(name, of: module) else { throw SourceTreeError.notFound("\(module)/\(name)") }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

/// A source file a test reads is missing or ambiguous.
public enum SourceTreeError: Error, CustomStringConvertible {
    /// No single file of that name in the module.
    case notFound(String)

    /// The file named.
    public var description: String {
        switch self {
        case .notFound(let name): "no single source file \(name)"
        }
    }
}
