import BarkeepCore
import BarkeepStore
import CBarkeepSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Something that happened in a watched directory.
public struct DirectoryEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A file was renamed into the directory: the way a complete file should arrive in a drop folder.
        case renamedIn
        /// A file opened for writing was closed: a file written in place is probably complete now.
        case written
        /// A file was created or modified and may still be incomplete.
        case changed
        /// The directory itself was deleted or moved away; it is no longer watched.
        case directoryGone
        /// The kernel dropped events; the directory must be rescanned.
        case overflow
    }

    /// The watched directory, spelled as it was given to `DirectoryWatcher.watch(_:)`.
    public let directory: String
    /// The file's name inside `directory`; nil when the event is about the directory itself.
    public let name: String?
    /// What happened.
    public let kind: Kind

    /// Creates an event.
    public init(directory: String, name: String?, kind: Kind) {
        self.directory = directory
        self.name = name
        self.kind = kind
    }
}

/// Watches drop folders with inotify and hands back what happened in them.
///
/// Thread-safety: `wait(timeout:)` is meant for one thread at a time (the sources' loop); `watch(_:)`,
/// `unwatch(_:)`, `directories` and `wake()` are safe from any thread — the watch table is behind a `Mutex` and the
/// descriptors never change after `init`.
public final class DirectoryWatcher: Sendable {
    /// Watch descriptors and the directories they belong to, both ways.
    private struct Watches {
        var directoryByDescriptor: [Int32: String] = [:]
        var descriptorByDirectory: [String: Int32] = [:]

        mutating func remove(_ directory: String) -> Int32? {
            guard let descriptor = descriptorByDirectory.removeValue(forKey: directory) else { return nil }
            directoryByDescriptor[descriptor] = nil
            return descriptor
        }
    }

    /// Enough for hundreds of records per read; one record is at most 16 + NAME_MAX + 1 bytes.
    private static let bufferSize = 64 * 1024
    /// The most buffers one `wait` reads; what is left stays queued in the kernel for the next.
    private static let maximumReads = 16

    private let inotify: Int32
    private let wakeup: Int32
    private let watches = Mutex(Watches())

    /// Creates a watcher that watches nothing yet.
    public init() throws(SourceError) {
        inotify = barkeep_inotify_create()
        guard inotify >= 0 else { throw .watch("cannot start watching folders: \(errorText())") }
        wakeup = barkeep_wakeup_create()
        guard wakeup >= 0 else {
            let reason = errorText()
            close(inotify)
            throw .watch("cannot start watching folders: \(reason)")
        }
    }

    deinit {
        close(inotify)
        close(wakeup)
    }

    /// The directories watched now: those given to `watch(_:)`, minus those unwatched or gone.
    public var directories: Set<String> {
        watches.withLock { Set($0.descriptorByDirectory.keys) }
    }

    /// Starts watching `directory` (not its subdirectories); watching it again changes nothing. Paths are compared
    /// as given: give each directory one spelling.
    public func watch(_ directory: String) throws(SourceError) {
        let result: Result<Void, SourceError> = watches.withLock { watches in
            if watches.descriptorByDirectory[directory] != nil { return .success(()) }
            let descriptor = barkeep_inotify_watch(inotify, directory)
            guard descriptor >= 0 else { return .failure(.watch(Self.watchFailure(directory, errno: errno))) }
            // Another spelling of the same directory gets the same descriptor: the newest spelling names it.
            if let previous = watches.directoryByDescriptor[descriptor] {
                watches.descriptorByDirectory[previous] = nil
            }
            watches.directoryByDescriptor[descriptor] = directory
            watches.descriptorByDirectory[directory] = descriptor
            return .success(())
        }
        try result.get()
    }

    /// Stops watching `directory`; no event for it is returned afterwards. Unknown directories are ignored.
    public func unwatch(_ directory: String) {
        watches.withLock { watches in
            if let descriptor = watches.remove(directory) { _ = barkeep_inotify_unwatch(inotify, descriptor) }
        }
    }

