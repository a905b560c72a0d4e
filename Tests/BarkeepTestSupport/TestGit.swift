import Foundation

/// Git as a test drives it: `/usr/bin/git -C REPOSITORY` with a test author, for repositories a test makes.
public enum TestGit {
    /// Runs git in `repository` and returns its standard output, trimmed; a failure throws with git's error.
    @discardableResult
    public static func run(
        _ repository: String, _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        let result = try Subprocess.run(
            "/usr/bin/git",
            ["-C", repository, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments,
            environment: environment)
        guard result.status == 0 else { throw TestSupportError("git \(arguments): \(result.error)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
