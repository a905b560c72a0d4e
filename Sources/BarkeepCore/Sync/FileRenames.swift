/// The files renamed between two commits, old path → new path: what pass 3 of the sync pairs findings across
/// (`SyncPlanner.pairRenamed`). Read from, and written as, the output of
/// `git diff --name-status --find-renames BASE HEAD`: a line `R<score>` TAB old path TAB new path per rename.
///
/// One map is one commit range, so a path is renamed once at most: an old path named twice, or two old paths renamed
/// to one new path, is refused (git never prints either for one range; a list that does was put together from
/// several). The same rename twice counts once; a "rename" of a path to itself is no rename and is left out. A chain
/// inside the range (`a` → `b` and `b` → `c`: `b` was renamed away and another file took its name) is two renames,
/// each looked up on its own.
public struct FileRenames: Sendable, Equatable {
    /// The most renames one upload may carry.
    public static let maximumCount = 100_000
    /// The most bytes the text form of one upload's renames may have (`INGEST`'s `renames=`).
    public static let maximumBytes = 16 << 20

    private var newPathByOldPath: [String: String]

    /// No renames: a sync then is what it was without them.
    public init() {
        newPathByOldPath = [:]
    }

    /// The renames given, old path → new path. Paths renamed to themselves are left out; the caller keeps to the
    /// rules above (`parse` checks them).
    public init(_ newPathByOldPath: [String: String]) {
        self.newPathByOldPath = newPathByOldPath.filter { $0.key != $0.value }
    }

    /// Whether there is no rename.
    public var isEmpty: Bool { newPathByOldPath.isEmpty }

    /// The git arguments that list the files renamed from commit `base` to `head`, in the form `parse(nullTerminated:)`
    /// reads: the one command the CLI (in a checkout) and a repository source run.
    public static func gitDiffArguments(from base: String, to head: String) -> [String] {
        [
            "diff", "--name-status", "--find-renames", "-z", "--diff-filter=R", "--no-color", "--no-ext-diff", base,
            head, "--",
        ]
    }
    /// How many files were renamed.
    public var count: Int { newPathByOldPath.count }

    /// The path the file at `oldPath` was renamed to; nil when it was not renamed.
    public func newPath(of oldPath: String) -> String? { newPathByOldPath[oldPath] }

