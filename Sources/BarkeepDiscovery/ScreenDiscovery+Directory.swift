import BarkeepCore
import Foundation

// The only I/O of screen discovery: walking a source tree and reading its files. Everything it finds goes to the
// pure discovery over paths and texts (ScreenDiscovery.swift), which the tests drive without a file system.
extension ScreenDiscovery {
    /// Directories never entered when walking a tree: build products and third-party code.
    public static let skippedDirectories: Set<String> = [
        ".build", "DerivedData", "Pods", "Carthage", "build", "node_modules",
    ]

    /// Files bigger than this are skipped when walking a tree: generated code, not screens.
    public static let maximumFileSize = 4 << 20

    // MARK: - Reading a directory

    /// The view types declared under `root`, by file then line, with paths relative to `root`.
    ///
    /// Reads `.swift`, `.h` and `.m` files as UTF-8 (invalid bytes replaced), skipping hidden files and
    /// directories, ``skippedDirectories``, files over ``maximumFileSize`` and files or directories that cannot be
    /// read. Symbolic links to files are read; symbolic links to directories are not followed. Throws
    /// `CoreError.unreadableDirectory` when `root` is not a directory that can be listed.
    public static func findViewTypes(inDirectory root: String) throws(CoreError) -> [ViewType] {
        var declarations: [Declaration] = []
        try walk(root, prefix: "", excluding: []) { path, absolute in
            guard language(of: path) != nil, let text = readSource(absolute) else { return }
            declarations += scan(path: path, text: text)?.declarations ?? []
        }
        return resolve(declarations)
    }

    /// The screens, components and app files under `sourceDirectory`, with paths relative to `root` (the directory
    /// the scanner runs in; `sourceDirectory` when nil), files matching a glob of `excluded` (relative to `root`),
    /// or in a directory that does, left out.
    ///
    /// Walks the tree as ``findViewTypes(inDirectory:)`` does, and also notes the app files that are not sources
    /// (`Info.plist`, Xcode project files). Throws `CoreError.unreadableDirectory` when `sourceDirectory` or `root`
    /// is not a directory that can be listed, `CoreError.sourceOutsideRoot` when `sourceDirectory` is not `root`
    /// or inside it (symbolic links resolved).
    public static func discover(
        sourceDirectory: String,
        root: String? = nil,
        excluding excluded: [String] = []
    ) throws(CoreError) -> DiscoveryResult {
        let prefix = try relativePath(of: sourceDirectory, in: root ?? sourceDirectory)
        var absolutePaths: [String: String] = [:]
        var matched: [String: Int] = [:]
        try walk(
            sourceDirectory, prefix: prefix, excluding: excluded.map(PathGlob.init),
            visit: { path, absolute in absolutePaths[path] = absolute },
            skip: { path, files in matched[path] = files })
        var result = discover(paths: Array(absolutePaths.keys)) { path in absolutePaths[path].flatMap(readSource) }
        result.leftOut =
            (result.leftOut + matched.map { LeftOutDirectory(directory: $0, reason: .excluded, files: $1) })
            .sorted { $0.directory < $1.directory }
        return result
    }

    // MARK: - Walking a tree

    /// `directory` relative to `root`, both resolved: empty when they are the same.
    private static func relativePath(of directory: String, in root: String) throws(CoreError) -> String {
        _ = try listableDirectory(root)
        _ = try listableDirectory(directory)
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let (source, base) = (resolved(directory), resolved(root))
        if source == base { return "" }
        let baseSlash = base.hasSuffix("/") ? base : base + "/"
        guard source.hasPrefix(baseSlash) else { throw .sourceOutsideRoot(source: directory, root: root) }
        return String(source.dropFirst(baseSlash.count))
    }

    /// `path` without a trailing `/`, once it is known to be a directory that can be listed.
    private static func listableDirectory(_ path: String) throws(CoreError) -> String {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadableDirectory(path: path, reason: "no such directory")
        }
        guard isDirectory.boolValue else { throw .unreadableDirectory(path: path, reason: "not a directory") }
        let base = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard (try? manager.contentsOfDirectory(atPath: base)) != nil else {
            throw .unreadableDirectory(path: path, reason: "cannot list its entries")
        }
        return base
    }

    /// Calls `visit` with each regular file (or link to one) under `root`, by its path (`prefix/…`) and its
    /// absolute path, skipping hidden entries, ``skippedDirectories`` and what `excluded` matches; `skip` with each
    /// path `excluded` matched, and how many files it holds (1 for a file).
    private static func walk(
        _ root: String,
        prefix: String,
        excluding excluded: [PathGlob],
        visit: (_ path: String, _ absolute: String) -> Void,
        skip: (_ path: String, _ files: Int) -> Void = { _, _ in }
    ) throws(CoreError) {
        let manager = FileManager.default
        let base = try listableDirectory(root)
        guard prefix.isEmpty || !isExcluded(prefix, by: excluded) else { return }
        var pending = [""]
        while let directory = pending.popLast() {
            let path = directory.isEmpty ? base : base + "/" + directory
            guard let names = try? manager.contentsOfDirectory(atPath: path) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let relative = directory.isEmpty ? name : directory + "/" + name
                let reported = prefix.isEmpty ? relative : prefix + "/" + relative
                let type = (try? manager.attributesOfItem(atPath: path + "/" + name))?[.type] as? FileAttributeType
                guard excluded.allSatisfy({ !$0.matches(reported) }) else {
                    if type == .typeDirectory {
                        var files = 0
                        try? walk(path + "/" + name, prefix: reported, excluding: [], visit: { _, _ in files += 1 })
                        skip(reported, files)
                    } else if type == .typeRegular || type == .typeSymbolicLink {
                        skip(reported, 1)
                    }
                    continue
                }
                if type == .typeDirectory {
                    if !skippedDirectories.contains(name) { pending.append(relative) }
                } else if type == .typeRegular || type == .typeSymbolicLink {
                    visit(reported, path + "/" + name)
                }
            }
        }
    }

    /// A source file's text, or nil when it cannot be read, is too big or is not a regular file (a link to a
    /// directory, a FIFO that would block the open).
    private static func readSource(_ path: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard
            (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType == .typeRegular,
            let handle = FileHandle(forReadingAtPath: resolved)
        else { return nil }
        defer { try? handle.close() }
        // One byte more than allowed tells a file at the cap from a bigger one without a separate stat.
        guard let data = try? handle.read(upToCount: maximumFileSize + 1), data.count <= maximumFileSize else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
