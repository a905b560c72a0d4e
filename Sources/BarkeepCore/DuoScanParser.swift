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
    /// A finding's required members, in the order a missing one is reported.
    private static let required = ["rule", "severity", "file", "line", "snippet"]

    /// Parses a whole duo_scan JSON document.
    ///
    /// The bytes are read twice with `JSONStreamReader`, never as an object tree: the first pass checks the whole
    /// document and counts its findings, keeping nothing, so a refused document costs no memory beyond its bytes;
    /// the second keeps the findings, in an array reserved to their exact count.
    public static func parse(_ bytes: [UInt8]) throws(CoreError) -> ScanReport {
        do {
            var (report, findings) = try JSONStreamReader.readTwice {
                (findings: inout [ScanFinding]?) throws(JSONProblem) in
                try read(bytes, into: &findings)
            }
            report.findings = findings
            return report
        } catch {
            throw error.coreError
        }
    }

    /// Reads the document; appends each finding to `findings` unless it is nil. Returns the report without its
    /// findings, and how many the document holds.
    private static func read(
        _ bytes: [UInt8],
        into findings: inout [ScanFinding]?
    ) throws(JSONProblem) -> (header: ScanReport, count: Int) {
        var tool: String?
        var toolVersion: String?
        var filesScanned: Int?
        var lifecycle: String?
        var count: Int?
        var reader = JSONStreamReader(bytes)
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
                // The pass that keeps nothing checks each finding without building its strings.
                let keeping = findings != nil
                count = try reader.readElements(into: &findings) { reader throws(JSONProblem) in
                    try finding(from: &reader, keeping: keeping)
                }
            default: try reader.skipValue()
            }
        }
        guard let tool else { throw JSONProblem(at: .key("tool"), problem: JSONProblem.missing) }
        guard let count else { throw JSONProblem(at: .key("findings"), problem: JSONProblem.missing) }
        let report = ScanReport(
            format: .duoScan,
            tool: tool,
            toolVersion: toolVersion,
            filesScanned: filesScanned,
            lifecycle: lifecycle,
            findings: []
        )
        return (report, count)
    }

    /// Reads one finding; unless `keeping`, only checks it and returns a finding of empty strings, which the caller
    /// drops.
    private static func finding(from reader: inout JSONStreamReader, keeping: Bool) throws(JSONProblem)
        -> ScanFinding
    {
        guard keeping else { return try check(&reader) }
        var rule: String?
        var title: String?
        var severity: String?
        var file: String?
        var line: Int?
        var snippet: String?
        var advice: String?
        try reader.readObject { reader, key throws(JSONProblem) in
            switch key {
            case "rule": rule = try reader.readString()
            case "title": title = try reader.readString()
            case "severity":
                severity = try reader.readString()
                if let severity, !isSeverity(severity) {
                    throw JSONProblem(problem: JSONProblem.expectedOne(of: severities))
                }
            case "file": file = try reader.readString()
            case "line": line = try reader.readInteger(minimum: 1)
            case "snippet": snippet = try reader.readString()
            case "advice": advice = try reader.readString()
            default: try reader.skipValue()
            }
        }
        guard let rule else { throw JSONProblem(at: .key("rule"), problem: JSONProblem.missing) }
        guard let severity else { throw JSONProblem(at: .key("severity"), problem: JSONProblem.missing) }
        guard let file else { throw JSONProblem(at: .key("file"), problem: JSONProblem.missing) }
        guard let line else { throw JSONProblem(at: .key("line"), problem: JSONProblem.missing) }
        guard let snippet else { throw JSONProblem(at: .key("snippet"), problem: JSONProblem.missing) }
        return ScanFinding(
            rule: rule, title: title, severity: severity, file: file, line: line, snippet: snippet, message: advice)
    }

    /// Checks a finding as `finding(from:keeping:)` reads it, in the same order and with the same errors, building
    /// no string but the severity.
    private static func check(_ reader: inout JSONStreamReader) throws(JSONProblem) -> ScanFinding {
        // The required members seen, by their index in `required`.
        var seen: UInt8 = 0
        func mark(_ key: String) { if let index = required.firstIndex(of: key) { seen |= 1 << index } }
        try reader.readObject { reader, key throws(JSONProblem) in
            switch key {
            case "rule", "title", "file", "snippet", "advice":
                if try reader.checkString() { mark(key) }
            case "severity":
                if let severity = try reader.readString() {
                    guard isSeverity(severity) else {
                        throw JSONProblem(problem: JSONProblem.expectedOne(of: severities))
                    }
                    mark(key)
                }
            case "line": if try reader.readInteger(minimum: 1) != nil { mark(key) }
            default: try reader.skipValue()
            }
        }
        for (index, key) in required.enumerated() where seen & (1 << index) == 0 {
            throw JSONProblem(at: .key(key), problem: JSONProblem.missing)
        }
        return ScanFinding(rule: "", title: nil, severity: "", file: "", line: 1, snippet: "", message: nil)
    }

    private static func isSeverity(_ word: String) -> Bool { Severity(rawValue: word) != nil }
}
