import BarkeepCore
import BarkeepProtocol
import BarkeepStore
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
    private var nextRescan = ContinuousClock.now

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
        [tracker.nextDeadline(), nextRescan].compactMap { $0 }.min()
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

    /// Rescans when due, then deals with every complete file, by name.
    func process(on connection: PostgresConnection, now: ContinuousClock.Instant) throws {
        if now >= nextRescan { try rescan(on: connection, now: now) }
        guard isWatched else { return }
        for name in tracker.completeFiles(at: now) {
            guard runner.mayGoOn(source.id) else { return }
            // One more look: a file written again since its last event must settle again.
            guard let look = look(at: name) else {
                tracker.forget(name)
                continue
            }
            tracker.observe(look.observation, at: now)
            guard tracker.completeFiles(at: now).contains(name) else { continue }
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
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return Look(
            observation: InboxTracker.Observation(name: name, size: Int64(info.st_size), modified: modified),
            stamp: "\(info.st_ino):\(modified):\(info.st_size)"
        )
    }

    /// Watches the folder (first, so nothing written meanwhile is missed), then lists it whole. A folder that cannot
    /// be watched or read is the source's last error until it can.
    private func rescan(on connection: PostgresConnection, now: ContinuousClock.Instant) throws {
        nextRescan = now + runner.configuration.rescan
        if source.isRunRequested {
            try SourceStore.reschedule(source.id, holder: runner.configuration.holder, delaySeconds: 0, on: connection)
            source.isRunRequested = false
        }
        if !isWatched {
            do {
                try runner.watcher.watch(directory)
                isWatched = true
            } catch {
                try problem("cannot watch the inbox: \(error)", on: connection)
                return
            }
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            runner.watcher.unwatch(directory)
            isWatched = false
            try problem("cannot read the inbox \(directory): \(error.localizedDescription)", on: connection)
            return
        }
        var present: Set<String> = []
        for name in names {
            guard let look = look(at: name) else { continue }
            present.insert(name)
            tracker.observe(look.observation, at: now)
        }
        tracker.keepOnly(present)
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
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return true }  // Gone (moved away by someone else): forget it.
        defer { close(descriptor) }
        var before = stat()
        guard fstat(descriptor, &before) == 0, (before.st_mode & S_IFMT) == S_IFREG else { return true }
        let limit = runner.configuration.maximumUpload
        let stamp = Self.look(name, before).stamp
        var bytes: [UInt8] = []
        var refusal: String?
        if Int(before.st_size) > limit {
            refusal =
                "the file is \(before.st_size) bytes, more than the daemon's upload limit of \(limit) bytes "
                + "(\(ErrorCode.tooLong.rawValue))"
        } else {
            guard let read = Self.readAll(descriptor, limit: limit) else {
                runner.logger.warning("cannot read an inbox file", ["source": String(source.id), "file": name])
                return false
            }
            bytes = read
            var after = stat()
            guard fstat(descriptor, &after) == 0, Self.look(name, after).stamp == stamp, bytes.count == after.st_size
            else { return false }  // Written to while read: it must settle again.
        }
        let digest = SHA256.hexDigest(of: bytes)
        let holder = runner.configuration.holder
        if let record = try SourceStore.file(name, stamp: stamp, of: source.id, on: connection) {
            // Dealt with before a restart, but not moved: move it now, and only that.
            move(name, failure: record.isSuccess ? nil : record.error ?? "refused")
            return true
        }
        if refusal == nil {
            do {
                _ = try SourceIngest.ingest(bytes, source: source, holder: holder, commit: nil, on: connection) {
                    locked, run, isRepeat in
                    try SourceStore.recordFile(
                        name, stamp: stamp, digest: digest, of: locked.id, scanRun: run.id, error: nil,
                        on: connection)
                    let text = "\(name): run \(run.id)" + (isRepeat ? " (the same document as before)" : "")
                    try SourceStore.recordRun(
                        locked, SourceRunOutcome(isSuccess: true, scanRun: run.id, text: text, nextRunDelay: 0),
                        on: connection)
                }
                runner.logger.info("inbox file ingested", ["source": String(source.id), "file": name])
                move(name, failure: nil)
                return true
            } catch is SourceIngest.LeaseLost {
                return false
            } catch {
                guard let message = SourceIngest.refusal(error) else { throw error }
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
        move(name, failure: message)
        return true
    }

    /// Reads the whole file, at most `limit` bytes; nil on a read error.
    private static func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Moves the file to `done/`, or to `failed/` with `NAME.error` beside it (written first, so whoever sees the
    /// file there can read why). A name already taken there gets a number: `scan-2.json`.
    private func move(_ name: String, failure: String?) {
        let folder = directory + "/" + (failure == nil ? Self.doneDirectory : Self.failedDirectory)
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            runner.logger.warning(
                "cannot make an inbox folder", ["folder": folder, "error": String(cString: strerror(errno))])
            return
        }
        let target = Self.freeName(for: name, in: folder)
        if let failure {
            let text = failure + "\n"
            guard FileManager.default.createFile(atPath: folder + "/" + target + ".error", contents: Data(text.utf8))
            else {
                runner.logger.warning("cannot write an inbox error file", ["folder": folder, "file": target])
                return
            }
        }
        if rename(directory + "/" + name, folder + "/" + target) != 0 {
            runner.logger.warning(
                "cannot move an inbox file",
                ["file": name, "folder": folder, "error": String(cString: strerror(errno))])
        }
    }

    /// `name`, or `stem-N.ext` with the first N from 2 that is free (with its `.error` too).
    static func freeName(for name: String, in folder: String) -> String {
        func isFree(_ candidate: String) -> Bool {
            var info = stat()
            return lstat(folder + "/" + candidate, &info) != 0 && lstat(folder + "/" + candidate + ".error", &info) != 0
        }
        if isFree(name) { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var number = 2
        while !isFree("\(stem)-\(number)\(suffix)") { number += 1 }
        return "\(stem)-\(number)\(suffix)"
    }
}
