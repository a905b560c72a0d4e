import BarkeepCore
import BarkeepHashing
import BarkeepStore
import CBarkeepSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An inbox the daemon holds: the files seen in it, and what becomes of each once it is complete — ingested and
/// moved to `done/`, or refused and moved to `failed/` with a `.error` file saying why.
///
/// Every file dealt with is recorded in `source_files` (by name, inode, modification time and size) in the
/// transaction that ingested or refused it, before it is moved: a daemon that dies in between finds the record when
/// it comes back and only moves the file. Belongs to the sources' loop thread.
final class InboxSource {
    private(set) var source: Source
    let directory: String
    private let runner: SourceRunner
    private var tracker: InboxTracker
    private var isWatched = false
    /// Whether the last listing of the folder worked: files are taken only then.
    private var isListed = false
    /// Whether `done/` and `failed/` are directories (or missing) at the last look: files are taken only then.
    private var areFoldersUsable = true
    private var nextRescan = ContinuousClock.now
    /// After a failure of this inbox alone: nothing is tried before this.
    private var pausedUntil: ContinuousClock.Instant?
    /// The directory became one InboxGuard refuses and the source was paused: nothing more is done, until the next
    /// claim lets the inbox go.
    private var isStopped = false

    /// How long an inbox waits after a failure of its own before it tries again.
    static let backOffDelay: Duration = .seconds(30)

    static let doneDirectory = "done"
    static let failedDirectory = "failed"

    init(source: Source, runner: SourceRunner) {
        self.source = source
        self.runner = runner
        directory = source.settings.inbox ?? "/"
        tracker = InboxTracker(settle: .seconds(source.settings.settleSeconds ?? 5))
    }

    /// Takes the latest claim's view of the source; a run asked for rescans the folder at once.
    func update(_ source: Source) {
        self.source = source
        if source.isRunRequested { nextRescan = .now }
    }

    /// When the loop should look again: the next file that may settle, or the next rescan.
    var nextDeadline: ContinuousClock.Instant? {
        if isStopped { return nil }
        if let pausedUntil { return pausedUntil }
        return [tracker.nextDeadline(), nextRescan].compactMap { $0 }.min()
    }

    /// Something other than the database's connection failed while dealing with this inbox: it alone waits, with
    /// the error as the source's last error, and the other sources go on.
    func backOff(after error: any Error, on connection: PostgresConnection) {
        pausedUntil = .now + Self.backOffDelay
        nextRescan = .now + Self.backOffDelay
        try? problem("\(error); trying again in \(Int(Self.backOffDelay.seconds)) s", on: connection)
    }

    /// Takes note of what inotify reported.
    func handle(_ event: DirectoryEvent, at now: ContinuousClock.Instant) {
        switch event.kind {
        case .renamedIn, .written, .changed:
            guard let name = event.name else { return }
            guard let look = look(at: name) else {
                tracker.forget(name)
                return
            }
            if event.kind == .renamedIn {
                tracker.observeRename(look.observation, at: now)
            } else {
                tracker.observe(look.observation, at: now)
            }
        case .directoryGone:
            isWatched = false
            nextRescan = now
        case .overflow:
            nextRescan = now
        }
    }

    /// Rescans when due, then deals with every complete file, by name, until `deadline` (the leases' renewal).
    func process(
        on connection: PostgresConnection,
        now: ContinuousClock.Instant,
        until deadline: ContinuousClock.Instant
    ) throws {
        guard !isStopped else { return }
        if let pausedUntil {
            guard now >= pausedUntil else { return }
            self.pausedUntil = nil
        }
        if now >= nextRescan { try rescan(on: connection, now: now) }
        guard !isStopped, isListed, areFoldersUsable else { return }
        let complete = tracker.completeFiles(at: now)
        // The directory may have changed since the last listing (replaced by a link, say): looked at again, cheaply,
        // before any file of it is moved.
        guard !complete.isEmpty, try isAllowed(.directory, on: connection) else { return }
        for name in complete {
            guard runner.mayGoOn(source.id), ContinuousClock.now < deadline else { return }
            // One more look: a file written again since its last event must settle again.
            guard let look = look(at: name) else {
                tracker.forget(name)
                continue
            }
            tracker.observe(look.observation, at: now)
            guard tracker.isComplete(name, at: now) else { continue }
            if try take(name, on: connection) { tracker.forget(name) }
        }
    }

    // MARK: - Looking at the folder

    private struct Look {
        var observation: InboxTracker.Observation
        var stamp: String
    }

