/// The order in which a run's new findings take their numbers: by file (its UTF-8 bytes, as PostgreSQL's `COLLATE "C"`
/// compares), then line, then identity (its bytes, the order of its hex). One rule for both ways a sync creates
/// findings: a first import writes them in this order with their numbers, a later sync numbers them in SQL with
/// `ORDER BY file, line, identity` (`ScanStore`), and a test holds the two to the same numbers.
public enum NewFindingOrder {
    /// `indices` (findings of `scan`) in numbering order.
    ///
    /// Files are compared once per distinct run of equal files in the table (findings come file by file), not once
    /// per comparison; identities are hashed only for findings that share a file and line.
    public static func sorted(_ indices: [UInt32], of scan: IdentifiedScan) -> [UInt32] {
        let table = scan.table
        let ranks = fileRanks(of: indices, in: table)
        var sorted = indices
        sorted.sort { left, right in
            let leftRank = ranks[Int(left)]
            let rightRank = ranks[Int(right)]
            if leftRank != rightRank { return leftRank < rightRank }
            return table.rows[Int(left)].line < table.rows[Int(right)].line
        }
        // Findings of one file and line: by identity.
        var start = 0
        while start < sorted.count {
            let first = Int(sorted[start])
            var end = start + 1
            while end < sorted.count, ranks[Int(sorted[end])] == ranks[first],
                table.rows[Int(sorted[end])].line == table.rows[first].line
            {
                end += 1
            }
            if end - start > 1 {
                let tied = sorted[start..<end].map { (identity: scan.identity(at: Int($0)), index: $0) }
                    .sorted { $0.identity < $1.identity }
                for (offset, finding) in tied.enumerated() { sorted[start + offset] = finding.index }
            }
            start = end
        }
        return sorted
    }

    /// The file of each of `indices` as a rank, by finding index (other findings' entries are 0): equal files have
    /// equal ranks, and ranks follow the files' byte order.
    private static func fileRanks(of indices: [UInt32], in table: ScanTable) -> [UInt32] {
        // A group per run of equal files, as they come; the groups' files sorted once.
        var ranks = [UInt32](repeating: 0, count: table.count)
        var firsts: [UInt32] = []
        for index in indices {
            let quote = table.rows[Int(index)].file
            if let last = firsts.last, last == quote || equalTexts(last, quote, in: table) {
                ranks[Int(index)] = UInt32(firsts.count - 1)
                continue
            }
            ranks[Int(index)] = UInt32(firsts.count)
            firsts.append(quote)
        }
        let byFile = firsts.indices.sorted { left, right in
            table.withText(at: firsts[left]) { leftText in
                table.withText(at: firsts[right]) { leftText.lexicographicallyPrecedes($0) }
            }
        }
        var rankOfGroup = [UInt32](repeating: 0, count: firsts.count)
        var rank: UInt32 = 0
        for (position, group) in byFile.enumerated() {
            if position > 0, !equalTexts(firsts[byFile[position - 1]], firsts[group], in: table) { rank += 1 }
            rankOfGroup[group] = rank
        }
        for index in indices { ranks[Int(index)] = rankOfGroup[Int(ranks[Int(index)])] }
        return ranks
    }

    private static func equalTexts(_ left: UInt32, _ right: UInt32, in table: ScanTable) -> Bool {
        table.withText(at: left) { leftText in table.withText(at: right) { leftText.elementsEqual($0) } }
    }
}
