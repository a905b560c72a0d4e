import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on a data directory, so two daemons never run one embedded cluster. The kernel drops it when
/// the process dies, however it dies, so a crash never leaves a stale lock behind.
final class DataDirectoryLock {
    private let descriptor: Int32

    /// Takes the lock or says which process holds it.
    convenience init(directory: String) throws(DaemonError) {
        switch try Self.attempt(directory) {
        case .taken(let descriptor): self.init(descriptor: descriptor)
        case .heldBy(let holder): throw .startup("another barkeepd (pid \(holder)) is using \(directory)")
        }
    }

    /// Takes the lock, or nil when a running barkeepd holds it (a tool that may work beside it).
    static func takeIfFree(_ directory: String) throws(DaemonError) -> DataDirectoryLock? {
        switch try attempt(directory) {
        case .taken(let descriptor): DataDirectoryLock(descriptor: descriptor)
        case .heldBy: nil
        }
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private enum Attempt {
        case taken(Int32)
        case heldBy(String)
    }

    private static func attempt(_ directory: String) throws(DaemonError) -> Attempt {
        let path = directory + "/barkeepd.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .startup("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            close(descriptor)
            return .heldBy(holder)
        }
        return .taken(descriptor)
    }

    deinit { close(descriptor) }
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
