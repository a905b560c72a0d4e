import BarkeepCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the first `git` on PATH in the current directory, for what the CLI asks of the repository it runs in (a
/// commit's time, the files renamed between two commits). Git never prompts (`GIT_TERMINAL_PROMPT=0`), reads nothing
/// from standard input, and what it says on standard error is dropped: every failure is nil, and the caller decides
/// whether to mention it.
enum GitCommand {
    /// Git's standard output for `arguments`, or nil when there is no git, it could not start, or it did not exit 0.
    static func output(_ arguments: [String], environment: [String: String]) -> Data? {
        guard let git = executable(in: environment) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = arguments
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
        // Read to the end before waiting: git blocks on a full pipe otherwise.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return data
    }

    /// Whether the current directory is inside a git work tree (and git is there to say so).
    static func isInsideWorkTree(environment: [String: String]) -> Bool {
        guard let data = output(["rev-parse", "--is-inside-work-tree"], environment: environment) else { return false }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "true"
    }

    /// The full id of the commit `revision` names in this repository (`HEAD`, a commit id), or nil when it names
    /// none here.
    static func commit(_ revision: String, environment: [String: String]) -> String? {
        guard
            let data = output(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], environment: environment)
        else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return isCommitID(text) ? text : nil
    }

    /// Whether `text` is a commit id git may be given as a revision (`LowercaseHex.isCommitID`), in either case: a
    /// person may type one in capitals.
    static func isCommitID(_ text: String) -> Bool { LowercaseHex.isCommitID(text.lowercased()) }

    /// The first executable `git` on the environment's PATH.
    private static func executable(in environment: [String: String]) -> String? {
        for directory in environment["PATH", default: ""].split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/git"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
