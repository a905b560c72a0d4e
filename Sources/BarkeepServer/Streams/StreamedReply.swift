import BarkeepProtocol
import BarkeepStore

/// A reply read from the database a page at a time as its client reads it (`CommandAction.streamed`): the records of
/// `FINDINGS` and `MINE`, which grow with the project. Its bytes are those of the whole reply: the records, then
/// `OK` with `summary`'s fields and `count=N`. A reply that fits in one page is sent as any other.
///
/// The read keeps its place as an opaque position (a finding's file, line and id): the pages of one read come from one
/// cursor, and a read that gave up its database connection (its client stopped reading while others waited) goes on
/// from the last position sent, in a new transaction.
public struct StreamedReply: Sendable {
    /// Records per page, fetched at once: about 100 KB of findings. A client that does not read costs the daemon two
    /// pages beyond its unread-reply bound, one queued past it and one read ahead (docs/operations.md, Memory).
    public static let recordsPerPage = 256

    /// One page: its records, where the next page starts (nil: where the last one did), and whether it is the last.
    typealias Page = (records: [Record], position: (any Sendable)?, isLast: Bool)

    /// The final line's fields before `count` (MINE's `name`); empty: `OK count=N`.
    public let summary: Record
    /// Reads the pages from just after a position (nil: from the start), calling the sink with each until it
    /// returns false or the records end.
    let read: @Sendable (PostgresConnection, (any Sendable)?, (Page) throws -> Bool) throws -> Void

    /// A reply whose pages `read` reads from just after a position of type `positions` (nil: from the start): it
    /// calls its sink with each page's records, the position of the page's last record (nil for none) and whether it
    /// is the last page, until the sink returns false.
    public init<Position: Sendable>(
        summary: Record = Record(),
        positions: Position.Type,
        read:
            @escaping @Sendable (
                PostgresConnection, Position?, (_ records: [Record], _ last: Position?, _ isLast: Bool) throws -> Bool
            ) throws -> Void
    ) {
        self.summary = summary
        self.read = { connection, position, sink in
            // A position of another type is a programming error: read from the start, it would send the reply twice.
            let typed: Position?
            if let position {
                guard let cast = position as? Position else {
                    throw StoreError.decoding(column: "stream position", expected: "\(Position.self)")
                }
                typed = cast
            } else {
                typed = nil
            }
            try read(connection, typed) { records, last, isLast in
                try sink((records, last, isLast))
            }
        }
    }
}
