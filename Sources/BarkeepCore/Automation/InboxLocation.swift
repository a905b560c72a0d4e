/// Where an inbox may be. An inbox source reads and moves away (to `done/` and `failed/`) the files put in its
/// directory, with the daemon's privileges: a system directory, a home's configuration, a data directory of any
/// barkeepd or PostgreSQL cluster (a daemon's lock file among its files), or a directory someone else owns would let
/// whoever may add a source consume or expose files that are not scans, or stop a daemon. The rules are here, pure;
/// BarkeepSources' InboxGuard looks at the file system (symbolic links resolved first) and applies them, when a
/// source is added and again whenever it runs. docs/sources.md lists them.
public enum InboxLocation {
    /// Trees an inbox may neither be nor be inside: the operating system's own, where packages, boot files,
    /// devices, services' state and backups live.
    public static let systemTrees = [
        "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev", "/proc", "/sys",
        "/run", "/snap", "/lost+found", "/var/run", "/var/lib", "/var/backups", "/var/log", "/var/spool", "/var/cache",
        "/var/mail",
    ]

    /// Directories that may hold an inbox but not be one: the root and the places shared by everyone. The daemon
    /// user's home directories are such places too.
    public static let sharedDirectories = [
        "/", "/home", "/root", "/tmp", "/var", "/var/tmp", "/var/opt", "/var/local", "/srv", "/opt", "/mnt", "/media",
    ]

    /// The most directories an inbox may hold, at every depth: an inbox is a folder of its own that scans are dropped
    /// in (with its `done/` and `failed/`), and a larger tree cannot be searched for data directories at every run.
    public static let maximumDirectories = 1000

    /// Why `path` (absolute, symbolic links resolved) cannot be an inbox by where it is, or nil when it may: a
    /// shared directory or a home itself, in a system tree, in a configuration directory of a home (any directory
    /// whose name starts with a dot, right in the home: `.config`, `.ssh`, …), in or above a `protected` directory
    /// (the daemon's own data directory), or a directory whose owner `ownerUID` is not the daemon's user `daemonUID`.
    /// `homes`: the daemon user's home directories (`$HOME`, and the one the user database names).
    public static func problem(
        path: String,
        ownerUID: UInt32,
        daemonUID: UInt32,
        homes: [String],
        protected: [String]
    ) -> String? {
        if sharedDirectories.contains(path) { return "the inbox \(path) is a directory shared by the whole system" }
        if homes.contains(path) { return "the inbox \(path) is the daemon user's home directory" }
        if let system = systemTrees.first(where: { isWithin(path, $0) }) {
            return "the inbox \(path) is in the system directory \(system)"
        }
        for home in homes where home != "/" && path.hasPrefix(home + "/.") {
            let hidden = home + "/" + String(path.dropFirst(home.count + 1).prefix { $0 != "/" })
            return "the inbox \(path) is in \(hidden), a configuration directory of the daemon user's home"
        }
        if let own = protected.first(where: { isWithin(path, $0) }) {
            return "the inbox \(path) is in the daemon's data directory \(own)"
        }
        if let own = protected.first(where: { isWithin($0, path) }) {
            return "the inbox \(path) holds the daemon's data directory \(own)"
        }
        if ownerUID != daemonUID {
            return "the inbox \(path) belongs to uid \(ownerUID), not to the daemon's user (uid \(daemonUID))"
        }
        return nil
    }

    /// The refusal of `inbox` when `directory` (the inbox itself, a directory above it or one below it) holds
    /// `marker`, one of `DataDirectory.markers`.
    public static func dataDirectoryProblem(inbox: String, directory: String, marker: String) -> String {
        let what =
            marker == DataDirectory.lockFileName || marker.hasPrefix(DataDirectory.clusterDirectoryName + "/")
            ? "a data directory of barkeepd" : "a PostgreSQL cluster's directory"
        let place =
            directory == inbox ? "is" : isWithin(inbox, directory) ? "is in" : "holds"
        return "the inbox \(inbox) \(place) \(what): \(directory) has \(marker)"
    }

    /// The refusal of `inbox` when it holds more than `maximumDirectories` directories.
    public static func tooManyDirectoriesProblem(inbox: String) -> String {
        "the inbox \(inbox) holds more than \(maximumDirectories) directories: an inbox is a directory of its own "
            + "that scans are dropped in"
    }

    /// Whether `path` is `directory` or inside it (both absolute, without a trailing slash but for `/`).
    public static func isWithin(_ path: String, _ directory: String) -> Bool {
        path == directory || path.hasPrefix(directory == "/" ? "/" : directory + "/")
    }
}
