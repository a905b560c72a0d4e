import BarkeepStore

/// What a sync wrote, from PostgreSQL's own counters: WAL bytes (`pg_current_wal_lsn`) and rows inserted, updated
/// and deleted in the database's tables (`pg_stat_user_tables`; a temporary table's rows go with it at commit).
/// barkeep-sync-bench prints them per sync; the aging-audit test asserts on the rows.
public struct SyncWrites: Sendable {
    /// WAL bytes (the whole cluster's).
    public var walBytes: Int64
    /// Rows inserted.
    public var inserted: Int64
    /// Rows updated.
    public var updated: Int64
    /// Rows deleted.
    public var deleted: Int64

    /// The counters now. The statistics this connection's transactions made are flushed first
    /// (`pg_stat_force_next_flush`, PostgreSQL 15), so that the sync just committed on it is counted.
    public static func reading(_ connection: PostgresConnection) throws -> SyncWrites {
        try connection.query("SELECT pg_stat_force_next_flush()")
        guard
            let row = try connection.query(
                """
                SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint,
                       coalesce(sum(n_tup_ins), 0)::bigint, coalesce(sum(n_tup_upd), 0)::bigint,
                       coalesce(sum(n_tup_del), 0)::bigint
                FROM pg_stat_user_tables
                """
            ).first
        else { throw StoreError.invalid("pg_stat_user_tables answered no row") }
        return SyncWrites(
            walBytes: try row.decode(at: 0), inserted: try row.decode(at: 1), updated: try row.decode(at: 2),
            deleted: try row.decode(at: 3))
    }

    /// What was written between `earlier` and these counters.
    public func since(_ earlier: SyncWrites) -> SyncWrites {
        SyncWrites(
            walBytes: walBytes - earlier.walBytes, inserted: inserted - earlier.inserted,
            updated: updated - earlier.updated, deleted: deleted - earlier.deleted)
    }

    /// Rows written: inserted, updated and deleted.
    public var rows: Int64 { inserted + updated + deleted }

    /// `WAL 25.1 KiB, rows written 12 (inserted 8, updated 4, deleted 0)`.
    public var text: String {
        return String(format: "WAL %.1f KiB", Double(walBytes) / 1024)
            + ", rows written \(rows) (inserted \(inserted), updated \(updated), deleted \(deleted))"
    }
}
