/// Reading a long result a page at a time.
extension PostgresConnection {
    /// Reads the rows of `sql` through a cursor, `pageSize` rows at a time, inside the transaction the caller has
    /// open (a cursor lives only in one). `page` gets each page and whether the rows end with it (fewer than
    /// `pageSize` came, maybe none); it returns false to stop early, which closes the cursor. The query runs once:
    /// a page costs a fetch, not another sort of the whole result.
    func forEachPage(
        _ sql: String,
        _ parameters: [(any PostgresEncodable)?],
        pageSize: Int,
        _ page: (PostgresRows, _ isLast: Bool) throws -> Bool
    ) throws {
        precondition(pageSize > 0, "a page holds at least one row")
        try query("DECLARE barkeep_pages NO SCROLL CURSOR FOR " + sql, parameters)
        while true {
            let rows = try query("FETCH FORWARD \(pageSize) FROM barkeep_pages")
            let isLast = rows.count < pageSize
            guard try page(rows, isLast), !isLast else { break }
        }
        try query("CLOSE barkeep_pages")
    }
}
