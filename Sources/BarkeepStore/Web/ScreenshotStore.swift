import BarkeepCore
import BarkeepHashing

/// An uploaded screenshot as stored: its content hash and what its header said.
public struct StoredScreenshot: Sendable, Equatable {
    /// The lowercase hex SHA-256 of its bytes, the key it is stored and named under (`sha256:HEX` in a pose).
    public var sha256: String
    /// Its format and size.
    public var header: ImageHeader
    /// Whether this upload stored it; false when the same bytes were stored already.
    public var isNew: Bool
}

/// Uploaded screenshots (docs/design/web-dashboard.md, section 5), stored once by content hash in PostgreSQL, so any
/// daemon on the database serves any of them. One that no pose result names is deleted a day after its last upload.
public enum ScreenshotStore {
    /// Stores `bytes`, after checking its header (`ImageHeader.parse`: `invalid` with the header's problem), unless
    /// the same bytes are stored already (then it only renews their upload time, so the cleanup leaves them a day
    /// to be named). Also deletes up to `ScreenshotLimit.unreferencedDeletedPerUpload` screenshots that no pose result
    /// names, uploaded more than `ScreenshotLimit.unreferencedKeptSeconds` ago.
    public static func put(_ bytes: [UInt8], by actor: String, on connection: PostgresConnection) throws
        -> StoredScreenshot
    {
        let header: ImageHeader
        do { header = try ImageHeader.parse(bytes) } catch { throw StoreError.invalid(error.message) }
        let sha256 = SHA256Digest.hex(of: bytes)
        return try connection.transaction { connection in
            // xmax is 0 on a row this statement inserted, not on one it updated.
            let isNew = try connection.queryValue(
                """
                INSERT INTO screenshots (sha256, media_type, width, height, bytes, created_by)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (sha256) DO UPDATE SET created_at = now()
                RETURNING xmax = 0
                """,
                [sha256, header.mediaType.rawValue, header.width, header.height, PostgresBytes(bytes), actor],
                as: Bool.self)
            try connection.query(
                """
                DELETE FROM screenshots WHERE sha256 IN (
                    SELECT s.sha256 FROM screenshots s
                    WHERE s.created_at < now() - make_interval(secs => $1) AND s.sha256 <> $2
                      AND NOT EXISTS (SELECT 1 FROM pose_results r WHERE r.screenshot_sha256 = s.sha256)
                    ORDER BY s.created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                """,
                [ScreenshotLimit.unreferencedKeptSeconds, sha256, ScreenshotLimit.unreferencedDeletedPerUpload])
            return StoredScreenshot(sha256: sha256, header: header, isNew: isNew ?? false)
        }
    }

    /// The screenshot stored under `sha256` (lowercase hex): its format and bytes; nil when none is.
    public static func fetch(_ sha256: String, on connection: PostgresConnection) throws
        -> (mediaType: ImageHeader.MediaType, bytes: [UInt8])?
    {
        guard
            let row = try connection.query("SELECT media_type, bytes FROM screenshots WHERE sha256 = $1", [sha256])
                .first
        else { return nil }
        guard let mediaType = ImageHeader.MediaType(rawValue: try row.decode("media_type")) else {
            throw StoreError.decoding(column: "media_type", expected: "ImageHeader.MediaType")
        }
        return (mediaType, try row.decode("bytes", as: PostgresBytes.self).bytes)
    }

    /// The size in bytes of the screenshot stored under `sha256`, nil when none is.
    public static func size(_ sha256: String, on connection: PostgresConnection) throws -> Int? {
        try connection.queryValue(
            "SELECT octet_length(bytes) FROM screenshots WHERE sha256 = $1", [sha256], as: Int.self)
    }

    /// The header of the screenshot stored under `sha256`, nil when none is; with `isLocked`, the row is locked
    /// against deletion (`FOR KEY SHARE`) until the caller's transaction ends, so a pose may name it.
    public static func header(_ sha256: String, isLocked: Bool = false, on connection: PostgresConnection) throws
        -> ImageHeader?
    {
        guard
            let row = try connection.query(
                "SELECT media_type, width, height FROM screenshots WHERE sha256 = $1"
                    + (isLocked ? " FOR KEY SHARE" : ""), [sha256]
            ).first
        else { return nil }
        guard let mediaType = ImageHeader.MediaType(rawValue: try row.decode("media_type")) else {
            throw StoreError.decoding(column: "media_type", expected: "ImageHeader.MediaType")
        }
        return ImageHeader(mediaType: mediaType, width: try row.decode("width"), height: try row.decode("height"))
    }
}
