import BarkeepCore
import Foundation

/// The ledger of an inbox source: every file it dealt with, so that a restart neither loses nor re-ingests one
/// (docs/sources.md).
extension SourceStore {
    /// What an inbox source did with a file, found again by its name and stamp.
    public struct FileRecord: Sendable, Equatable {
        /// Whether it was ingested.
        public var isSuccess: Bool
        /// Why not, when it was not.
        public var error: String?
    }

    /// The record of the file `name` with `stamp` and `digest`, if the source dealt with it and the file has not
    /// left the inbox since (a daemon stopped between the two); nil for a file to deal with.
    public static func file(
        _ name: String,
        stamp: String,
        digest: String,
        of sourceID: Int64,
        on connection: PostgresConnection
    ) throws -> FileRecord? {
        try connection.query(
            """
            SELECT outcome, error FROM source_files
            WHERE source_id = $1 AND name = $2 AND stamp = $3 AND digest = $4 AND moved_at IS NULL
            """,
            [sourceID, name, stamp, digest]
        ).first.map { row in
            FileRecord(
                isSuccess: try row.decode("outcome", as: SourceRunResult.self).isSuccess,
                error: try row.decodeIfPresent("error"))
        }
    }

    /// Inside the transaction that ingested (or refused) it: records what the source did with a file. The same file
    /// met again after it left the inbox replaces its old record.
    public static func recordFile(
        _ name: String,
        stamp: String,
        digest: String,
        of sourceID: Int64,
        scanRun: Int64?,
        error: String?,
        on connection: PostgresConnection
    ) throws {
        try connection.query(
            """
            INSERT INTO source_files (source_id, name, stamp, digest, outcome, scan_run, error)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (source_id, name, stamp) DO UPDATE
            SET digest = excluded.digest, outcome = excluded.outcome, scan_run = excluded.scan_run,
                error = excluded.error, at = now(), moved_at = NULL
            """,
            [sourceID, name, stamp, digest, SourceRunResult(isSuccess: error == nil).rawValue, scanRun, error]
        )
    }

    /// Notes that the file recorded as `name` with `stamp` has left the inbox.
    public static func fileMoved(
        _ name: String,
        stamp: String,
        of sourceID: Int64,
        on connection: PostgresConnection
    ) throws {
        try connection.query(
            "UPDATE source_files SET moved_at = now() WHERE source_id = $1 AND name = $2 AND stamp = $3",
            [sourceID, name, stamp]
        )
    }
}
