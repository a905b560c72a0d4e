import BarkeepCore
import BarkeepHashing
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private PostgreSQL cluster in a directory: created on first use, started and stopped by its owner, reachable
/// only through a Unix socket.
///
/// The daemon's embedded database and the test suite's throwaway server are both one of these. When the process
/// runs as root, every server program runs as the `postgres` user (PostgreSQL refuses root), and the directories
/// it writes are handed to that user.
///
/// Thread-safety: none; create, start and stop it from one thread.
public final class PostgresCluster {
    /// How the cluster is laid out and tuned.
    public struct Options: Sendable {
        /// PGDATA: the cluster's own files.
        public var dataDirectory: String
        /// Where the server puts its socket; nil: the data directory itself, unless that path is too long for a
        /// socket address, in which case a private directory under the system's temporary directory.
        public var socketDirectory: String?
        /// The port number, which names the socket file (`.s.PGSQL.PORT`); nothing listens on TCP.
        public var port: Int = 5432
        /// The superuser that initdb creates and Barkeep connects as.
        public var superuser = "barkeep"
        /// Throwaway clusters (tests) skip every fsync: fast, and lost on a crash.
        public var isEphemeral = false

        /// Options for a cluster in `dataDirectory`.
        public init(dataDirectory: String, socketDirectory: String? = nil, isEphemeral: Bool = false) {
            self.dataDirectory = dataDirectory
            self.socketDirectory = socketDirectory
            self.isEphemeral = isEphemeral
        }
    }

    /// The server programs in use.
    public let binaries: PostgresBinaries
    /// The layout and tuning.
    public let options: Options
    /// The directory holding the server's socket.
    public let socketDirectory: String
    private let logger: Logger?
    private let serverUser: String?

    /// Prepares to manage the cluster; nothing is created or started yet.
    public init(binaries: PostgresBinaries, options: Options, logger: Logger? = nil) throws {
        self.binaries = binaries
        self.options = options
        self.logger = logger
        self.serverUser = geteuid() == 0 ? "postgres" : nil
        self.socketDirectory = options.socketDirectory ?? Self.defaultSocketDirectory(for: options)
    }

    /// How to connect to database `database` of this cluster.
    public func configuration(database: String = "postgres") -> PostgresConfiguration {
        PostgresConfiguration(
            conninfo: conninfo(socketDirectory: socketDirectory, port: options.port), database: database)
    }

    /// The connection string for the superuser on the socket `port` in `socketDirectory`.
    private func conninfo(socketDirectory: String, port: Int) -> String {
        "host=\(Self.quoteConninfo(socketDirectory)) port=\(port) user=\(Self.quoteConninfo(options.superuser))"
    }

    /// The server's log file.
    public var logFile: String { options.dataDirectory + "/server.log" }

    // MARK: - Life cycle

