/// Where an inbox may be. An inbox source reads and deletes the files put in its directory, with the daemon's
/// privileges: a system directory, the daemon's own data (its database cluster among it) or a directory someone
/// else owns would let whoever may add a source consume or expose files that are not scans.
public enum InboxLocation {
    /// Directories that may hold neither an inbox nor be one: the operating system's own.
    public static let systemDirectories = [
        "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev", "/proc", "/sys",
        "/run", "/var/run", "/var/lib/postgresql", "/var/lib/pgsql", "/var/log", "/var/spool", "/var/cache",
    ]

    /// Directories that may hold an inbox but not be one: the root and the places shared by everyone.
    public static let sharedDirectories = [
        "/", "/home", "/root", "/tmp", "/var", "/var/lib", "/var/tmp", "/srv", "/opt", "/mnt", "/media",
    ]

    /// Why `path` (absolute, symbolic links resolved) cannot be an inbox, or nil when it may: a system directory or
    /// inside one, a shared directory itself, one of `protected` (the data directory) or inside it, or a directory
    /// whose owner `ownerUID` is not the daemon's user `daemonUID`.
    public static func problem(path: String, ownerUID: UInt32, daemonUID: UInt32, protected: [String]) -> String? {
        func isWithin(_ directory: String) -> Bool {
            path == directory || path.hasPrefix(directory == "/" ? "/" : directory + "/")
        }
        if sharedDirectories.contains(path) { return "the inbox \(path) is a directory shared by the whole system" }
        if let system = systemDirectories.first(where: isWithin) {
            return "the inbox \(path) is in the system directory \(system)"
        }
        if let own = protected.first(where: isWithin) {
            return "the inbox \(path) is in the daemon's data directory \(own)"
        }
        if ownerUID != daemonUID {
            return "the inbox \(path) belongs to uid \(ownerUID), not to the daemon's user (uid \(daemonUID))"
        }
        return nil
    }
}
