import BarkeepCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a commit's committer time from the git repository the CLI runs in, for `barkeep ingest --commit`.
///
/// Runs `git show -s --format=%cI COMMIT` (the first `git` on PATH) in the current directory. Every failure is
/// quiet and gives nil — no git, not a repository, an unknown commit, an answer that is not a time —: the
/// upload then goes without a commit time, as before this existed.
enum CommitTimeLookup {
    /// The committer time of `commit` as git prints it (`2026-11-30T10:00:00+01:00`), or nil when git cannot tell.
    static func committerTime(of commit: String, environment: [String: String]) -> String? {
        // Only a commit id goes to git: never something it could read as an option or a revision expression.
        guard (4...64).contains(commit.utf8.count), commit.allSatisfy(\.isHexDigit),
            let git = executable(in: environment)
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["show", "-s", "--format=%cI", commit]
        var gitEnvironment = environment
        gitEnvironment["GIT_TERMINAL_PROMPT"] = "0"
        process.environment = gitEnvironment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        // One short line: reading to the end cannot fill the pipe and block git.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return CommitTime.parse(text) == nil ? nil : text
    }

    /// The first executable `git` on the environment's PATH.
    private static func executable(in environment: [String: String]) -> String? {
        for directory in environment["PATH", default: ""].split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/git"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