    /// The renames as `git diff --name-status` prints them, one `R100` line each (the score is not kept), sorted by
    /// old path; paths with a tab, a newline, a quote, a backslash or another control character are C-quoted as git
    /// quotes them. `parse(nameStatus:)` reads it back to the same renames.
    public var nameStatusText: String {
        var text = ""
        for (old, new) in newPathByOldPath.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }) {
            text += "R100\t\(Self.quoted(old))\t\(Self.quoted(new))\n"
        }
        return text
    }

    // MARK: - Reading

    /// Reads the output of `git diff --name-status --find-renames BASE HEAD`: each line `R<score>` TAB old TAB new
    /// is a rename; every other line (`M`, `A`, `D`, `C…` copies, blank lines) is not one and is passed over. Paths
    /// that git C-quoted (`"a\tb"`, octal escapes for other bytes) are decoded. A trailing CR is dropped.
    ///
    /// Throws `invalidDocument` naming the line (`renames line 3`) for a rename line that is not three fields, a
    /// score that is not digits, an empty path, a quoted path that does not decode to UTF-8, a path renamed twice or
    /// two paths renamed to one; and for more than `maximumCount` renames or `maximumBytes` bytes.
    public static func parse(nameStatus text: String) throws(CoreError) -> FileRenames {
        guard text.utf8.count <= maximumBytes else {
            throw .invalidDocument(
                path: "renames", problem: "\(text.utf8.count) bytes, more than the \(maximumBytes) a list may have")
        }
        var builder = Builder()
        var number = 0
        // Bytes, not characters: CR LF is one Character in Swift.
        for line in Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let line = line.last == 0x0D ? line.dropLast() : line
            guard line.first == UInt8(ascii: "R") else { continue }
            let place = "renames line \(number)"
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].dropFirst().allSatisfy({ (48...57).contains($0) }) else {
                throw .invalidDocument(
                    path: place, problem: "expected R<score>, a tab, the old path, a tab and the new path")
            }
            try builder.add(old: unquoted(fields[1], at: place), new: unquoted(fields[2], at: place), at: place)
        }
        return builder.renames
    }

    /// Reads the output of `git diff --name-status --find-renames -z BASE HEAD`: NUL-terminated fields, a status
    /// (`R<score>` followed by two paths, `C<score>` by two, any other by one), paths as raw bytes. The errors are
    /// those of `parse(nameStatus:)`, naming the entry (`renames entry 3`).
    public static func parse(nullTerminated bytes: [UInt8]) throws(CoreError) -> FileRenames {
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        if fields.last?.isEmpty == true { fields.removeLast() }
        var builder = Builder()
        var position = 0
        var number = 0
        while position < fields.count {
            number += 1
            let place = "renames entry \(number)"
            let status = fields[position]
            let isTwoPaths = status.first == UInt8(ascii: "R") || status.first == UInt8(ascii: "C")
            let width = isTwoPaths ? 3 : 2
            guard !status.isEmpty, position + width <= fields.count else {
                throw .invalidDocument(path: place, problem: "expected a status and its paths")
            }
            defer { position += width }
            guard status.first == UInt8(ascii: "R") else { continue }
            guard status.dropFirst().allSatisfy({ (48...57).contains($0) }) else {
                throw .invalidDocument(path: place, problem: "expected R<score>")
            }
            try builder.add(
                old: path(fields[position + 1], at: place), new: path(fields[position + 2], at: place), at: place)
        }
        return builder.renames
    }

    /// Collects renames under the rules of the type.
    private struct Builder {
        var newPathByOldPath: [String: String] = [:]
        var oldPathByNewPath: [String: String] = [:]

        var renames: FileRenames { FileRenames(newPathByOldPath) }

        mutating func add(old: String, new: String, at place: String) throws(CoreError) {
            guard old != new else { return }
            if let earlier = newPathByOldPath[old], earlier != new {
                throw .invalidDocument(
                    path: place,
                    problem:
                        "\(ValueExcerpt.quoted(old)) is renamed twice, to \(ValueExcerpt.quoted(earlier)) and \(ValueExcerpt.quoted(new))"
                )
            }
            if let earlier = oldPathByNewPath[new], earlier != old {
                throw .invalidDocument(
                    path: place,
                    problem:
                        "\(ValueExcerpt.quoted(earlier)) and \(ValueExcerpt.quoted(old)) are both renamed to \(ValueExcerpt.quoted(new))"
                )
            }
            newPathByOldPath[old] = new
            oldPathByNewPath[new] = old
            guard newPathByOldPath.count <= FileRenames.maximumCount else {
                throw .invalidDocument(
                    path: place, problem: "more than the \(FileRenames.maximumCount) renames a list may have")
            }
        }
    }

    /// A raw path: not empty, UTF-8.
    private static func path(_ bytes: ArraySlice<UInt8>, at place: String) throws(CoreError) -> String {
        guard !bytes.isEmpty else { throw .invalidDocument(path: place, problem: "an empty path") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidDocument(path: place, problem: "a path that is not UTF-8")
        }
        return text
    }

    // MARK: - Git's quoting

    /// The path a field names: as it is, or decoded when git C-quoted it (`"…"` with backslash escapes).
    private static func unquoted(_ field: ArraySlice<UInt8>, at place: String) throws(CoreError) -> String {
        guard field.first == 0x22 else { return try path(field, at: place) }
        let bytes = Array(field)
        guard bytes.count >= 2, bytes.last == UInt8(ascii: "\"") else {
            throw .invalidDocument(path: place, problem: "a quoted path without its closing quote")
        }
        var decoded: [UInt8] = []
        var index = 1
        let end = bytes.count - 1
        while index < end {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                guard byte != UInt8(ascii: "\"") else {
                    throw .invalidDocument(path: place, problem: "a quote inside a quoted path that is not escaped")
                }
                decoded.append(byte)
                continue
            }
            guard index < end else {
                throw .invalidDocument(path: place, problem: "a quoted path ending in a lone backslash")
            }
            let escape = bytes[index]
            index += 1
            if let simple = unescaped[escape] {
                decoded.append(simple)
            } else if (48...51).contains(escape), index + 2 <= end,
                bytes[index..<(index + 2)].allSatisfy({ (48...55).contains($0) })
            {
                decoded.append((escape - 48) << 6 | (bytes[index] - 48) << 3 | (bytes[index + 1] - 48))
                index += 2
            } else {
                throw .invalidDocument(path: place, problem: "an unknown escape in a quoted path")
            }
        }
        return try path(decoded[...], at: place)
    }

    /// Git's C escapes: the byte each letter after a backslash stands for.
    private static let unescaped: [UInt8: UInt8] = [
        UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "v"): 0x0B, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "\""): 0x22,
        UInt8(ascii: "\\"): 0x5C,
    ]

    /// `path` as git writes it in `--name-status`: as it is unless it holds a control character, a quote or a
    /// backslash (or starts with a quote), then C-quoted, other control bytes in octal. Bytes past ASCII stay as they
    /// are (git's `core.quotePath=false`), which `parse` reads either way.
    static func quoted(_ path: String) -> String {
        let bytes = Array(path.utf8)
        guard bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) else { return path }
        var text: [UInt8] = [0x22]
        for byte in bytes {
            if let letter = unescaped.first(where: { $0.value == byte })?.key {
                text += [0x5C, letter]
            } else if byte < 0x20 || byte == 0x7F {
                text += [0x5C, 48 + (byte >> 6), 48 + (byte >> 3 & 7), 48 + (byte & 7)]
            } else {
                text.append(byte)
            }
        }
        text.append(0x22)
        return String(decoding: text, as: UTF8.self)
    }
}
