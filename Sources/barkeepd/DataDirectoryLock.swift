import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on a data directory, so two daemons never run one embedded cluster. The kernel drops it when
/// the process dies, however it dies, so a crash never leaves a stale lock behind.
final class DataDirectoryLock {
    private let descriptor: Int32

    /// Takes the lock or says which process holds it.
    init(directory: String) throws(DaemonError) {
        let path = directory + "/barkeepd.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .startup("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            close(descriptor)
            throw .startup("another barkeepd (pid \(holder)) is using \(directory)")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
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
