/// The layout of a barkeepd data directory, in one place: the daemon lays it out by these names, and the checks that
/// keep an inbox out of any data directory (InboxLocation) look for them.
public enum DataDirectory {
    /// The lock file a running daemon holds (flock) and writes its pid in.
    public static let lockFileName = "barkeepd.lock"
    /// The embedded PostgreSQL cluster's directory (PGDATA) inside the data directory.
    public static let clusterDirectoryName = "pg"
    /// The file every PostgreSQL cluster directory holds (initdb writes it first).
    public static let clusterVersionFileName = "PG_VERSION"
    /// The file a running postmaster keeps in its cluster directory.
    public static let postmasterFileName = "postmaster.pid"

    /// The files whose presence in a directory makes it a data directory: of a barkeepd (its lock, its cluster) or of
    /// any PostgreSQL cluster. Paths relative to the directory.
    public static let markers = [
        lockFileName, clusterDirectoryName + "/" + clusterVersionFileName, clusterVersionFileName, postmasterFileName,
    ]
}