    /// Blocks until something happens in a watched directory, `timeout` passes or `wake()` is called, then returns
    /// every event available, oldest first (empty on a timeout or a wake-up with nothing to report). A directory
    /// that is gone is reported once and no longer watched; an overflow is reported once per watched directory,
    /// since any of them may have lost events.
    public func wait(timeout: Duration) -> [DirectoryEvent] {
        let deadline = ContinuousClock.now + timeout
        var descriptors = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            // Rounded up, so a wait never returns early and spins on a sub-millisecond remainder.
            let milliseconds = remaining <= .zero ? 0 : Int32(clamping: Int64((remaining.milliseconds).rounded(.up)))
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            break
        }
        if descriptors[1].revents != 0 { barkeep_wakeup_drain(wakeup) }
        return readEvents()
    }

    /// Makes a running or the next `wait(timeout:)` return at once. Safe from any thread.
    public func wake() {
        _ = barkeep_wakeup_signal(wakeup)
    }

    // MARK: - Reading

    /// Reads until the non-blocking descriptor has nothing more, so a burst is returned in one call; at most
    /// `maximumReads` buffers, so a folder that never stops changing cannot keep `wait` from returning.
    private func readEvents() -> [DirectoryEvent] {
        var events: [DirectoryEvent] = []
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        var reads = 0
        while reads < Self.maximumReads {
            reads += 1
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return events }
            watches.withLock { watches in
                buffer.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
                    decode(base, length: Int32(count), into: &events, watches: &watches)
                }
            }
        }
        return events
    }

    private func decode(
        _ buffer: UnsafePointer<CChar>,
        length: Int32,
        into events: inout [DirectoryEvent],
        watches: inout Watches
    ) {
        var offset: Int32 = 0
        while true {
            var descriptor: Int32 = 0
            var rawKind: UInt32 = 0
            var namePointer: UnsafePointer<CChar>?
            let next = barkeep_inotify_next(buffer, length, offset, &descriptor, &rawKind, &namePointer)
            guard next >= 0 else { return }
            offset = next
            if rawKind == BARKEEP_WATCH_OVERFLOW {
                for directory in watches.descriptorByDirectory.keys.sorted() {
                    events.append(DirectoryEvent(directory: directory, name: nil, kind: .overflow))
                }
                continue
            }
            // Records of an unwatched directory (its final IN_IGNORED among them) are no longer of interest.
            guard let directory = watches.directoryByDescriptor[descriptor] else { continue }
            let name = namePointer.map { String(cString: $0) }
            switch rawKind {
            case BARKEEP_FILE_RENAMED_IN:
                events.append(DirectoryEvent(directory: directory, name: name, kind: .renamedIn))
            case BARKEEP_FILE_WRITTEN: events.append(DirectoryEvent(directory: directory, name: name, kind: .written))
            case BARKEEP_FILE_CHANGED: events.append(DirectoryEvent(directory: directory, name: name, kind: .changed))
            case BARKEEP_DIRECTORY_GONE:
                events.append(DirectoryEvent(directory: directory, name: nil, kind: .directoryGone))
                // A moved directory stays watched under its new name; a deleted one is dropped by the kernel
                // anyway. Either way the watch ends here, and the source may watch the path again once it
                // reappears.
                _ = watches.remove(directory)
                _ = barkeep_inotify_unwatch(inotify, descriptor)
            default: continue
            }
        }
    }

    // MARK: - Errors

    private static func watchFailure(_ directory: String, errno code: Int32) -> String {
        switch code {
        case ENOENT: "cannot watch \(directory): it does not exist"
        case ENOTDIR: "cannot watch \(directory): it is not a directory"
        case EACCES: "cannot watch \(directory): permission denied"
        case ENOSPC:
            "cannot watch \(directory): the system's limit on inotify watches is reached "
                + "(raise fs.inotify.max_user_watches)"
        default: "cannot watch \(directory): \(errorText(code))"
        }
    }

}