    /// The regular file `name` as it is now; nil for anything else (gone, a directory, a link).
    private func look(at name: String) -> Look? {
        guard !InboxTracker.isTemporaryName(name), !name.contains("/") else { return nil }
        var info = stat()
        guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Self.look(name, info)
    }

    private static func look(_ name: String, _ info: stat) -> Look {
        Look(
            observation: InboxTracker.Observation(name: name, size: Int64(info.st_size), modified: modified(info)),
            stamp: stamp(info)
        )
    }

    /// The modification time in nanoseconds since the epoch.
    private static func modified(_ info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// What tells one file of a name from another in the ledger: inode, modification time and size.
    private static func stamp(_ info: stat) -> String { "\(info.st_ino):\(modified(info)):\(info.st_size)" }

    /// Whether two looks are at the same file, unchanged: its device and its stamp.
    private static func isSameFile(_ one: stat, _ other: stat) -> Bool {
        one.st_dev == other.st_dev && stamp(one) == stamp(other)
    }

    /// Watches the folder (first, so nothing written meanwhile is missed), then lists it whole. A folder that cannot
    /// be watched or read is the source's last error until it can.
    private func rescan(on connection: PostgresConnection, now: ContinuousClock.Instant) throws {
        nextRescan = now + runner.configuration.rescan
        guard try isAllowed(.tree, on: connection) else { return }
        if source.isRunRequested {
            try SourceStore.reschedule(
                source.id, holder: runner.configuration.holder, delaySeconds: 0, answersRequestsUntil: source.nextRunAt,
                on: connection)
            source.isRunRequested = false
        }
        if !isWatched {
            do {
                try runner.watcher.watch(directory)
                isWatched = true
            } catch {
                // Without inotify (its watch limit reached, say) the listings alone still find every file.
                try problem(
                    "cannot watch the inbox, so only its listing every \(Int(runner.configuration.rescan.seconds)) s "
                        + "finds new files: \(error)",
                    on: connection)
            }
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            runner.watcher.unwatch(directory)
            isWatched = false
            isListed = false
            try problem("cannot read the inbox \(directory): \(error.localizedDescription)", on: connection)
            return
        }
        isListed = true
        try checkFolders(on: connection)
        var present: Set<String> = []
        for name in names {
            guard let look = look(at: name) else { continue }
            present.insert(name)
            tracker.observe(look.observation, at: now)
        }
        tracker.keepOnly(present)
    }

    /// Looks at `done/` and `failed/`: anything there but a directory (a symbolic link, say) stops the inbox until
    /// the next rescan, with one problem recorded, rather than a failed move for every file.
    private func checkFolders(on connection: PostgresConnection) throws {
        let unusable = [Self.doneDirectory, Self.failedDirectory].filter { folder in
            var info = stat()
            return lstat(directory + "/" + folder, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
        }
        areFoldersUsable = unusable.isEmpty
        guard !areFoldersUsable else { return }
        let folders = unusable.map { directory + "/" + $0 }.joined(separator: " and ")
        try problem(
            "\(folders) must be \(unusable.count == 1 ? "a directory" : "directories"), not a link or a file: the "
                + "files stay in the inbox until then",
            on: connection)
    }

    /// Whether InboxGuard accepts the directory as it is now; when it does not, the source is paused with the reason
    /// as its last error (its files stay where they are), and this inbox stops.
    private func isAllowed(_ depth: InboxGuard.Depth, on connection: PostgresConnection) throws -> Bool {
        // A directory that is gone is not refused here: the listing says so and the inbox waits for it to return.
        guard InboxGuard.resolve(directory) != nil,
            case .failure(let refusal) = runner.configuration.inboxGuard.check(directory, depth: depth)
        else { return true }
        let message = "\(refusal.description): the source is paused and no file was moved"
        runner.logger.warning("inbox refused, source paused", ["source": String(source.id), "error": message])
        runner.watcher.unwatch(directory)
        isWatched = false
        isStopped = true
        try SourceStore.pause(source.id, holder: runner.configuration.holder, because: message, on: connection)
        runner.sourcesChanged()
        return false
    }

    private func problem(_ message: String, on connection: PostgresConnection) throws {
        runner.logger.warning("inbox problem", ["source": String(source.id), "error": message])
        do {
            try SourceStore.recordProblem(source.id, holder: runner.configuration.holder, message, on: connection)
        } catch StoreError.conflict {
            // No longer held: the next claim gives the inbox up.
        }
    }

    // MARK: - Taking a file

    /// Ingests or refuses the complete file `name` and moves it away. Returns false when it must be looked at again
    /// (it changed while read, or the lease is lost); a database failure is thrown, the file left in place.
    private func take(_ name: String, on connection: PostgresConnection) throws -> Bool {
        let path = directory + "/" + name
        var file = stat()
        guard lstat(path, &file) == 0, (file.st_mode & S_IFMT) == S_IFREG else { return true }  // Gone: forget it.
        let limit = runner.configuration.maximumUpload
        var bytes: [UInt8] = []
        var refusal: String?
        // Open until the file has been moved: an inode in use cannot be freed, so its number cannot pass to a file
        // dropped under the same name meanwhile, and the checks before the move tell the two apart.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor < 0 {
            guard errno != ENOENT else { return true }
            refusal = "the daemon cannot open the file: \(errorText())"
        } else {
            guard fstat(descriptor, &file) == 0, (file.st_mode & S_IFMT) == S_IFREG else { return true }
            if Int(file.st_size) > limit {
                let tooLong = SourceError.tooLong(
                    "the file is \(file.st_size) bytes, more than the daemon's upload limit of \(limit) bytes")
                refusal = runner.configuration.refusal(tooLong) ?? tooLong.description
            } else {
                switch Self.readAll(descriptor, limit: limit) {
                case .failure(let reason):
                    refusal = "the daemon cannot read the file: \(reason)"
                case .success(let read):
                    bytes = read
                    var after = stat()
                    guard fstat(descriptor, &after) == 0, Self.isSameFile(after, file), bytes.count == after.st_size
                    else { return false }  // Written to while read: it must settle again.
                }
            }
        }
        let stamp = Self.stamp(file)
        let digest = SHA256Digest.hex(of: bytes)
        let holder = runner.configuration.holder
        if let record = try SourceStore.file(name, stamp: stamp, digest: digest, of: source.id, on: connection) {
            // Dealt with before a restart, but not moved: move it now, and only that.
            move(
                name, file: file, stamp: stamp, failure: record.isSuccess ? nil : record.error ?? "refused",
                on: connection)
            return true
        }
        if refusal == nil {
            do {
                let outcome = try SourceIngest.ingest(
                    bytes, digest: digest, source: source, holder: holder, commit: nil,
                    presence: runner.configuration.presence, on: connection
                ) {
                    locked, run, isRepeat in
                    try SourceStore.recordFile(
                        name, stamp: stamp, digest: digest, of: locked.id, scanRun: run.id, error: nil,
                        on: connection)
                    let text = "\(name): run \(run.number)" + (isRepeat ? " (the same document as before)" : "")
                    try SourceStore.recordRun(
                        locked, SourceRunOutcome(isSuccess: true, scanRun: run.id, text: text, nextRunDelay: 0),
                        on: connection)
                }
                runner.logger.log(
                    .info, "inbox file ingested",
                    fieldList: SourceIngest.logFields(outcome, after: [("source", String(source.id)), ("file", name)]))
                move(name, file: file, stamp: stamp, failure: nil, on: connection)
                return true
            } catch is SourceIngest.LeaseLost {
                return false
            } catch {
                guard let message = runner.configuration.refusal(error) else { throw error }
                refusal = message
            }
        }
        let message = refusal ?? "refused"
        do {
            try SourceIngest.recordFailure(of: source, holder: holder, on: connection) { _ in
                SourceRunOutcome(isSuccess: false, text: "\(name): \(message)", nextRunDelay: 0)
            } also: { locked in
                try SourceStore.recordFile(
                    name, stamp: stamp, digest: digest, of: locked.id, scanRun: nil, error: message, on: connection)
            }
        } catch is SourceIngest.LeaseLost {
            return false
        }
        runner.logger.info("inbox file refused", ["source": String(source.id), "file": name, "error": message])
        move(name, file: file, stamp: stamp, failure: message, on: connection)
        return true
    }

    /// Reads the whole file, at most `limit` bytes, or says why it could not.
    private static func readAll(_ descriptor: Int32, limit: Int) -> Result<[UInt8], ReadFailure> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(ReadFailure(errorText())) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(bytes)
    }

