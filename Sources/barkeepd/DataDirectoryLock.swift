import BarkeepCore
import BarkeepStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on a data directory, so two daemons never run one embedded cluster. The kernel drops it when
/// the process dies, however it dies, so a crash never leaves a stale lock behind.
///
/// Two flocks: on the directory itself, which nothing can move away from under the daemon (an inbox moves files,
/// never directories), and on `barkeepd.lock` in it, which says the holder's pid. Once both are taken, no other live
/// process may hold a lock on a file inside the directory (outside its cluster): a daemon of an earlier version,
/// which locked the file alone, whose lock file was moved or renamed, still runs there.
final class DataDirectoryLock {
    private let directoryDescriptor: Int32
    private let fileDescriptor: Int32

    /// Takes the lock or says which process holds it; `logger` hears of a lock matched by inode alone.
    convenience init(directory: String, logger: Logger? = nil) throws(DaemonError) {
        switch try Self.attempt(directory) {
        case .taken(let directoryDescriptor, let fileDescriptor):
            self.init(directoryDescriptor: directoryDescriptor, fileDescriptor: fileDescriptor)
        case .heldBy(let holder): throw .startup("another barkeepd (\(holder)) is using \(directory)")
        case .movedLock(let lock):
            if lock.matchedByInodeOnly {
                logger?.warning(
                    "a lock in /proc/locks matches a file's inode but not its device; taken as held",
                    ["path": lock.path, "pid": String(lock.holder.pid)])
            }
            throw .startup(
                "another barkeepd is using \(directory): \(lock.holder) holds a lock on \(lock.path) (its "
                    + "\(DataDirectory.lockFileName) was moved or renamed); stop it before starting a daemon here")
        }
    }

    /// Takes the lock, or nil when a running barkeepd holds it (a tool that may work beside it).
    static func takeIfFree(_ directory: String) throws(DaemonError) -> DataDirectoryLock? {
        switch try attempt(directory) {
        case .taken(let directoryDescriptor, let fileDescriptor):
            DataDirectoryLock(directoryDescriptor: directoryDescriptor, fileDescriptor: fileDescriptor)
        case .heldBy, .movedLock: nil
        }
    }

    private init(directoryDescriptor: Int32, fileDescriptor: Int32) {
        self.directoryDescriptor = directoryDescriptor
        self.fileDescriptor = fileDescriptor
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fileDescriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(fileDescriptor, $0.baseAddress, $0.count, 0) }
    }

    private enum Attempt {
        case taken(Int32, Int32)
        /// Who holds it, in words (`pid 123`).
        case heldBy(String)
        /// A live process holds a lock on a file inside the directory.
        case movedLock(FileLockTable.HeldLock)
    }

    private static func attempt(_ directory: String) throws(DaemonError) -> Attempt {
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw .startup("cannot open \(directory): \(String(cString: strerror(errno)))")
        }
        guard flock(directoryDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holders = FileLockTable.holders(ofDescriptor: directoryDescriptor)
            close(directoryDescriptor)
            return .heldBy(holders.first.map { "pid \($0.pid)" } ?? "a process that cannot be named")
        }
        let path = directory + "/" + DataDirectory.lockFileName
        let fileDescriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fileDescriptor >= 0 else {
            close(directoryDescriptor)
            throw .startup("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fileDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            close(fileDescriptor)
            close(directoryDescriptor)
            return .heldBy("pid \(holder)")
        }
        // The kernel names files by their canonical path: the directory is compared in that form.
        let canonical = realpath(directory, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        if let canonical,
            let other = FileLockTable.locks(
                inside: canonical, excluding: [canonical + "/" + DataDirectory.clusterDirectoryName]
            ).first
        {
            close(fileDescriptor)
            close(directoryDescriptor)
            return .movedLock(other)
        }
        return .taken(directoryDescriptor, fileDescriptor)
    }

    deinit {
        close(fileDescriptor)
        close(directoryDescriptor)
    }
}

/// Why the daemon could not start or stopped with an error.
enum DaemonError: Error, CustomStringConvertible {
    /// A start-up step failed; the message says which and why.
    case startup(String)

    var description: String {
        switch self {
        case .startup(let message): message
        }
    }
}
