import BarkeepCore
import BarkeepStore
import Foundation

/// One check of a repository source, on a thread of its own: reads the branch head, and when it moved (or a run
/// was asked for, or the last run failed) scans that commit in a throwaway worktree and ingests the output with
/// the commit and its committer time recorded on the run.
struct RepoScan {
    let source: Source
    let runner: SourceRunner
    /// Connected only when there is something to write: a scanner may run for hours, and a database connection
    /// held idle all that time would be one fewer for everything else.
    private let database: Database

    init(source: Source, runner: SourceRunner) {
        self.source = source
        self.runner = runner
        database = Database(configuration: runner.connectionConfiguration)
    }

    /// Deletes what scans of a daemon that died left in the work directory, and makes the directory if missing.
    /// The repositories forget those worktrees at their next `git worktree prune`.
    static func clearWorkDirectory(_ directory: String, isShared: Bool, logger: Logger) {
        let manager = FileManager.default
        do {
            // Traversable (not listable) when a scanner user must reach its worktree in it.
            let mode = isShared ? 0o711 : 0o700
            try manager.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
            chmod(directory, mode_t(mode))
            for name in try manager.contentsOfDirectory(atPath: directory) where name.hasPrefix("source-") {
                try manager.removeItem(atPath: directory + "/" + name)
            }
        } catch {
            logger.warning("cannot clear the sources' work directory", ["error": error.localizedDescription])
        }
    }