    private struct ReadFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Moving a file away

    /// Moves the file to `done/`, or to `failed/` with `NAME.error` beside it (written first, so whoever sees the
    /// file there can read why), and notes in the ledger that it left. A name already taken there gets a number:
    /// `scan-2.json`.
    ///
    /// Only the file that was read moves: if another file took its name meanwhile (the same name dropped again),
    /// that one stays for a run of its own. `done/` and `failed/` must be real directories, never symbolic links,
    /// and nothing in them is ever replaced.
    private func move(
        _ name: String,
        file: stat,
        stamp: String,
        failure: String?,
        on connection: PostgresConnection
    ) {
        let folderName = failure == nil ? Self.doneDirectory : Self.failedDirectory
        let folder = directory + "/" + folderName
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            runner.logger.warning(
                "cannot make an inbox folder", ["folder": folder, "error": errorText()])
            return
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folderDescriptor >= 0 else {
            let reason = errno == ELOOP || errno == ENOTDIR ? "not a directory" : errorText()
            runner.logger.warning("cannot use an inbox folder", ["folder": folder, "error": reason])
            // Nothing more is taken until the next rescan looks at the folders again.
            areFoldersUsable = false
            nextRescan = min(nextRescan, .now + runner.configuration.rescan)
            try? problem("\(folder) cannot take files (\(reason)): they stay in the inbox", on: connection)
            return
        }
        defer { close(folderDescriptor) }
        let path = directory + "/" + name
        for _ in 0..<8 {
            var current = stat()
            guard lstat(path, &current) == 0, Self.isSameFile(current, file) else {
                runner.logger.info(
                    "inbox file replaced while it was taken; the new one is taken on its own",
                    ["source": String(source.id), "file": name])
                try? SourceStore.fileMoved(name, stamp: stamp, of: source.id, on: connection)
                return
            }
            let target = Self.freeName(for: name) { candidate in
                var info = stat()
                return fstatat(folderDescriptor, candidate, &info, AT_SYMLINK_NOFOLLOW) != 0
                    && fstatat(folderDescriptor, candidate + ".error", &info, AT_SYMLINK_NOFOLLOW) != 0
            }
            if let failure, !writeError(failure, as: target + ".error", in: folderDescriptor) {
                if errno == EEXIST { continue }
                runner.logger.warning(
                    "cannot write an inbox error file",
                    ["folder": folder, "file": target, "error": errorText()])
                return
            }
            // The .error file written for a move that did not happen goes too.
            func withdrawError() { if failure != nil { unlinkat(folderDescriptor, target + ".error", 0) } }
            guard barkeep_rename_noreplace(AT_FDCWD, path, folderDescriptor, target) == 0 else {
                let reason = errno
                withdrawError()
                if reason == EEXIST { continue }
                runner.logger.warning(
                    "cannot move an inbox file",
                    ["file": name, "folder": folder, "error": errorText(reason)])
                return
            }
            // A file that took the name between the look and the rename went instead: put it back, it is not ours.
            var moved = stat()
            if fstatat(folderDescriptor, target, &moved, AT_SYMLINK_NOFOLLOW) == 0
                && !Self.isSameFile(moved, file)
            {
                putBack(target, from: folderDescriptor, as: name)
                withdrawError()
                continue
            }
            try? SourceStore.fileMoved(name, stamp: stamp, of: source.id, on: connection)
            return
        }
    }

