import BarkeepCore

/// Writes the rows of a sync's `COPY sync_rows` straight from the scan's table: strings go from the document's
/// bytes into the COPY buffer with COPY's escaping, identities hashed as they are written, from 32 bytes to hex, with no string built per
/// field but the file's when it changes from one row to the next (screen attribution takes a path string).
struct SyncRows {
    private let scan: IdentifiedScan
    private let screens: ScreenAttribution
    /// The last file attributed, its quote's offset in the table, and its screen: findings come file by file.
    private var lastFile: (quote: UInt32, path: String, screen: Int64?)?

    /// Rows of `scan`, attributed to `screens`.
    init(scan: IdentifiedScan, screens: ScreenAttribution) {
        self.scan = scan
        self.screens = screens
    }

    /// Writes one row: the action, the stored finding's id and previous status, the scanned finding `index` (nil
    /// for a fixed one), for a changed finding where it was and what it read, and for a renamed one its old file
    /// and line. The columns are those of `COPY sync_rows` in `ScanStore.apply`.
    mutating func write(
        _ action: SyncRowAction, _ id: Int64?, _ previous: String?, _ index: Int?, previousLine: Int? = nil,
        previousSnippet: String? = nil, previousFile: String? = nil, to writer: inout CopyWriter
    ) throws {
        // A finding seen again (moved, re-worded, reopened, sticky) updates its line, snippet, message and
        // fingerprints alone, and its events read the rest from its row: its identity, texts and screen are not sent.
        let isUpdate = action == .seen || action == .reopened
        let screen = isUpdate ? nil : index.map { self.screen(of: scan.table.rows[$0].file) } ?? nil
        try writer.writeRow { fields in
            try fields.append(action.rawValue)
            fields.append(id.map(Int.init))
            try fields.append(previous)
            guard let index else {
                for _ in 0..<12 { fields.appendNull() }
                fields.append(previousLine)
                try fields.append(previousSnippet)
                return try fields.append(previousFile)
            }
            try appendScanned(index, screen: screen, isUpdate: isUpdate, to: &fields)
            fields.append(previousLine)
            try fields.append(previousSnippet)
            try fields.append(previousFile)
        }
    }

    /// Writes a row of a first import's `COPY findings` (`ScanStore.copyFirstImport`): the constant columns that
    /// `prefix` appends, then finding `index`'s, in the order of `sync_rows`' (identity to screen).
    mutating func writeFinding(
        _ index: Int, after prefix: (inout CopyFields) throws -> Void, to writer: inout CopyWriter
    ) throws {
        let screen = self.screen(of: scan.table.rows[index].file)
        try writer.writeRow { fields in
            try prefix(&fields)
            try appendScanned(index, screen: screen, to: &fields)
        }
    }

    /// Appends finding `index`'s columns: identity, rule, file, normalized snippet, occurrence, line, snippet,
    /// message, title, severity, fingerprints and screen. For an update (`isUpdate`) the columns its UPDATE does not
    /// set (identity to occurrence, title, severity) are NULL.
    private func appendScanned(_ index: Int, screen: Int64?, isUpdate: Bool = false, to fields: inout CopyFields)
        throws
    {
        let table = scan.table
        let row = table.rows[index]
        if isUpdate {
            for _ in 0..<5 { fields.appendNull() }
        } else {
            fields.append(scan.identity(at: index))
            try table.withText(at: row.rule) { try fields.append($0) }
            try table.withText(at: row.file) { try fields.append($0) }
            var normalized: [UInt8] = []
            table.withText(at: row.snippet) { FindingIdentity.appendNormalized($0, to: &normalized) }
            try normalized.withUnsafeBufferPointer { try fields.append($0) }
            fields.append(Int(scan.occurrences[index]))
        }
        fields.append(Int(row.line))
        try table.withText(at: row.snippet) { try fields.append($0) }
        try optional(row.message, in: table, to: &fields)
        if isUpdate {
            fields.appendNull()
            fields.appendNull()
        } else {
            try optional(row.title, in: table, to: &fields)
            try fields.append(row.severity.rawValue)
        }
        try fields.append(index < table.fingerprints.count ? table.fingerprints[index] : nil)
        fields.append(screen.map(Int.init))
    }

    private func optional(_ quote: UInt32, in table: ScanTable, to fields: inout CopyFields) throws {
        guard quote != 0 else { return fields.appendNull() }
        try table.withText(at: quote) { try fields.append($0) }
    }

    /// The screen the file whose quote is at `quote` belongs to.
    private mutating func screen(of quote: UInt32) -> Int64? {
        if let lastFile, lastFile.quote == quote || scan.table.text(at: quote, equals: lastFile.path) {
            return lastFile.screen
        }
        let path = scan.table.string(at: quote) ?? ""
        let screen = screens.screen(for: path)
        lastFile = (quote, path, screen)
        return screen
    }
}
