/// A table of styled cells for the terminal: each column as wide as its widest cell, left or right aligned, with
/// its own gap after it; lines carry no trailing blanks, so they compare and paste cleanly.
struct TerminalTable {
    /// How a column's cells sit in it.
    enum Alignment { case left, right }

    /// One column: its header, alignment and the blanks after it.
    struct Column {
        /// The header.
        var header: String
        /// How its cells sit.
        var alignment: Alignment
        /// Blanks between it and the next column.
        var gap = 2
    }

    /// The columns.
    var columns: [Column]
    /// The rows, a cell per column.
    var rows: [[StyledText]]

    /// The width of each column: its widest cell or header.
    var widths: [Int] {
        var widths = columns.map(\.header.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.width)
            }
        }
        return widths
    }

    /// The width of the widest line.
    var width: Int {
        zip(widths, columns).map { $0 + $1.gap }.reduce(0, +) - (columns.last?.gap ?? 0)
    }

    /// The header line (bold) and a line per row.
    var lines: [StyledText] {
        let widths = widths
        func line(_ cells: [StyledText]) -> StyledText {
            var result = StyledText()
            for (index, cell) in cells.enumerated() {
                let padding = StyledText(TerminalLayout.spaces(widths[index] - cell.width))
                let isLast = index == cells.count - 1
                switch columns[index].alignment {
                case .left: result = result + cell + (isLast ? "" : padding)
                case .right: result = result + padding + cell
                }
                if !isLast { result = result + StyledText(TerminalLayout.spaces(columns[index].gap)) }
            }
            // Trailing blank cells leave trailing spaces: drop them.
            while let last = result.spans.last, last.style == nil, last.text.last == " " || last.text.isEmpty {
                let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
                if trimmed.isEmpty {
                    result.spans.removeLast()
                } else {
                    result.spans[result.spans.count - 1].text = trimmed
                    break
                }
            }
            return result
        }
        return [line(columns.map { StyledText($0.header, .bold) })] + rows.map(line)
    }

    /// The table without column `index`.
    func removing(column index: Int) -> TerminalTable {
        var table = self
        table.columns.remove(at: index)
        table.rows = rows.map { row in
            var row = row
            row.remove(at: index)
            return row
        }
        return table
    }

    /// The table with column `index`'s plain cells cut (with `…`) to at most `width` characters.
    func cutting(column index: Int, to width: Int) -> TerminalTable {
        var table = self
        table.rows = rows.map { row in
            var row = row
            if row[index].width > width {
                row[index] = StyledText(TerminalLayout.truncated(row[index].plain, to: width))
            }
            return row
        }
        return table
    }
}