    /// Runs initdb when the data directory holds no cluster yet. Returns whether it created one.
    @discardableResult
    public func initializeIfNeeded() throws -> Bool {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: options.dataDirectory + "/PG_VERSION") { return false }
        if let contents = try? fileManager.contentsOfDirectory(atPath: options.dataDirectory), !contents.isEmpty {
            throw StoreError.cluster(
                "\(options.dataDirectory) is not empty but holds no PostgreSQL cluster; move it away or choose "
                    + "another data directory"
            )
        }
        try makePrivateDirectory(options.dataDirectory)
        try checkServerUserCanReach(options.dataDirectory)
        logger?.info("creating embedded PostgreSQL cluster", ["dir": options.dataDirectory])
        var arguments = [
            "-D", options.dataDirectory, "-U", options.superuser, "--auth-local=trust", "--auth-host=reject",
            "--encoding=UTF8", "--no-locale",
            "--no-instructions",
        ]
        if options.isEphemeral { arguments.append("--no-sync") }
        let output = try CommandRunner.run(binaries.initdb, arguments, as: serverUser)
        guard output.status == 0 else {
            throw StoreError.cluster("initdb failed in \(options.dataDirectory): \(output.summary)")
        }
        return true
    }

    /// The setting, on the postmaster's command line, that marks which process started it: `barkeep.owner=` and
    /// that process's `ProcessRecord.mark`. A custom setting PostgreSQL keeps as a placeholder and ignores.
    static let ownerSetting = "barkeep.owner"

    /// Starts the server and waits until it accepts connections; its postmaster carries this process's mark
    /// (`ownerSetting`).
    ///
    /// A server already running on this data directory is stopped and started afresh with the current settings
    /// only when it is proven an orphan of an owner that died (`holder(ofPostmaster:owner:)` finds no live holder);
    /// otherwise the start fails, and the server is left alone. A `postmaster.pid` left by a crash whose process is
    /// gone is removed.
    public func start() throws {
        try checkServerUserCanReach(options.dataDirectory)
        try makePrivateDirectory(socketDirectory)
        switch postmasterState() {
        case .none, .dead, .unknown:
            // PostgreSQL itself handles a pid file whose process is gone, with its own shared-memory checks.
            try writeSettings()
        case .ours(let pid, let owner):
            if let holder = holder(ofPostmaster: pid, owner: owner) {
                throw StoreError.cluster(
                    "the PostgreSQL serving \(options.dataDirectory) (postmaster pid \(pid)) is not an orphan: "
                        + "\(holder); not stopping it. Is another barkeepd using this data directory? If none is, "
                        + "stop that server (pg_ctl stop -D \(options.dataDirectory) -m fast, as the user it runs as) "
                        + "and start again")
            }
            logger?.warning(
                "stopping an orphaned PostgreSQL left by an earlier run",
                ["dir": options.dataDirectory, "pid": String(pid)])
            try stop()
            try writeSettings()
        case .reused:
            // The recorded pid now belongs to another program (the machine restarted): PostgreSQL would refuse to
            // start while that program runs, and nothing of ours is running there.
            logger?.warning("removing a stale postmaster.pid whose pid was reused", ["dir": options.dataDirectory])
            try? FileManager.default.removeItem(atPath: options.dataDirectory + "/postmaster.pid")
            try writeSettings()
        }
        let mark = ProcessRecord.current.map { ["-o", "-c \(Self.ownerSetting)=\($0.mark)"] } ?? []
        // After a postmaster was killed, its children may hold the shared memory for a moment more; the new
        // postmaster refuses to start until they are gone, so that case is retried briefly.
        for attempt in 1...10 {
            let output = try CommandRunner.run(
                binaries.pgCtl,
                ["start", "-D", options.dataDirectory, "-w", "-t", "60", "-s", "-l", logFile] + mark,
                as: serverUser
            )
            if output.status == 0 { break }
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            let tail = log.split(separator: "\n").suffix(3).joined(separator: "; ")
            guard attempt < 10, tail.contains("pre-existing shared memory block") else {
                throw StoreError.cluster("PostgreSQL did not start: \(output.summary) \(tail)")
            }
            logger?.warning("old PostgreSQL processes still hold shared memory, retrying", ["attempt": "\(attempt)"])
            Thread.sleep(forTimeInterval: 1)
        }
        logger?.info("embedded PostgreSQL started", ["socket": socketDirectory])
    }

    /// Stops the server (fast shutdown: sessions are ended, nothing committed is lost) and waits for it to exit.
    /// A server another live process holds (`holder(ofPostmaster:owner:)`) is left running, and that is logged.
    public func stop() throws {
        guard isRunning() else { return }
        if case .ours(let pid, let owner) = postmasterState(), let holder = holder(ofPostmaster: pid, owner: owner) {
            logger?.warning(
                "leaving running a PostgreSQL this process did not start",
                ["dir": options.dataDirectory, "pid": String(pid), "holder": holder])
            return
        }
        let output = try CommandRunner.run(
            binaries.pgCtl,
            ["stop", "-D", options.dataDirectory, "-m", "fast", "-w", "-t", "60", "-s"],
            as: serverUser
        )
        guard output.status == 0 else { throw StoreError.cluster("PostgreSQL did not stop: \(output.summary)") }
        logger?.info("embedded PostgreSQL stopped", ["dir": options.dataDirectory])
    }

    /// What `postmaster.pid` says about the data directory.
    enum PostmasterState {
        /// No pid file.
        case none
        /// A pid file whose process is gone.
        case dead
        /// A live postmaster of this data directory: its pid, and the mark of the process that started it when its
        /// command line carries one (`ownerSetting`).
        case ours(pid_t, owner: String?)
        /// A live process that is not a postmaster of this data directory.
        case reused
        /// The pid file or the process could not be looked at (out of descriptors, no permission, a read error):
        /// nothing can be said, and nothing is to be done about it.
        case unknown
    }

    func postmasterState() -> PostmasterState {
        let pidFile = options.dataDirectory + "/postmaster.pid"
        let text: String
        switch Self.readSmallFile(pidFile) {
        case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
        case .failure(let error): return error.code == ENOENT ? .none : .unknown
        }
        guard let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }), pid > 0 else {
            // PostgreSQL writes the file whole before it serves; a partial file is one being written.
            return .unknown
        }
        guard kill(pid, 0) == 0 || errno == EPERM else { return errno == ESRCH ? .dead : .unknown }
        // Is it really a postgres serving this directory? Read its command line.
        let data: [UInt8]
        switch Self.readSmallFile("/proc/\(pid)/cmdline") {
        case .success(let bytes): data = bytes
        case .failure(let error): return error.code == ENOENT || error.code == ESRCH ? .dead : .unknown
        }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let program = words.first, program.hasSuffix("postgres"), let dash = words.firstIndex(of: "-D"),
            dash + 1 < words.count
        else { return .reused }
        let directory = URL(fileURLWithPath: words[dash + 1]).standardizedFileURL.path
        guard directory == URL(fileURLWithPath: options.dataDirectory).standardizedFileURL.path else { return .reused }
        let owner = words.first { $0.hasPrefix(Self.ownerSetting + "=") }?.dropFirst(Self.ownerSetting.count + 1)
        return .ours(pid, owner: owner.map(String.init))
    }

    /// Who, besides this process, holds the postmaster `pid` serving this data directory, in words; nil when no
    /// live process does and it is an orphan that may be stopped. Three looks, any one of which is enough:
    ///
    /// - the process that started it (its mark, `owner`) still runs and is not this one;
    /// - its parent is a barkeepd other than this one (a postmaster whose starter died has init, or the nearest
    ///   subreaper, as its parent);
    /// - barkeepd connections are open on its socket (a daemon's pool, its sources' and watchers' connections),
    ///   and stay open for a few seconds: those of a daemon that died end as soon as the kernel closes its sockets.
    ///
    /// The socket is the one its `postmaster.pid` names, not the one this process would choose. Only a socket file
    /// that is not there proves no connection; a server that cannot be asked (no connection slot left, a timeout, a
    /// refusal, a pid file that names no socket) is held.
    func holder(ofPostmaster pid: pid_t, owner: String?) -> String? {
        let current = ProcessRecord.current
        if let owner, let starter = ProcessRecord(mark: owner) {
            guard starter.mark != current?.mark else { return nil }  // Started by this process: its own to stop.
            return "it was started by \(starter), which still runs"
        }
        if let parent = ProcessRecord(pid: pid).flatMap({ ProcessRecord(pid: $0.parent) }), parent.pid != getpid(),
            parent.name == "barkeepd"
        {
            return "its parent is \(parent), which still runs"
        }
        let deadline = ContinuousClock.now + .seconds(3)
        while true {
            switch clientConnections() {
            case .notListening, .counted(0): return nil
            case .unknown(let reason):
                logger?.warning(
                    "cannot count the connections of a PostgreSQL this process did not start; leaving it running",
                    ["dir": options.dataDirectory, "pid": String(pid), "error": reason])
                return "its connections cannot be counted (\(reason))"
            case .counted(let connections):
                guard ContinuousClock.now < deadline else {
                    return "\(connections) barkeepd connection(s) are open on its socket"
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// What asking a running server for its barkeepd connections found.
    private enum ConnectionCount: Equatable {
        /// The client connections whose application name is a barkeepd's (the daemon's own are not open yet when
        /// it starts), this check's own left out.
        case counted(Int)
        /// No socket file where its `postmaster.pid` says it listens: no client can be connected through it.
        case notListening
        /// It could not be asked: why, in words.
        case unknown(String)
    }

    /// Asks the server this data directory's `postmaster.pid` describes, on the socket and port that file names
    /// (lines 5 and 4), for its barkeepd connections.
    private func clientConnections() -> ConnectionCount {
        let bytes: [UInt8]
        switch Self.readSmallFile(options.dataDirectory + "/postmaster.pid") {
        case .success(let read): bytes = read
        case .failure(let error) where error.code == ENOENT: return .notListening  // It stopped meanwhile.
        case .failure(let error): return .unknown("its postmaster.pid: \(String(cString: strerror(error.code)))")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 4, let port = Int(lines[3]), !lines[4].isEmpty else {
            return .unknown("its postmaster.pid names no socket yet")
        }
        // A relative socket directory is relative to the data directory, where the postmaster runs.
        let directory =
            lines[4].hasPrefix("/") ? String(lines[4]) : options.dataDirectory + "/" + String(lines[4])
        let socket = directory + "/.s.PGSQL.\(port)"
        var info = stat()
        if lstat(socket, &info) != 0 {
            return errno == ENOENT ? .notListening : .unknown("\(socket): \(String(cString: strerror(errno)))")
        }
        let check = PostgresConfiguration(
            conninfo: conninfo(socketDirectory: directory, port: port), database: "postgres",
            applicationName: PostgresConfiguration.daemonApplicationName(.clusterCheck), connectTimeoutSeconds: 2)
        do {
            let connection = try PostgresConnection(configuration: check)
            defer { connection.close() }
            let count = try connection.queryValue(
                """
                SELECT count(*)::int FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
                  AND starts_with(application_name, $2::text) AND application_name <> $1
                """,
                [check.applicationName, PostgresConfiguration.daemonApplicationPrefix], as: Int.self)
            return count.map { .counted($0) } ?? .unknown("pg_stat_activity gave no count")
        } catch {
            let message = "\(error)".split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            return .unknown(message.joined(separator: " "))
        }
    }

    /// What a supervisor polling the postmaster can tell: a cheap check of its pid file and /proc.
    public enum Liveness: Sendable, Equatable {
        /// This data directory's postmaster is alive.
        case alive
        /// No postmaster serves the data directory: no pid file, or one whose process is gone or is another program.
        case gone
        /// The check itself failed (out of descriptors, no permission): the postmaster may well be alive.
        case unknown
    }

    /// Whether this data directory's postmaster is alive, gone, or cannot be told.
    public var liveness: Liveness {
        switch postmasterState() {
        case .ours: .alive
        case .none, .dead, .reused: .gone
        case .unknown: .unknown
        }
    }

    /// A system call's error number.
    private struct ErrorNumber: Error {
        let code: Int32
    }

    /// A small file's bytes, or the error number that stopped reading it.
    private static func readSmallFile(_ path: String) -> Result<[UInt8], ErrorNumber> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ErrorNumber(code: errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ErrorNumber(code: errno))
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether a live server runs on this data directory (`pg_ctl status`).
    public func isRunning() -> Bool {
        guard FileManager.default.fileExists(atPath: options.dataDirectory + "/postmaster.pid") else { return false }
        let output = try? CommandRunner.run(binaries.pgCtl, ["status", "-D", options.dataDirectory], as: serverUser)
        return output?.status == 0
    }

    /// Creates a cluster in `directory/pg` unless there is one, starts it and creates `database` in it: a private
    /// server for a program that runs its own (the benchmarks). Stop it with `stop()`.
    public static func startPrivate(in directory: String, database: String) throws -> PostgresCluster {
        let cluster = try PostgresCluster(
            binaries: try PostgresBinaries.locate(), options: .init(dataDirectory: directory + "/pg"))
        try cluster.initializeIfNeeded()
        try cluster.start()
        try cluster.createDatabaseIfNeeded(database)
        return cluster
    }

    /// Creates `name` unless it exists. Returns whether it created it.
    @discardableResult
    public func createDatabaseIfNeeded(_ name: String) throws -> Bool {
        let connection = try PostgresConnection(configuration: configuration(database: "postgres"))
        defer { connection.close() }
        let exists = try connection.queryValue("SELECT 1 FROM pg_database WHERE datname = $1", [name], as: Int.self)
        guard exists == nil else { return false }
        // CREATE DATABASE takes no parameters; the name is quoted as an identifier.
        try connection.query("CREATE DATABASE " + Self.quoteIdentifier(name))
        return true
    }

    // MARK: - Files

    /// Barkeep's settings live in `barkeep.conf`, rewritten at every start; postgresql.conf includes it. The
    /// include is checked at every start too, so a crash right after initdb cannot leave a cluster without it.
    private func writeSettings() throws {
        let config = options.dataDirectory + "/postgresql.conf"
        let include = "include = 'barkeep.conf'"
        let current = (try? String(contentsOfFile: config, encoding: .utf8)) ?? ""
        if !current.split(separator: "\n").contains(where: { $0 == include }) {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: config))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n# Written by Barkeep.\n\(include)\n".utf8))
            try handle.close()
        }
        var settings = [
            "listen_addresses = ''",
            "unix_socket_directories = \(Self.quoteSetting(socketDirectory))",
            "unix_socket_permissions = 0700",
            "port = \(options.port)",
            // A scan's first import writes WAL by the hundred megabytes: with the default 4 MB of WAL buffers the
            // backend stops to write them out itself every few thousand rows.
            "wal_buffers = 32MB",
        ]
        if options.isEphemeral {
            settings += ["fsync = off", "synchronous_commit = off", "full_page_writes = off", "max_connections = 200"]
        }
        let path = options.dataDirectory + "/barkeep.conf"
        try Data((settings.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try handToServerUser(path)
    }

    /// Creates a directory only its owner can enter, owned by the server's user. One that exists must already be
    /// ours (or the server user's), private, and not a symbolic link: the socket directory may be in /tmp, where
    /// another user could have made it first.
    private func makePrivateDirectory(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            let owner = serverUser.flatMap { getpwnam($0)?.pointee.pw_uid } ?? geteuid()
            guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == owner || info.st_uid == geteuid(),
                info.st_mode & 0o077 == 0
            else {
                throw StoreError.cluster(
                    "\(path) exists but is not a private directory of this user; remove it or choose another data "
                        + "directory"
                )
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cluster("cannot create \(path): \(error.localizedDescription)")
        }
        chmod(path, 0o700)
        try handToServerUser(path)
    }

    /// As root, the server runs as another user, who must be able to enter every directory above its data
    /// directory; a home directory of mode 0700 is the usual obstacle. Says which directory, rather than letting
    /// initdb fail with a bare "permission denied".
    private func checkServerUserCanReach(_ path: String) throws {
        guard let serverUser, let entry = getpwnam(serverUser) else { return }
        let uid = entry.pointee.pw_uid
        var directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        var blocked: String?
        while directory.path != "/" {
            var info = stat()
            if stat(directory.path, &info) == 0, info.st_uid != uid, info.st_mode & 0o001 == 0 {
                blocked = directory.path
            }
            directory.deleteLastPathComponent()
        }
        if let blocked {
            throw StoreError.cluster(
                "PostgreSQL runs as \(serverUser), who cannot enter \(blocked) on the way to \(path): make it "
                    + "searchable (chmod o+x \(blocked)) or choose a --data-dir outside it"
            )
        }
    }

    private func handToServerUser(_ path: String) throws {
        guard let serverUser else { return }
        guard let entry = getpwnam(serverUser) else {
            throw StoreError.cluster(
                "running as root, but there is no '\(serverUser)' user to run PostgreSQL as: install PostgreSQL "
                    + "(apt-get install -y postgresql) or run barkeepd as an ordinary user"
            )
        }
        guard chown(path, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else {
            throw StoreError.cluster("cannot hand \(path) to \(serverUser): \(String(cString: strerror(errno)))")
        }
    }

    private static func defaultSocketDirectory(for options: Options) -> String {
        let socketName = "/.s.PGSQL.\(options.port)"
        let inData = URL(fileURLWithPath: options.dataDirectory).standardizedFileURL.path
        if (inData + socketName).utf8.count <= 100 { return inData }
        // Too long for a socket address: a private directory named after the data directory instead.
        let digest = SHA256Digest.hex(of: Array(inData.utf8)).prefix(16)
        return FileManager.default.temporaryDirectory.path + "/barkeep-pg-\(digest)"
    }

    // MARK: - Quoting

    static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func quoteSetting(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private static func quoteConninfo(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
