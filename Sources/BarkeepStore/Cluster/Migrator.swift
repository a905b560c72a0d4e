import BarkeepCore
import BarkeepHashing

/// One forward-only schema migration: `Schema/NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    /// The number in the file name; migrations apply in increasing order.
    public let version: Int
    /// The file name's description part.
    public let name: String
    /// The SQL script.
    public let sql: String

    /// Creates a migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the script, recorded when applied so that an edited migration is noticed.
    public var checksum: String { SHA256Digest.hex(of: Array(sql.utf8)) }

    /// The migrations compiled into this binary from `Schema/`.
    public static let embedded: [Migration] = EmbeddedSchema.migrations.map {
        Migration(version: $0.version, name: $0.name, sql: $0.sql)
    }
}

/// Brings a database's schema up to date.
///
/// Each migration runs in its own transaction together with its row in `schema_migrations`, so it is applied
/// wholly or not at all. The whole run holds a session advisory lock: two daemons starting together on one
/// database take turns, and the second finds nothing left to do. A database that already holds a version this
/// binary does not know, or an applied migration whose text differs from this binary's, is refused.
public struct Migrator: Sendable {
    /// The advisory lock key every Barkeep migrator takes ("barkeep" in ASCII).
    public static let advisoryLockKey: Int64 = 0x62_6172_6b65_6570

    /// The oldest PostgreSQL the schema runs on (`server_version_num`): 15 added `ON DELETE SET NULL (column)`.
    public static let minimumServerVersion = 150_000

    /// The migrations this migrator knows, in version order.
    public let migrations: [Migration]

    /// Creates a migrator; `migrations` must have distinct versions.
    public init(migrations: [Migration] = Migration.embedded) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The newest version this migrator knows, 0 when it knows none.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies every pending migration and returns those it applied (empty when the schema was current).
    @discardableResult
    public func migrate(_ connection: PostgresConnection, logger: Logger? = nil) throws -> [Migration] {
        let version = try connection.queryValue("SELECT current_setting('server_version_num')::int", as: Int.self) ?? 0
        guard version >= Self.minimumServerVersion else {
            throw StoreError.unsupportedServer(version: version)
        }
        try connection.query("SELECT pg_advisory_lock($1)", [Self.advisoryLockKey])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [Self.advisoryLockKey]) }

        try connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """
        )
        let applied = try appliedMigrations(connection)
        if let newest = applied.keys.max(), newest > latestVersion {
            throw StoreError.schemaTooNew(database: newest, binary: latestVersion)
        }
        for migration in migrations {
            if let checksum = applied[migration.version], checksum != migration.checksum {
                throw StoreError.migrationChanged(version: migration.version, name: migration.name)
            }
        }

        var done: [Migration] = []
        for migration in migrations where applied[migration.version] == nil {
            do {
                try connection.transaction { connection in
                    try connection.executeScript(migration.sql)
                    // A script that commits or rolls back by itself would apply in part; refuse it.
                    guard connection.isInTransaction else {
                        throw StoreError.invalid("the migration ended its transaction itself (COMMIT or ROLLBACK)")
                    }
                    try connection.query(
                        "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                        [migration.version, migration.name, migration.checksum]
                    )
                }
            } catch let error as StoreError {
                if case .connectionLost = error { throw error }
                throw StoreError.migrationFailed(version: migration.version, name: migration.name, reason: "\(error)")
            }
            logger?.info("migration applied", ["version": String(migration.version), "name": migration.name])
            done.append(migration)
        }
        return done
    }

    /// The schema version of a database: the highest applied migration, 0 for an empty database.
    public func currentVersion(_ connection: PostgresConnection) throws -> Int {
        let exists = try connection.queryValue("SELECT to_regclass('schema_migrations') IS NOT NULL", as: Bool.self)
        guard exists == true else { return 0 }
        return try connection.queryValue("SELECT coalesce(max(version), 0) FROM schema_migrations", as: Int.self) ?? 0
    }

    private func appliedMigrations(_ connection: PostgresConnection) throws -> [Int: String] {
        var applied: [Int: String] = [:]
        for row in try connection.query("SELECT version, checksum FROM schema_migrations") {
            applied[try row.decode("version", as: Int.self)] = try row.decode("checksum", as: String.self)
        }
        return applied
    }
}
