import BarkeepCore
import Foundation

/// Reads a commit's committer time from the git repository the CLI runs in, for `barkeep ingest --commit`.
///
/// Runs `git show -s --format=%cI COMMIT` (`GitCommand`). Every failure is quiet and gives nil — no git, not a
/// repository, an unknown commit, an answer that is not a time —: the upload then goes without a commit time, as
/// before this existed.
enum CommitTimeLookup {
    /// The committer time of `commit` as git prints it (`2026-11-30T10:00:00+01:00`), or nil when git cannot tell.
    static func committerTime(of commit: String, environment: [String: String]) -> String? {
        guard GitCommand.isCommitID(commit),
            let data = GitCommand.output(["show", "-s", "--format=%cI", commit], environment: environment)
        else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return CommitTime.parse(text) == nil ? nil : text
    }
}
