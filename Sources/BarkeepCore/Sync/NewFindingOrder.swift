/// The order in which a run's new findings take their numbers: by file (its UTF-8 bytes, as PostgreSQL's `COLLATE "C"`
/// compares), then line, then identity (its bytes, the order of its hex). One rule for both ways a sync creates
/// findings: a first import writes them in this order with their numbers, a later sync numbers them in SQL with
/// `ORDER BY file, line, identity` (`ScanStore`), and a test holds the two to the same numbers.
public enum NewFindingOrder {
    /// Calls `body` with each of `indices` (findings of `scan`) in numbering order.
    ///
    /// The findings are bucketed by file (counted, then placed: 4 bytes a finding, whatever the order the scan lists
    /// them in), the distinct files sorted, and each file's findings sorted by line apart from the others. A file is
    /// looked up by its text only when it differs from the previous finding's (scans come file by file). Identities
    /// are hashed only for findings that share a file and line.
    public static func forEach(_ indices: [UInt32], of scan: IdentifiedScan, _ body: (UInt32) throws -> Void)
        rethrows
    {
        let table = scan.table
        var files: [[UInt8]: UInt32] = [:]
        var firstQuotes: [UInt32] = []
        // Each finding's file as a number, in the order files first appear; `visit` is called twice with the same
        // numbers.
        func visitFiles(_ visit: (UInt32, UInt32) -> Void) {
            var last: (quote: UInt32, file: UInt32)?
            for index in indices {
                let quote = table.rows[Int(index)].file
                if let last, sameText(last.quote, quote, in: table) {
                    visit(index, last.file)
                    continue
                }
                let key = table.withText(at: quote) { Array($0) }
                let file =
                    files[key]
                    ?? {
                        let file = UInt32(firstQuotes.count)
                        files[key] = file
                        firstQuotes.append(quote)
                        return file
                    }()
                last = (quote, file)
                visit(index, file)
            }
        }
        var counts: [Int] = []
        visitFiles { _, file in
            if Int(file) == counts.count { counts.append(0) }
            counts[Int(file)] += 1
        }
        var starts = [Int](repeating: 0, count: counts.count + 1)
        for file in counts.indices { starts[file + 1] = starts[file] + counts[file] }
        var bucketed = [UInt32](repeating: 0, count: indices.count)
        var next = starts
        visitFiles { index, file in
            bucketed[next[Int(file)]] = index
            next[Int(file)] += 1
        }
        let byText = firstQuotes.indices.sorted { left, right in
            table.withText(at: firstQuotes[left]) { leftText in
                table.withText(at: firstQuotes[right]) { leftText.lexicographicallyPrecedes($0) }
            }
        }
        for file in byText {
            try forEachByLine(&bucketed[starts[file]..<starts[file + 1]], of: scan, body)
        }
    }

    /// Calls `body` with each of `findings` (of one file) by line, then identity, sorting them in place.
    private static func forEachByLine(
        _ findings: inout ArraySlice<UInt32>, of scan: IdentifiedScan, _ body: (UInt32) throws -> Void
    ) rethrows {
        let rows = scan.table.rows
        findings.sort { rows[Int($0)].line < rows[Int($1)].line }
        var start = findings.startIndex
        while start < findings.endIndex {
            let line = rows[Int(findings[start])].line
            var end = start + 1
            while end < findings.endIndex, rows[Int(findings[end])].line == line { end += 1 }
            if end - start == 1 {
                try body(findings[start])
            } else {
                // By the identity's first 8 bytes, the whole identity where those are equal.
                var tied = findings[start..<end].map { (prefix: scan.identity(at: Int($0)).prefix, index: $0) }
                tied.sort { left, right in
                    guard left.prefix == right.prefix else { return left.prefix < right.prefix }
                    return scan.identity(at: Int(left.index)) < scan.identity(at: Int(right.index))
                }
                for finding in tied { try body(finding.index) }
            }
            start = end
        }
    }

    private static func sameText(_ left: UInt32, _ right: UInt32, in table: ScanTable) -> Bool {
        left == right
            || table.withText(at: left) { leftText in table.withText(at: right) { leftText.elementsEqual($0) } }
    }
}
