import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The PostgreSQL server programs an embedded cluster needs: `initdb`, `pg_ctl` and `postgres`.
public struct PostgresBinaries: Sendable, Equatable {
    /// The directory holding the programs.
    public let directory: String

    /// The path of `initdb`.
    public var initdb: String { directory + "/initdb" }
    /// The path of `pg_ctl`.
    public var pgCtl: String { directory + "/pg_ctl" }

    private static let required = ["initdb", "pg_ctl", "postgres"]

    /// Finds the server programs: in `explicitDirectory` when given (and only there), else in
    /// `pg_config --bindir`, the newest `/usr/lib/postgresql/*/bin`, and the directories of `PATH`, in that order.
    /// Throws `StoreError.cluster` naming every place it looked and how to install what is missing.
    public static func locate(explicitDirectory: String? = nil) throws -> PostgresBinaries {
        if let explicitDirectory {
            if let missing = missingPrograms(in: explicitDirectory) {
                throw StoreError.cluster(
                    "--pg-bin \(explicitDirectory) does not hold the PostgreSQL server programs (missing: "
                        + missing.joined(separator: ", ") + ")"
                )
            }
            return PostgresBinaries(directory: explicitDirectory)
        }
        var candidates: [String] = []
        if let bindir = pgConfigBindir() { candidates.append(bindir) }
        candidates += versionedDirectories()
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in candidates where missingPrograms(in: directory) == nil {
            return PostgresBinaries(directory: resolve(directory))
        }
        throw StoreError.cluster(
            "PostgreSQL server programs not found: initdb, pg_ctl and postgres are in none of pg_config --bindir, "
                + "/usr/lib/postgresql/*/bin or PATH. Install them (Debian: apt-get install -y postgresql), pass "
                + "--pg-bin DIR, or use an existing server with --database-url"
        )
    }

    private static func missingPrograms(in directory: String) -> [String]? {
        let missing = required.filter { !FileManager.default.isExecutableFile(atPath: directory + "/" + $0) }
        return missing.isEmpty ? nil : missing
    }

    /// Follows a symlinked `initdb` (e.g. /usr/local/bin → /usr/lib/postgresql/15/bin) to the real directory, so
    /// `pg_ctl` finds its sibling `postgres` of the same version.
    private static func resolve(_ directory: String) -> String {
        let initdb = URL(fileURLWithPath: directory + "/initdb").resolvingSymlinksInPath()
        let real = initdb.deletingLastPathComponent().path
        return missingPrograms(in: real) == nil ? real : directory
    }

    private static func pgConfigBindir() -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        guard let pgConfig = paths.map({ $0 + "/pg_config" }).first(where: FileManager.default.isExecutableFile)
        else { return nil }
        guard let output = try? CommandRunner.run(pgConfig, ["--bindir"]), output.status == 0 else { return nil }
        let bindir = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return bindir.isEmpty ? nil : bindir
    }

    private static func versionedDirectories() -> [String] {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap { name in Int(name).map { ($0, name) } }
            .sorted { $0.0 > $1.0 }
            .map { "\(root)/\($0.1)/bin" }
    }
}

/// Runs a program to completion and captures what it printed.
///
/// Uses posix_spawn and waitpid rather than Foundation's Process, whose wait on Linux can hang when the program
/// leaves a daemon behind (as `pg_ctl start` does).
enum CommandRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// The last lines of what the program printed, for an error message.
        var summary: String {
            let text = (standardError.isEmpty ? standardOutput : standardError)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return text.split(separator: "\n").suffix(4).joined(separator: "; ")
        }
    }

    /// Runs `executable` with `arguments`; when `user` is set (the daemon runs as root), through
    /// `runuser -u USER --`, since PostgreSQL refuses to run as root.
    static func run(_ executable: String, _ arguments: [String], as user: String? = nil) throws -> Output {
        let argv =
            try user.map { [try runuserPath(), "-u", $0, "--", executable] + arguments } ?? [executable] + arguments
        // Output goes to files, not pipes: a server started by pg_ctl inherits them and keeps them open long after
        // pg_ctl exits, and a pipe would then never reach its end.
        let directory = FileManager.default.temporaryDirectory.path
        let outputPath = directory + "/barkeep-cmd-\(UUID().uuidString).out"
        let errorPath = directory + "/barkeep-cmd-\(UUID().uuidString).err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        // The daemon ignores SIGTERM, SIGINT and SIGPIPE (it handles them itself); ignored signals survive exec,
        // so give the child the default actions back and an empty signal mask.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        guard spawned == 0 else {
            throw StoreError.cluster("cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw StoreError.cluster("cannot wait for \(argv[0]): \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import: low 7 bits the signal, next byte the exit code.
        let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Output(
            status: exitCode,
            standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        )
    }

    private static func runuserPath() throws -> String {
        let candidates = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser"]
        guard let path = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw StoreError.cluster("running as root needs runuser (util-linux) to start PostgreSQL as postgres")
        }
        return path
    }
}
