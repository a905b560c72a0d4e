import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The file locks the kernel holds (`/proc/locks`: flock, POSIX and open-file-description locks) and which live
/// processes hold them: how a daemon finds another that holds a lock on its data directory, or on a lock file that
/// was moved or renamed inside it.
enum FileLockTable {
    /// One granted lock: its holder and the file it is on.
    struct Lock: Equatable {
        /// The holder's pid (open-file-description locks, which name none, are left out).
        var pid: Int32
        /// The file's device, as major and minor numbers.
        var major: UInt32
        var minor: UInt32
        /// The file's inode.
        var inode: UInt64
    }

    /// Every granted lock (waiters left out); none when /proc/locks cannot be read.
    static func locks() -> [Lock] {
        guard let data = FileManager.default.contents(atPath: "/proc/locks") else { return [] }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// The locks in the text of /proc/locks: `1: FLOCK  ADVISORY  WRITE 1547 fe:00:16221825 0 EOF`; a waiter's line
    /// (`1: -> FLOCK …`) is not a lock held.
    static func parse(_ text: String) -> [Lock] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 6, words[1] != "->", let pid = Int32(words[4]), pid > 0 else { return nil }
            let file = words[5].split(separator: ":")
            guard file.count == 3, let major = UInt32(file[0], radix: 16), let minor = UInt32(file[1], radix: 16),
                let inode = UInt64(file[2])
            else { return nil }
            return Lock(pid: pid, major: major, minor: minor, inode: inode)
        }
    }

    /// Whether `lock` is on the file `info` describes.
    static func isOn(_ lock: Lock, _ info: stat) -> Bool {
        let device = UInt64(info.st_dev)
        // Linux's encoding of a device number (glibc's gnu_dev_major and gnu_dev_minor).
        let major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff)))
        let minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~UInt64(0xff)))
        return lock.major == major && lock.minor == minor && lock.inode == UInt64(info.st_ino)
    }

    /// The live processes other than this one that hold a lock on the file open as `descriptor`.
    static func holders(ofDescriptor descriptor: Int32) -> [ProcessRecord] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return [] }
        return Set(locks().filter { $0.pid != getpid() && isOn($0, info) }.map(\.pid)).sorted()
            .compactMap { ProcessRecord(pid: $0) }
    }

    /// Locks live processes other than this one hold on files inside `directory` but outside `excluded`: each
    /// holder and the file's path now (a lock file moved within the directory is found where it went). A process
    /// whose descriptors cannot be read (another user's, without privilege) is passed over.
    static func locks(inside directory: String, excluding excluded: [String]) -> [(holder: ProcessRecord, path: String)]
    {
        let held = Dictionary(grouping: locks().filter { $0.pid != getpid() }, by: \.pid)
        var found: [(holder: ProcessRecord, path: String)] = []
        for (pid, locks) in held.sorted(by: { $0.key < $1.key }) {
            guard let holder = ProcessRecord(pid: pid),
                let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            else { continue }
            for descriptor in descriptors {
                let link = "/proc/\(pid)/fd/\(descriptor)"
                var info = stat()
                guard stat(link, &info) == 0, locks.contains(where: { isOn($0, info) }),
                    let path = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
                else { continue }
                let isInside = path.hasPrefix(directory + "/") || path == directory
                guard isInside, !excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { continue }
                found.append((holder, path))
            }
        }
        return found
    }
}