    /// Lets every user read the worktree (directories entered, files read; nothing written), whatever the daemon's
    /// umask made of it, for a scanner running as another user. Symbolic links are left as they are.
    static func makeReadable(_ worktree: String) {
        func widen(_ path: String) {
            var status = stat()
            guard lstat(path, &status) == 0 else { return }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: chmod(path, status.st_mode & 0o7777 | 0o555)
            case S_IFREG: chmod(path, status.st_mode & 0o7777 | (status.st_mode & 0o100 != 0 ? 0o555 : 0o444))
            default: break
            }
        }
        widen(worktree)
        guard let enumerator = FileManager.default.enumerator(atPath: worktree) else { return }
        while let relative = enumerator.nextObject() as? String { widen(worktree + "/" + relative) }
    }

    func run() {
        let logger = runner.logger.with(["source": String(source.id)])
        defer { database.close() }
        do {
            try check(logger: logger)
        } catch is SourceIngest.LeaseLost {
            logger.info("scan not recorded: the source is no longer held here")
        } catch {
            // Not recorded: the source is still due, and the next claim starts the scan again.
            logger.warning("scan not recorded", ["error": "\(error)"])
        }
    }

    private var configuration: SourceRunner.Configuration { runner.configuration }
    private var every: Int { source.settings.everySeconds ?? 600 }
    /// The runs asked for that this scan answers: those asked for before it started.
    private var answered: Date? { source.isRunRequested ? source.nextRunAt : nil }

    /// A database connection opened on first use.
    final class Database {
        let configuration: PostgresConfiguration
        private var opened: PostgresConnection?

        init(configuration: PostgresConfiguration) { self.configuration = configuration }

        var connection: PostgresConnection {
            get throws {
                if let opened { return opened }
                let connection = try PostgresConnection(configuration: configuration)
                opened = connection
                return connection
            }
        }

        func close() { opened?.close() }
    }

    private func check(logger: Logger) throws {
        let settings = source.settings
        guard let path = settings.repo, let branch = settings.branch, let scanner = settings.scanner else { return }
        let environment = ScannerCommand.environment(from: configuration.environment, adding: [:])
        let repository = GitRepository(path: path, environment: environment)
        let commit: String
        do {
            commit = try repository.head(of: branch)
        } catch {
            try fail(error.description, commit: nil)
            return
        }
        if commit == source.lastCommit && source.lastOutcome == .ok && !source.isRunRequested {
            try SourceStore.reschedule(
                source.id, holder: configuration.holder, delaySeconds: every, answersRequestsUntil: nil,
                on: try database.connection)
            return
        }
        let short = String(commit.prefix(12))
        let commitTime: Date
        do {
            commitTime = try repository.commitTime(of: commit)
        } catch {
            try fail("commit \(short): \(error)", commit: commit)
            return
        }
        // The files renamed since the commit the source read last, for pass 3 of the sync: without them a finding in
        // a renamed file would be fixed and new. Git failing to tell costs the pairing, not the run.
        var renames = FileRenames()
        if let last = source.lastCommit, last != commit {
            do {
                renames = try repository.renames(from: last, to: commit)
            } catch {
                runner.logger.warning(
                    "no renames", ["source": String(source.id), "commit": commit, "error": error.description])
            }
        }
        let base = configuration.workDirectory + "/source-\(source.id)"
        let worktree = base + "-\(short)"
        let scratch = base + "-scratch"
        let manager = FileManager.default
        try? manager.removeItem(atPath: worktree)
        try? manager.removeItem(atPath: scratch)
        defer { try? manager.removeItem(atPath: scratch) }
        do {
            try manager.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try repository.addWorktree(
                at: worktree, commit: commit, timeLimit: .seconds(source.settings.timeoutSeconds ?? 600))
        } catch let error as SourceError {
            try fail("commit \(short): \(error)", commit: commit)
            return
        }
        defer { repository.removeWorktree(at: worktree) }
        if configuration.scannerUser != nil { Self.makeReadable(worktree) }
        logger.info("scanning", ["commit": commit])
        let invocation = ScannerInvocation(
            command: ScannerCommand.expand(scanner, root: worktree),
            workingDirectory: worktree,
            environment: ScannerCommand.environment(
                from: configuration.environment,
                adding: [
                    "BARKEEP_COMMIT": commit, "BARKEEP_BRANCH": branch, "BARKEEP_PROJECT": source.project,
                    "BARKEEP_ROOT": worktree, "BARKEEP_SOURCE": String(source.id),
                ]),
            timeLimit: .seconds(source.settings.timeoutSeconds ?? 600),
            // Output past the daemon's upload limit would be refused anyway: stop the scanner there.
            outputLimit: min(source.settings.maximumOutput ?? 64 << 20, configuration.maximumUpload),
            scratchDirectory: scratch,
            user: configuration.scannerUser
        )
        let outcome = ScannerProcess.run(invocation) { runner.mayGoOn(source.id) }
        switch outcome {
        case .finished(let output, _):
            let connection = try database.connection
            do {
                // A run asked for by hand is forced: the same head scanned again (its output may differ, a
                // timestamp in it, or the scanner changed), or a branch moved back on purpose. Left alone, a scan
                // of a commit already ingested, or older than the latest run's, is refused like an upload's.
                let outcome = try SourceIngest.ingest(
                    output, source: source, holder: configuration.holder, commit: commit, commitTime: commitTime,
                    isForced: source.isRunRequested, renames: renames, presence: configuration.presence,
                    on: connection
                ) { locked, run, isRepeat in
                    let text = "commit \(short): run \(run.number)" + (isRepeat ? " (the same output as before)" : "")
                    try SourceStore.recordRun(
                        locked,
                        SourceRunOutcome(
                            isSuccess: true, scanRun: run.id, commit: commit, text: text, nextRunDelay: every,
                            answersRequestsUntil: answered),
                        on: connection)
                }
                logger.log(
                    .info, "scan ingested", fieldList: SourceIngest.logFields(outcome, after: [("commit", commit)]))
            } catch {
                guard let refusal = configuration.refusal(error) else { throw error }
                try fail("commit \(short): \(refusal)", commit: commit)
            }
        case .cancelled:
            logger.info("scan stopped: the source was paused, given up or the daemon is stopping")
        default:
            try fail("commit \(short): \(outcome)", commit: commit)
        }
    }

    /// Records a failed run; the next is due after the backoff for one more failure in a row.
    private func fail(_ message: String, commit: String?) throws {
        runner.logger.warning("scan failed", ["source": String(source.id), "error": message])
        try SourceIngest.recordFailure(of: source, holder: configuration.holder, on: try database.connection) {
            locked in
            SourceRunOutcome(
                isSuccess: false, commit: commit, text: message,
                nextRunDelay: SourceSchedule.delay(every: every, failures: locked.failures + 1),
                answersRequestsUntil: answered)
        }
    }
}
