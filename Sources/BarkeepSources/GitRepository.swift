import BarkeepCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A local git repository a sync source follows: the commit at a branch's head, and throwaway checkouts of it.
///
/// Runs the `git` program (the first on `environment`'s PATH, else /usr/bin/git) with `-C path`, never a prompt
/// (GIT_TERMINAL_PROMPT=0), each command in its own process group with a time limit (60 s, or the scanner's for a
/// checkout). Every call blocks its thread.
public struct GitRepository: Sendable {
    /// The repository's directory (a work tree or a bare repository), as the user configured it.
    public let path: String
    /// The environment git runs with, usually `ScannerCommand.environment(from:adding:)`'s.
    public let environment: [String: String]

    /// How long one git command may run: local commands only, so this is a bound on a wedged file system.
    public static let timeLimit: Duration = .seconds(60)
    /// Enough for any answer the daemon asks git for.
    static let outputLimit = 1 << 20

    /// Creates a handle; nothing is checked until a command runs.
    public init(path: String, environment: [String: String]) {
        self.path = path
        self.environment = environment
    }

    /// Whether `path` is inside a git repository (a work tree or a bare one) that git can read.
    public static func isRepository(_ path: String, environment: [String: String]) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return false
        }
        let outcome = GitRepository(path: path, environment: environment).git(["rev-parse", "--git-dir"])
        if case .finished = outcome { return true }
        return false
    }

    /// The full commit id (40 hex digits, 64 in a SHA-256 repository) at the head of the local branch `branch`.
    public func head(of branch: String) throws(SourceError) -> String {
        guard Self.isValidBranchName(branch) else {
            throw .git("\(ValueExcerpt.quoted(branch)) is not a valid branch name")
        }
        switch git(["rev-parse", "--verify", "--quiet", "refs/heads/\(branch)^{commit}"]) {
        case .finished(let output, _):
            let commit = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard Self.isCommitID(commit), commit.count == 40 || commit.count == 64 else {
                throw .git("git gave an unexpected answer for branch '\(branch)' of the repository \(path)")
            }
            return commit
        // --quiet: a missing ref exits 1 without a word; anything git does say is a real problem.
        case .failed(exitCode: 1, diagnostics: ""):
            throw .git("the repository \(path) has no branch '\(branch)'")
        case let outcome:
            throw .git(failure("cannot read branch '\(branch)' of the repository \(path)", outcome))
        }
    }

    /// The committer time of `commit` (`git show -s --format=%cI`).
    public func commitTime(of commit: String) throws(SourceError) -> Date {
        guard Self.isCommitID(commit) else { throw .git("\(ValueExcerpt.quoted(commit)) is not a commit id") }
        let outcome = git(["show", "-s", "--format=%cI", commit])
        guard case .finished(let output, _) = outcome else {
            throw .git(failure("cannot read the time of commit \(commit) of the repository \(path)", outcome))
        }
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let time = CommitTime.parse(text) else {
            throw .git("git gave an unexpected commit time for commit \(commit) of the repository \(path)")
        }
        return time
    }

    /// The files renamed between `base` and `commit`, as `git diff --name-status --find-renames -z --diff-filter=R`
    /// lists them: what pass 3 of the sync pairs findings across.
    public func renames(from base: String, to commit: String) throws(SourceError) -> FileRenames {
        guard Self.isCommitID(base), Self.isCommitID(commit) else {
            throw .git("\(ValueExcerpt.quoted(base)) or \(ValueExcerpt.quoted(commit)) is not a commit id")
        }
        let outcome = git(FileRenames.gitDiffArguments(from: base, to: commit))
        guard case .finished(let output, _) = outcome else {
            throw .git(failure("cannot list the files renamed between commits \(base) and \(commit)", outcome))
        }
        do {
            return try FileRenames.parse(nullTerminated: output)
        } catch {
            throw .git("git's list of the files renamed between commits \(base) and \(commit) was refused: \(error)")
        }
    }

    /// Checks `commit` out, detached, in a new linked work tree at `worktreePath` (which must not exist yet), within
    /// `timeLimit` (at least the 60 s of other commands: a large repository takes time to check out).
    ///
    /// Work trees whose directories have gone are forgotten first: a daemon killed during a scan leaves its work
    /// tree registered, and git refuses to add another at the same path until it is pruned.
    public func addWorktree(
        at worktreePath: String,
        commit: String,
        timeLimit: Duration = GitRepository.timeLimit
    ) throws(SourceError) {
        guard Self.isCommitID(commit) else { throw .git("\(ValueExcerpt.quoted(commit)) is not a commit id") }
        _ = git(["worktree", "prune"])
        // `--`: the path is data even when it starts with a dash.
        let outcome = git(
            ["worktree", "add", "--detach", "--", worktreePath, commit], timeLimit: max(timeLimit, Self.timeLimit))
        guard case .finished = outcome else {
            throw .git(failure("cannot check out commit \(commit) of the repository \(path)", outcome))
        }
    }

    /// Removes a work tree made by `addWorktree`, best effort: through git, then by deleting what is left, then by
    /// letting git forget a work tree whose directory has gone.
    public func removeWorktree(at worktreePath: String) {
        _ = git(["worktree", "remove", "--force", "--", worktreePath])
        if FileManager.default.fileExists(atPath: worktreePath) {
            try? FileManager.default.removeItem(atPath: worktreePath)
        }
        _ = git(["worktree", "prune"])
    }

    /// Whether `name` is safe to use as a branch name: not empty, at most 255 bytes, no spaces or control
    /// characters, none of `~ ^ : ? * [ \`, no `..`, `@{` or `//`, not starting with `-` or `/`, not ending with
    /// `/`, `.` or `.lock`, no component starting with `.`, and not `@`. Stricter than git where git is lax, so the
    /// name can never be read as an option or a revision expression.
    public static func isValidBranchName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255, name != "@" else { return false }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F && !"~^:?*[\\".utf8.contains($0) }) else { return false }
        for forbidden in ["..", "@{", "//"] where name.contains(forbidden) { return false }
        guard !name.hasPrefix("-"), !name.hasPrefix("/"), !name.hasSuffix("/"), !name.hasSuffix("."),
            !name.hasSuffix(".lock")
        else { return false }
        return !name.split(separator: "/").contains { $0.hasPrefix(".") || $0.hasSuffix(".lock") }
    }

    // MARK: - Running git

    /// What `rev-parse` prints (`LowercaseHex.isCommitID`), and never an option.
    static func isCommitID(_ text: String) -> Bool { LowercaseHex.isCommitID(text) }

    /// Runs `git -C path arguments…`.
    func git(_ arguments: [String], timeLimit: Duration = GitRepository.timeLimit) -> ScannerOutcome {
        var gitEnvironment = environment
        gitEnvironment["GIT_TERMINAL_PROMPT"] = "0"
        return ScannerProcess.run(
            arguments: [Self.executable(in: environment), "-C", path] + arguments,
            environment: gitEnvironment,
            workingDirectory: "/",
            timeLimit: timeLimit,
            outputLimit: Self.outputLimit,
            scratchDirectory: Self.scratchDirectory(in: environment),
            tick: { true }
        )
    }

    /// The first executable `git` on the environment's PATH, else /usr/bin/git.
    static func executable(in environment: [String: String]) -> String {
        for directory in environment["PATH", default: ""].split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/git"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return "/usr/bin/git"
    }

    /// Where the capture files of git's output go: the environment's TMPDIR, else /tmp.
    private static func scratchDirectory(in environment: [String: String]) -> String {
        let directory = environment["TMPDIR", default: ""]
        return directory.hasPrefix("/") ? directory : "/tmp"
    }

    /// `summary` and what git said, for a failed command.
    private func failure(_ summary: String, _ outcome: ScannerOutcome) -> String {
        switch outcome {
        case .failed(_, let diagnostics) where !diagnostics.isEmpty: "\(summary): \(diagnostics)"
        case .failed(let exitCode, _): "\(summary): git exited with status \(exitCode)"
        case .timedOut(let limit, let diagnostics):
            "\(summary): git ran longer than \(ScannerOutcome.describe(limit)) and was killed"
                + (diagnostics.isEmpty ? "" : ": \(diagnostics)")
        case .outputTooLarge: "\(summary): git's answer was unexpectedly large"
        case .cancelled: "\(summary): stopped"
        case .cannotStart(let reason): "\(summary): \(reason)"
        case .finished: summary
        }
    }
}
