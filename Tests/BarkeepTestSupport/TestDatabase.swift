import BarkeepStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Fresh, empty PostgreSQL databases for tests.
///
/// The first call starts one throwaway cluster for the whole test process (initdb --no-sync, fsync off, its socket
/// in the test process's temporary directory; through `runuser -u postgres` when the tests run as root), which a
/// watchdog stops and deletes once the test process has gone, however it ends. `BARKEEP_TEST_DATABASE_URL` points
/// the tests at an existing server instead (the role needs CREATEDB).
///
/// Tests never skip when PostgreSQL is missing: `makeDatabase()` throws, and the error says what is missing.
public enum TestDatabase {
    private static let counter = Atomic<Int>(0)

    /// Where the tests' server is: the conninfo of its maintenance database, or why there is none.
    private static let server: Result<PostgresConfiguration, TestSupportError> = startServer()

    /// Creates an empty database and returns how to connect to it.
    public static func makeDatabase() throws -> PostgresConfiguration {
        try makeDatabase(options: "")
    }

    /// A new empty database created with `options` after its name (a constant of the test, such as
    /// `TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'` for a default collation that is not
    /// byte order, as a database an operator creates may have).
    public static func makeDatabase(options: String) throws -> PostgresConfiguration {
        let admin = try server.get()
        let number = counter.add(1, ordering: .relaxed).newValue
        let name = "barkeep_test_\(getpid())_\(number)"
        let connection = try PostgresConnection(configuration: admin)
        defer { connection.close() }
        try connection.query("CREATE DATABASE \"\(name)\" \(options)")
        return admin.with(database: name)
    }

    /// A connection to a new empty database.
    public static func makeConnection() throws -> PostgresConnection {
        try PostgresConnection(configuration: makeDatabase())
    }

    private static func startServer() -> Result<PostgresConfiguration, TestSupportError> {
        if let url = ProcessInfo.processInfo.environment["BARKEEP_TEST_DATABASE_URL"], !url.isEmpty {
            return .success(PostgresConfiguration(conninfo: url, applicationName: "barkeep-tests"))
        }
        do {
            let root = try TemporaryDirectory.make(prefix: "barkeep-tests")
            // As root, the server runs as postgres and must be able to enter the directory.
            chmod(root, 0o755)
            let binaries = try PostgresBinaries.locate()
            let cluster = try PostgresCluster(
                binaries: binaries,
                options: .init(dataDirectory: root + "/pg", isEphemeral: true)
            )
            try cluster.initializeIfNeeded()
            try cluster.start()
            // TemporaryDirectory's watchdog stops it once the test process has gone.
            var configuration = cluster.configuration(database: "postgres")
            configuration.applicationName = "barkeep-tests"
            return .success(configuration)
        } catch {
            return .failure(
                TestSupportError(
                    "cannot start the tests' PostgreSQL: \(error). Install PostgreSQL (make deps) or set "
                        + "BARKEEP_TEST_DATABASE_URL to a server where this role may create databases."
                )
            )
        }
    }
}

/// A failure of the test support itself (no PostgreSQL, a binary not built), with what to do about it.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Temporary directories for tests.
public enum TemporaryDirectory {
    /// One directory per test process, holding every other: a watchdog removes it once the process has gone,
    /// however the process ends, after stopping whatever a test left running there (daemons, clusters).
    public static let root: String = {
        let base = FileManager.default.temporaryDirectory.path
        guard let path = try? makeUnique(base + "/barkeep-tests-\(getpid())") else { return base }
        // As root, PostgreSQL runs as postgres and must be able to enter the directory.
        chmod(path, 0o755)
        // Whatever a failed test left running: daemons started with a path inside the root, then every cluster in it.
        let pgCtl = (try? PostgresBinaries.locate())?.pgCtl ?? "pg_ctl"
        let asServer = geteuid() == 0 ? "runuser -u postgres -- " : ""
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done
            pkill -KILL -f '[b]arkeepd .*\(path)' 2>/dev/null
            find '\(path)' -name postmaster.pid 2>/dev/null | while read -r pidfile; do
                \(asServer)'\(pgCtl)' stop -D "$(dirname "$pidfile")" -m immediate >/dev/null 2>&1
            done
            rm -rf '\(path)'
            """
        _ = try? ProcessSpawner.spawn(
            ["/bin/sh", "-c", script],
            standardOutput: "/dev/null",
            standardError: "/dev/null",
            newSession: true
        )
        return path
    }()

    /// Creates a new directory inside the test process's root and returns its path.
    public static func make(prefix: String = "barkeep") throws -> String {
        try makeUnique(root + "/\(prefix)")
    }

    private static func makeUnique(_ prefix: String) throws -> String {
        guard let template = strdup(prefix + "-XXXXXX") else { throw TestSupportError("out of memory") }
        defer { free(template) }
        guard mkdtemp(template) != nil else {
            throw TestSupportError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        return String(cString: template)
    }
}
