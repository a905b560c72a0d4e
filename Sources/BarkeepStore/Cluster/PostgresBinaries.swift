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
        let directory = FileManager.default.temporaryDirectory.path
        let outputPath = directory + "/barkeep-cmd-\(UUID().uuidString).out"
        let errorPath = directory + "/barkeep-cmd-\(UUID().uuidString).err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }

        let pid = try ProcessSpawner.spawn(argv, standardOutput: outputPath, standardError: errorPath)
        let exitCode = try ProcessSpawner.wait(for: pid)
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
