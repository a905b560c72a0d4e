/// Reads the JSON report of the `duo_scan` scanner (format in `shared/fixtures/README.md`).
///
/// Required: `tool` (string) and `findings` (array); in each finding `rule`, `severity` (critical, high, medium,
/// low or info), `file`, `line` (integer ≥ 1) and `snippet` (string, may be empty). Optional, and `null` counts as
/// absent: `version`, `source_files_scanned`, `project.lifecycle`, and each finding's `title` and `advice`. The
/// scanner's `id` (`RULE:path:line`) is not read: it changes whenever lines move, so it is no identity. Members
/// this parser does not use (`summary`, `inventory`, `skill`, `source`, …) are ignored whatever they hold.
///
/// A document that is not JSON, or has a wrong type or a missing member anywhere the parser reads, throws
/// `CoreError.invalidDocument` naming the place (`findings[12].line`, `expected an integer`), and so does a key that
/// appears twice in any object (`findings[3].line: duplicate key`).
public enum DuoScanParser {
    /// The severities duo_scan reports, most severe first.
    private static let severities = Severity.allCases.map(\.rawValue)

    /// Parses a whole duo_scan JSON document into `ScanReport`'s strings (for tests and tools; the sync reads
    /// `parseTable`).
    public static func parse(_ bytes: [UInt8]) throws(CoreError) -> ScanReport {
        try parseTable(bytes).report
    }

    /// Parses a whole duo_scan JSON document in one pass into a `ScanTable` pointing into `bytes`.
    ///
    /// Each finding is checked as it is read and kept as one fixed-size row, no string built but its severity (a
    /// short one, held inline): what a document refused at its last byte costs besides its bytes is a table of at
    /// most 28 bytes per finding read, and every finding takes some 60 bytes of the document or more.
    public static func parseTable(_ bytes: [UInt8]) throws(CoreError) -> ScanTable {
        guard bytes.count <= ScanTable.maximumBytes else {
            throw CoreError.invalidDocument(path: "", problem: "larger than \(ScanTable.maximumBytes) bytes")
        }
        return try JSONStreamReader.read(bytes) { reader throws(JSONProblem) in
            var tool: String?
            var toolVersion: String?
            var filesScanned: Int?
            var lifecycle: String?
            var rows: [ScanTable.Row]?
            try reader.readDocument { reader, key throws(JSONProblem) in
                switch key {
                case "tool": tool = try reader.readString()
                case "version": toolVersion = try reader.readString()
                case "source_files_scanned": filesScanned = try reader.readInteger(minimum: 0)
                case "project":
                    guard try reader.peekKind() != .null else { return try reader.skipValue() }
                    try reader.readObject { reader, key throws(JSONProblem) in
                        if key == "lifecycle" { lifecycle = try reader.readString() } else { try reader.skipValue() }
                    }
                case "findings":
                    // Room for more rows than the bytes can hold: pages never written are never resident, and the
                    // rows are never copied into a larger array as they grow.
                    var kept: [ScanTable.Row]? = []
                    kept?.reserveCapacity(bytes.count / 32 + 1)
                    if try reader.readElements(into: &kept, row(from:)) != nil { rows = kept }
                default: try reader.skipValue()
                }
            }
            guard let tool else { throw JSONProblem(at: .key("tool"), problem: JSONProblem.missing) }
            guard let rows else { throw JSONProblem(at: .key("findings"), problem: JSONProblem.missing) }
            return ScanTable(
                format: .duoScan, tool: tool, toolVersion: toolVersion, filesScanned: filesScanned,
                lifecycle: lifecycle, bytes: bytes, rows: rows)
        }
    }

    /// Reads one finding into a row of string offsets.
    private static func row(from reader: inout JSONStreamReader) throws(JSONProblem) -> ScanTable.Row {
        // Offset 0 stands for an absent string: no string of a document starts at its first byte.
        var rule = 0
        var title = 0
        var severity: Severity?
        var file = 0
        var line: Int?
        var snippet = 0
        var advice = 0
        try reader.readObject { reader, key throws(JSONProblem) in
            switch key {
            case "rule": rule = try reader.readStringOffset() ?? 0
            case "title": title = try reader.readStringOffset() ?? 0
            case "severity":
                if let word = try reader.readString() {
                    guard let known = Severity(rawValue: word) else {
                        throw JSONProblem(problem: JSONProblem.expectedOne(of: severities))
                    }
                    severity = known
                }
            case "file": file = try reader.readStringOffset() ?? 0
            case "line": line = try reader.readInteger(minimum: 1)
            case "snippet": snippet = try reader.readStringOffset() ?? 0
            case "advice": advice = try reader.readStringOffset() ?? 0
            default: try reader.skipValue()
            }
        }
        guard rule != 0 else { throw JSONProblem(at: .key("rule"), problem: JSONProblem.missing) }
        guard let severity else { throw JSONProblem(at: .key("severity"), problem: JSONProblem.missing) }
        guard file != 0 else { throw JSONProblem(at: .key("file"), problem: JSONProblem.missing) }
        guard let line else { throw JSONProblem(at: .key("line"), problem: JSONProblem.missing) }
        guard snippet != 0 else { throw JSONProblem(at: .key("snippet"), problem: JSONProblem.missing) }
        return ScanTable.Row(
            rule: UInt32(rule), title: UInt32(title), file: UInt32(file), snippet: UInt32(snippet),
            message: UInt32(advice), line: UInt32(line), severity: severity)
    }
}