    /// Returns a file moved away by mistake (dropped under the name being moved) to the inbox: under its name, or
    /// under a free one if yet another file took that meanwhile.
    private func putBack(_ target: String, from folder: Int32, as name: String) {
        if barkeep_rename_noreplace(folder, target, AT_FDCWD, directory + "/" + name) == 0 { return }
        let free = Self.freeName(for: name) { candidate in
            var info = stat()
            return lstat(directory + "/" + candidate, &info) != 0
        }
        if barkeep_rename_noreplace(folder, target, AT_FDCWD, directory + "/" + free) != 0 {
            runner.logger.warning(
                "cannot return a file dropped during a move to the inbox",
                ["source": String(source.id), "file": target, "error": errorText()])
        }
    }

    /// Writes `text` and a newline to the new file `name` in the directory `folder`, which must not exist.
    private func writeError(_ text: String, as name: String, in folder: Int32) -> Bool {
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array((text + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// The longest name, in bytes, given to a file moved away, so that its `.error` file's name fits in NAME_MAX.
    static let longestMovedName = 240

    /// `name`, or `stem-N.ext` with the first N from 2 for which `isFree` holds. A name too long to take `-N` and
    /// `.error` within NAME_MAX has its stem shortened first.
    static func freeName(for name: String, isFree: (String) -> Bool) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        var stem = dot.map { String(name[..<$0]) } ?? name
        var suffix = dot.map { String(name[$0...]) } ?? ""
        if suffix.utf8.count > 16 {
            stem = name
            suffix = ""
        }
        var base = stem + suffix
        while base.utf8.count > longestMovedName && !stem.isEmpty {
            stem.removeLast()
            base = stem + suffix
        }
        if isFree(base) { return base }
        var number = 2
        while !isFree("\(stem)-\(number)\(suffix)") { number += 1 }
        return "\(stem)-\(number)\(suffix)"
    }
}
