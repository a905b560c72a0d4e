import BarkeepCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Looks at an inbox directory on the daemon's host and applies InboxLocation's rules to it: where it is (symbolic
/// links resolved first), who owns it, and whether it is, is inside or holds a data directory of any barkeepd or
/// PostgreSQL cluster. `SOURCE ADD` and `SOURCE RESUME` refuse a directory it refuses; a running inbox is checked
/// again at every listing and before it moves files, and paused when the directory became one it refuses.
///
/// It holds the rules of this daemon only, never a file: safe to use from any thread.
public struct InboxGuard: Sendable {
    /// Directories no inbox may be in or above: the daemon's data directory.
    public var protectedDirectories: [String]
    /// The daemon's user, who must own the inbox.
    public var daemonUID: UInt32
    /// The daemon user's home directories: `$HOME`, and the one the user database names.
    public var homes: [String]

    /// The guard of this process: its effective user, its homes, and `protectedDirectories`.
    public init(protectedDirectories: [String]) {
        self.protectedDirectories = protectedDirectories
        let uid = geteuid()
        daemonUID = uid
        var homes: [String] = []
        if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") { homes.append(home) }
        // The reentrant lookup: checks run on several database threads at once.
        var buffer = [CChar](repeating: 0, count: 4096)
        let userHome = buffer.withUnsafeMutableBufferPointer { buffer -> String? in
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            guard let base = buffer.baseAddress, getpwuid_r(uid, &entry, base, buffer.count, &found) == 0,
                found != nil, let directory = entry.pw_dir
            else { return nil }
            return String(cString: directory)
        }
        if let userHome { homes.append(userHome) }
        self.homes = homes
    }

    /// A directory the guard refuses, and why.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason, a sentence fragment naming the inbox (`the inbox /var/lib/dpkg is in the system directory
        /// /var/lib`).
        public let description: String
    }

    /// How much of the tree a check looks at.
    public enum Depth: Sendable {
        /// The directory and those above it: a few system calls, for every pass that moves files.
        case directory
        /// Besides, every directory below it (at most InboxLocation.maximumDirectories): for adding and listings.
        case tree
    }

    /// The canonical path of `path` (every symbolic link, `.` and `..` resolved) when it may be an inbox; the refusal
    /// otherwise.
    public func check(_ path: String, depth: Depth) -> Result<String, Refusal> {
        guard let resolved = Self.resolve(path) else {
            return .failure(Refusal(description: "the inbox \(path) is not a directory on the daemon's host"))
        }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return .failure(Refusal(description: "the inbox \(path) is not a directory on the daemon's host"))
        }
        let protected = protectedDirectories.map { Self.resolve($0) ?? $0 }
        let homes = homes.map { Self.resolve($0) ?? $0 }
        if let problem = InboxLocation.problem(
            path: resolved, ownerUID: info.st_uid, daemonUID: daemonUID, homes: homes, protected: protected)
        {
            return .failure(Refusal(description: problem))
        }
        var directory = resolved
        while true {
            if let marker = Self.marker(in: directory) {
                return .failure(
                    Refusal(
                        description: InboxLocation.dataDirectoryProblem(
                            inbox: resolved, directory: directory, marker: marker)))
            }
            guard directory != "/" else { break }
            directory = (directory as NSString).deletingLastPathComponent
        }
        if case .tree = depth, let problem = Self.searchBelow(resolved) {
            return .failure(Refusal(description: problem))
        }
        return .success(resolved)
    }

    /// `path` with every symbolic link resolved, or nil when it does not exist.
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The first data-directory marker `directory` holds, if any.
    private static func marker(in directory: String) -> String? {
        DataDirectory.markers.first { marker in
            var info = stat()
            return lstat((directory == "/" ? "" : directory) + "/" + marker, &info) == 0
        }
    }

    /// Walks the directories below `inbox` (without following links), breadth first: the refusal when one holds a
    /// data directory's marker (DataDirectory.markers) or there are more than InboxLocation.maximumDirectories; nil otherwise. A directory
    /// the daemon cannot read is passed over: what it cannot read, it cannot move either.
    private static func searchBelow(_ inbox: String) -> String? {
        var queue = [inbox]
        var next = 0
        var found = 0
        while next < queue.count {
            let directory = queue[next]
            next += 1
            if directory != inbox, let marker = marker(in: directory) {
                return InboxLocation.dataDirectoryProblem(inbox: inbox, directory: directory, marker: marker)
            }
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                let path = directory + "/" + name
                var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    isDirectory = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                }
                guard isDirectory else { continue }
                found += 1
                if found > InboxLocation.maximumDirectories {
                    return InboxLocation.tooManyDirectoriesProblem(inbox: inbox)
                }
                queue.append(path)
            }
        }
        return nil
    }
}
