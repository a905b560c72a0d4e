/// Failures of a sync source's I/O: watching a drop folder, asking git, a dropped file too large to read. (A scanner's own failures are a
/// `ScannerOutcome`.)
///
/// The message is user-facing — it becomes the source's last error in `barkeep source show` — so it names only
/// paths, branches and commands the user configured, never the daemon's own scratch or worktree paths.
public enum SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The inotify watch of a drop folder could not be set up (missing directory, no permission, the system's watch
    /// limit reached).
    case watch(String)
    /// A git command failed or gave an answer the daemon cannot use (no such branch, not a repository, a checkout
    /// that could not be made); the message carries git's own error when there is one.
    case git(String)
    /// A dropped file is larger than the daemon's upload limit: refused like an upload past it.
    case tooLong(String)

    /// The message alone: each case's text is already a complete sentence fragment for the user.
    public var description: String {
        switch self {
        case .watch(let message), .git(let message), .tooLong(let message): message
        }
    }
}
