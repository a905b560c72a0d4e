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

    /// How a lock's file compares with the file a `stat` describes.
    enum Match {
        /// The same device and inode.
        case same
        /// The same inode number on a device that reads differently: some filesystems (btrfs subvolumes, overlays)
        /// give `stat` another device number than the one /proc/locks prints. Taken as the same file, so that a
        /// lock is never missed.
        case inodeOnly
        /// Another file.
        case other
    }

    /// How `lock`'s file compares with the file `info` describes.
    static func match(_ lock: Lock, _ info: stat) -> Match {
        guard lock.inode == UInt64(info.st_ino) else { return .other }
        let device = UInt64(info.st_dev)
        // Linux's encoding of a device number (glibc's gnu_dev_major and gnu_dev_minor).
        let major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff)))
        let minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~UInt64(0xff)))
        return lock.major == major && lock.minor == minor ? .same : .inodeOnly
    }

    /// The live processes other than this one that hold a lock on the file open as `descriptor`; those whose lock
    /// matches its inode but not its device when none matches both.
    static func holders(ofDescriptor descriptor: Int32) -> [ProcessRecord] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return [] }
        let others = locks().filter { $0.pid != getpid() }
        let same = others.filter { match($0, info) == .same }
        let chosen = same.isEmpty ? others.filter { match($0, info) == .inodeOnly } : same
        return Set(chosen.map(\.pid)).sorted().compactMap { ProcessRecord(pid: $0) }
    }

    /// A lock a live process other than this one holds on a file inside a directory.
    struct HeldLock {
        /// The process holding it.
        var holder: ProcessRecord
        /// The file's path now (a lock file moved within the directory is found where it went).
        var path: String
        /// Whether it was matched by inode alone, the device /proc/locks prints differing from the one `stat` gives.
        var matchedByInodeOnly: Bool
    }

    /// Locks live processes other than this one hold on files inside `directory` but outside `excluded`. A lock
    /// whose inode matches one of the holder's open files on another device number counts (`Match.inodeOnly`). A
    /// process whose descriptors cannot be read (another user's, without privilege) is passed over.
    static func locks(inside directory: String, excluding excluded: [String]) -> [HeldLock] {
        let held = Dictionary(grouping: locks().filter { $0.pid != getpid() }, by: \.pid)
        var found: [HeldLock] = []
        for (pid, locks) in held.sorted(by: { $0.key < $1.key }) {
            guard let holder = ProcessRecord(pid: pid),
                let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            else { continue }
            for descriptor in descriptors {
                let link = "/proc/\(pid)/fd/\(descriptor)"
                var info = stat()
                guard stat(link, &info) == 0 else { continue }
                let matches = locks.map { match($0, info) }
                guard matches.contains(where: { $0 != .other }),
                    let path = try? FileManager.default.destinationOfSymbolicLink(atPath: link)
                else { continue }
                let isInside = path.hasPrefix(directory + "/") || path == directory
                guard isInside, !excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { continue }
                found.append(HeldLock(holder: holder, path: path, matchedByInodeOnly: !matches.contains(.same)))
            }
        }
        return found
    }
}
