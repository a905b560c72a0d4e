/// A position in PostgreSQL's write-ahead log (a `pg_lsn`, written `16/B374D848`), as the number it stands for.
public struct WALPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The byte position in the log.
    public var value: UInt64

    /// The position `value`.
    public init(_ value: UInt64) { self.value = value }

    /// Parses PostgreSQL's text form, two hexadecimal halves around a slash; nil for anything else.
    public init?(_ text: String) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let high = UInt32(halves[0], radix: 16), let low = UInt32(halves[1], radix: 16)
        else { return nil }
        value = UInt64(high) << 32 | UInt64(low)
    }

    /// PostgreSQL's text form.
    public var description: String {
        String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    public static func < (lhs: WALPosition, rhs: WALPosition) -> Bool { lhs.value < rhs.value }

    /// Where the primary's log ends now, read on `connection` just after a write committed there: a replica that has
    /// replayed this far has replayed that commit (read-your-writes).
    ///
    /// The insert position, not the write position (`pg_current_wal_lsn()`): under `synchronous_commit = off` COMMIT
    /// returns before its record is written, so the write position may still lie before it; and not a position read
    /// inside the transaction, which lies before its commit record.
    ///
    /// When `connection` fails the question (it was lost just after the commit), it is asked once more on a new
    /// connection to the same server: any position read after the commit returned lies at or past it. Nil when
    /// neither answers, or the server says nothing usable (a standby, where the function fails, is not a primary to
    /// write on) — the caller then cannot promise the writer its next read on the replica.
    public static func afterCommit(on connection: PostgresConnection) -> WALPosition? {
        if let position = try? insertPosition(on: connection) { return position }
        // A short connect timeout: this runs on a pool thread after an acknowledged write, and a primary that does
        // not answer at once will not answer the writer's next read either.
        var configuration = connection.configuration
        configuration.connectTimeoutSeconds = min(configuration.connectTimeoutSeconds, 2)
        guard let fresh = try? PostgresConnection(configuration: configuration) else { return nil }
        defer { fresh.close() }
        return (try? insertPosition(on: fresh)) ?? nil
    }

    private static func insertPosition(on connection: PostgresConnection) throws -> WALPosition? {
        try connection.queryValue("SELECT pg_current_wal_insert_lsn()::text", as: String.self).flatMap(WALPosition.init)
    }
}
